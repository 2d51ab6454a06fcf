// PreludeDotScaled.cpp - the prelude's tl.dot_scaled (Triton's microscaled matrix product),
// written in the kernel language as Triton decomposes it for GPUs without microscaled tensor
// cores: each operand format (e2m1 packed two per byte, e4m3fn, e5m2, fp16, bf16) decoded by
// integer bit operations and bitcasts, converted to the compute dtype (bf16, or fp16 when an
// operand is fp16), multiplied there by its e8m0 scales, then one 16-bit dot into f32.
#include "frontend/Prelude.h"

namespace tilevm::frontend {

const char* const kPreludeDotScaledSource = R"PY(

# Microscaled dot (OCP MX formats). A value decodes to f32 bits exactly; NaN and inf as
# Triton's interpreter decodes them (e5m2: exponent 31 is inf or NaN; e4m3fn: S.1111.111 is
# NaN, there is no inf; e2m1 has neither). An e8m0 scale s is 2^(s - 127) (s == 0 reads as 0,
# as in Triton), and s == 0xFF is NaN.
F32_NAN_BITS = 0x7FC00000
F32_INF_BITS = 0x7F800000


@triton.jit
def _mx_e2m1_bits(n):
    # n: 4-bit codes in uint32. 0 0.5 1 1.5 2 3 4 6 and their negatives.
    e = (n >> 1) & 3
    m = n & 1
    mag = tl.where(e == 0, m * 0x3F000000, ((e + 126) << 23) | (m << 22))
    return mag | ((n & 8) << 28)


@triton.jit
def _mx_e4m3_bits(b):
    # b: e4m3fn bytes in uint32 (bias 7; subnormals m * 2^-9).
    e = (b >> 3) & 15
    m = b & 7
    sub = (m.to(tl.float32) * 0.001953125).to(tl.uint32, bitcast=True)
    mag = tl.where(e == 0, sub, ((e + 120) << 23) | (m << 20))
    mag = tl.where((b & 0x7F) == 0x7F, F32_NAN_BITS, mag)
    return mag | ((b & 0x80) << 24)


@triton.jit
def _mx_e5m2_bits(b):
    # b: e5m2 bytes in uint32 (bias 15; subnormals m * 2^-16; exponent 31: inf, NaN).
    e = (b >> 2) & 31
    m = b & 3
    sub = (m.to(tl.float32) * 0.0000152587890625).to(tl.uint32, bitcast=True)
    mag = tl.where(e == 0, sub, ((e + 112) << 23) | (m << 21))
    mag = tl.where(e == 31, tl.where(m == 0, F32_INF_BITS, F32_NAN_BITS), mag)
    return mag | ((b & 0x80) << 24)


@triton.jit
def _mx_unpack_e2m1(x, along_last: tl.constexpr):
    # Two e2m1 values per byte, the first in the low nibble, unpacked along the last dim or the
    # one before it.
    b = x.to(tl.uint32)
    lo = _mx_e2m1_bits(b & 15).to(tl.float32, bitcast=True)
    hi = _mx_e2m1_bits(b >> 4).to(tl.float32, bitcast=True)
    if along_last:
        return tl.interleave(lo, hi)
    rank: tl.constexpr = len(x.shape)
    pair = tl.join(lo, hi)
    if rank == 2:
        return tl.reshape(tl.permute(pair, (0, 2, 1)), (2 * x.shape[0], x.shape[1]))
    else:
        rows = tl.reshape(pair, (x.shape[0] * x.shape[1], x.shape[2], 2))
        return tl.reshape(tl.permute(rows, (0, 2, 1)), (x.shape[0], 2 * x.shape[1], x.shape[2]))


@triton.jit
def _mx_scale_codes(scale, is_rhs: tl.constexpr, B: tl.constexpr, M: tl.constexpr, K: tl.constexpr):
    # e8m0 scale codes [B, M, K // 32] (rhs: [B, N, K // 32]; B only for 3-D operands) as
    # uint32, one per element of the operand: [B, M, K] (rhs: [B, K, N]).
    rank: tl.constexpr = len(scale.shape)
    tl.static_assert(scale.dtype == tl.uint8, "dot_scaled: scales must be uint8 (e8m0)")
    tl.static_assert((rank == 2 and B is None) or (rank == 3 and B is not None and scale.shape[0] == B),
                     "dot_scaled: a scale tensor must have the operand's rank and batch")
    tl.static_assert(scale.shape[rank - 2] == M and scale.shape[rank - 1] * 32 == K,
                     "dot_scaled: a scale tensor must be [M, K // 32] for lhs and [N, K // 32] for rhs (one e8m0 per 32 elements along K)")
    s = scale.to(tl.uint32)
    G: tl.constexpr = K // 32
    if rank == 2:
        rows: tl.constexpr = M
    else:
        rows: tl.constexpr = scale.shape[0] * M
    wide = tl.broadcast_to(tl.reshape(s, (rows, G, 1)), (rows, G, 32))
    if rank == 2:
        full = tl.reshape(wide, (M, K))
        if is_rhs:
            full = tl.permute(full, (1, 0))
    else:
        full = tl.reshape(wide, (scale.shape[0], M, K))
        if is_rhs:
            full = tl.permute(full, (0, 2, 1))
    return full


@triton.jit
def _mx_operand(x, scale, format: tl.constexpr, k_pack: tl.constexpr, is_rhs: tl.constexpr, comp: tl.constexpr,
                fast_math: tl.constexpr):
    # One operand of dot_scaled in the compute dtype, [..., M, K] for lhs and [..., K, N] for rhs.
    tl.static_assert(format == "e2m1" or format == "e4m3" or format == "e5m2" or format == "bf16" or format == "fp16",
                     "dot_scaled: the formats are 'e2m1', 'e4m3', 'e5m2', 'bf16' and 'fp16'")
    tl.static_assert(k_pack or format == "e2m1", "dot_scaled: only mxfp4 inputs can be packed along a dimension different than K")
    if format == "e2m1":
        tl.static_assert(x.dtype == tl.uint8, "dot_scaled: e2m1 operands must be packed two per byte in uint8")
        v = _mx_unpack_e2m1(x, k_pack != is_rhs)
    elif format == "e4m3" or format == "e5m2":
        tl.static_assert(x.dtype == tl.uint8 or (x.dtype.is_floating() and x.dtype.primitive_bitwidth == 8),
                         "dot_scaled: e4m3 and e5m2 operands must be uint8 (or the fp8 type)")
        if x.dtype == tl.uint8:
            b = x.to(tl.uint32)
        else:
            b = x.to(tl.uint8, bitcast=True).to(tl.uint32)
        if format == "e4m3":
            v = _mx_e4m3_bits(b).to(tl.float32, bitcast=True)
        else:
            v = _mx_e5m2_bits(b).to(tl.float32, bitcast=True)
    elif format == "fp16":
        tl.static_assert(x.dtype == tl.float16 or x.dtype == tl.uint16, "dot_scaled: fp16 operands must be float16 (or uint16)")
        v = x.to(tl.float16, bitcast=True)
    else:
        tl.static_assert(x.dtype == tl.bfloat16 or x.dtype == tl.uint16, "dot_scaled: bf16 operands must be bfloat16 (or uint16)")
        v = x.to(tl.bfloat16, bitcast=True)
    v = v.to(comp)  # exact but for a bf16 operand in an fp16 product
    if scale is not None:
        rank: tl.constexpr = len(v.shape)
        B: tl.constexpr = v.shape[0] if rank == 3 else None
        if is_rhs:
            s = _mx_scale_codes(scale, True, B, v.shape[rank - 1], v.shape[rank - 2])
        else:
            s = _mx_scale_codes(scale, False, B, v.shape[rank - 2], v.shape[rank - 1])
        # The scale 2^(s - 127) in the compute dtype as Triton makes it: bf16 bits s << 7; for
        # fp16 the f32 bits s << 23 rounded to fp16 (0 and inf outside its range). The product is
        # rounded to the compute dtype; a code 0xFF makes NaN unless fast_math.
        if comp == tl.bfloat16:
            f = (s << 7).to(tl.uint16).to(tl.bfloat16, bitcast=True)
        else:
            f = (s << 23).to(tl.float32, bitcast=True).to(tl.float16)
        v = v * f
        if not fast_math:
            v = tl.where(s == 255, float("nan"), v)
    return v


@triton.jit
def dot_scaled(lhs, lhs_scale, lhs_format: tl.constexpr, rhs, rhs_scale, rhs_format: tl.constexpr, acc=None,
               fast_math: tl.constexpr = False, lhs_k_pack: tl.constexpr = True, rhs_k_pack: tl.constexpr = True,
               out_dtype: tl.constexpr = tl.float32):
    tl.static_assert(out_dtype == tl.float32, "Only float32 is supported for out_dtype at the moment")
    rank: tl.constexpr = len(lhs.shape)
    tl.static_assert((rank == 2 or rank == 3) and len(rhs.shape) == rank,
                     "dot_scaled: both inputs must be either 2D or 3D")
    # Triton's compute dtype (DecomposeScaledBlocked): fp16 if either operand is fp16, else bf16.
    if lhs_format == "fp16" or rhs_format == "fp16":
        comp: tl.constexpr = tl.float16
    else:
        comp: tl.constexpr = tl.bfloat16
    a = _mx_operand(lhs, lhs_scale, lhs_format, lhs_k_pack, False, comp, fast_math)
    b = _mx_operand(rhs, rhs_scale, rhs_format, rhs_k_pack, True, comp, fast_math)
    tl.static_assert(a.shape[rank - 1] == b.shape[rank - 2],
                     "dot_scaled: the reduction dimension should pack the same number of elements")
    return tl.dot(a, b, acc, out_dtype=tl.float32)
)PY";

}  // namespace tilevm::frontend

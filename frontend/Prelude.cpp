// Prelude.cpp - the prelude's source: Philox-4x32 (Philox-4x64 for int64 offsets) with 10 rounds and the conversions to
// uniform and normal floats, following the algorithm of Triton's language/random.py so that
// tl.rand / tl.randn / tl.randint give the same numbers as Triton's for the same seed and
// offsets (up to the last ulp of log/cos/sin/sqrt in randn); sort and topk (a bitonic network),
// xor_sum and gather, with the meaning of Triton's language (dot_scaled:
// PreludeDotScaled.cpp).
#include "frontend/Prelude.h"

#include <cstdlib>
#include <iostream>
#include <string>

#include "frontend/PyParser.h"

namespace tilevm::frontend {

namespace {

const char* kPreludeSource = R"PY(
import triton
import triton.language as tl

# Philox constants: the key schedule (Weyl sequence) and the round multipliers, for 32-bit
# counters (Philox-4x32, int32 offsets) and 64-bit ones (Philox-4x64, int64 offsets), as
# Random123 defines them (the 64-bit ones past int64 written as their two's-complement bits:
# the frontend's integers are 64-bit).
PHILOX_KEY_A_32 = 0x9E3779B9
PHILOX_KEY_B_32 = 0xBB67AE85
PHILOX_ROUND_A_32 = 0xD2511F53
PHILOX_ROUND_B_32 = 0xCD9E8D57
PHILOX_KEY_A_64 = -7046029254386353131  # 0x9E3779B97F4A7C15
PHILOX_KEY_B_64 = -4942790177534073029  # 0xBB67AE8584CAA73B
PHILOX_ROUND_A_64 = -3249550476889527149  # 0xD2E7470EE14C6C93
PHILOX_ROUND_B_64 = -3865633965929787049  # 0xCA5A826395121157
N_ROUNDS_DEFAULT = 10


@triton.jit
def philox_rounds(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr):
    if c0.dtype == tl.uint32:
        KEY_A, KEY_B, ROUND_A, ROUND_B = PHILOX_KEY_A_32, PHILOX_KEY_B_32, PHILOX_ROUND_A_32, PHILOX_ROUND_B_32
    else:
        KEY_A, KEY_B, ROUND_A, ROUND_B = PHILOX_KEY_A_64, PHILOX_KEY_B_64, PHILOX_ROUND_A_64, PHILOX_ROUND_B_64
    key_a = tl.full([], KEY_A, c0.dtype)
    key_b = tl.full([], KEY_B, c0.dtype)
    round_a = tl.full([], ROUND_A, c0.dtype)
    round_b = tl.full([], ROUND_B, c0.dtype)
    for _ in tl.static_range(n_rounds):
        a0 = c0
        a2 = c2
        c0 = tl.umulhi(round_b, a2) ^ c1 ^ k0
        c2 = tl.umulhi(round_a, a0) ^ c3 ^ k1
        c1 = tl.mul(round_b, a2, sanitize_overflow=False)  # wrapping, as Triton's philox_impl
        c3 = tl.mul(round_a, a0, sanitize_overflow=False)
        k0 = tl.add(k0, key_a, sanitize_overflow=False)
        k1 = tl.add(k1, key_b, sanitize_overflow=False)
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    seed = tl.to_tensor(seed).to(tl.uint64)
    c0 = tl.to_tensor(c0)
    tl.static_assert(c0.dtype.primitive_bitwidth == 32 or c0.dtype.primitive_bitwidth == 64,
                     "philox: offsets must be 32- or 64-bit integers")
    if c0.dtype.primitive_bitwidth == 32:
        counter = tl.uint32
        key_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
        key_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
    else:
        counter = tl.uint64
        key_hi = seed & 0
        key_lo = seed
    c0 = c0.to(counter, bitcast=True)
    c1 = tl.to_tensor(c1).to(counter, bitcast=True)
    c2 = tl.to_tensor(c2).to(counter, bitcast=True)
    c3 = tl.to_tensor(c3).to(counter, bitcast=True)
    return philox_rounds(c0, c1, c2, c3, key_lo, key_hi, n_rounds)


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    # As Triton: 32-bit Philox whatever the offsets' width (64-bit ones fill two counters).
    offset = tl.to_tensor(offset)
    offset_lo = offset.to(tl.uint32)
    zero = offset_lo * 0
    if offset.dtype.primitive_bitwidth > 32:
        offset_hi = (offset >> 32).to(tl.uint32)
    else:
        offset_hi = zero
    return philox(seed, offset_lo, offset_hi, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    return r0


@triton.jit
def uint_to_uniform_float(x):
    # The largest scale with (2^31 - 1) * scale < 1 in fp32 (2^63 - 1 for 64-bit integers).
    if x.dtype.primitive_bitwidth == 32:
        x = x.to(tl.int32, bitcast=True)
        SCALE = 4.6566127342e-10
    else:
        x = x.to(tl.int64, bitcast=True)
        SCALE = 1.0842020432385337e-19
    x = tl.where(x < 0, -x - 1, x)
    return x * SCALE


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return uint_to_uniform_float(i1), uint_to_uniform_float(i2), uint_to_uniform_float(i3), uint_to_uniform_float(i4)


@triton.jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(uint_to_uniform_float(r0), uint_to_uniform_float(r1))
    return n0


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4


# Sorting (triton.language.standard's sort and topk), along the last dimension, whose extent
# must be a power of two: a bitonic network over the flattened tile. Step (k, j) compares each
# element i with i ^ 2^j inside blocks of 2^k elements, ascending in even blocks and descending
# in odd ones, the last stage in the order asked for. The pairs are split and joined, never
# computed with, so every value (NaN, -0.0, inf) moves as its bits.
@triton.jit
def _bitonic_step(v, numel: tl.constexpr, j: tl.constexpr, k: tl.constexpr, last: tl.constexpr, descending: tl.constexpr):
    s: tl.constexpr = 1 << j
    R: tl.constexpr = numel // (2 * s)
    left, right = tl.split(tl.permute(tl.reshape(v, (R, 2, s)), (0, 2, 1)))
    block = tl.arange(0, R)[:, None] >> (k - 1 - j)
    if last:
        flip = (block & 0) != 0
    else:
        flip = (block & 1) != 0
    if descending:
        flip = flip == False
    swap = (left > right) != flip
    pair = tl.join(tl.where(swap, right, left), tl.where(swap, left, right))
    return tl.reshape(tl.permute(pair, (0, 2, 1)), (numel,))


@triton.jit
def _sorted_rows(x, dim, descending: tl.constexpr):
    rank: tl.constexpr = len(x.shape)
    if dim is not None:
        tl.static_assert(dim == rank - 1, "only the last dimension can be sorted")
    n: tl.constexpr = x.shape[rank - 1]
    tl.static_assert(n & (n - 1) == 0, "the sorted dimension's extent must be a power of two")
    numel: tl.constexpr = x.numel
    v = tl.reshape(x, (numel,))
    for k in tl.static_range(1, 21):
        if (1 << k) <= n:
            for jj in tl.static_range(k):
                v = _bitonic_step(v, numel, k - 1 - jj, k, (1 << k) == n, descending)
    return v


@triton.jit
def sort(x, dim: tl.constexpr = None, descending: tl.constexpr = False):
    return tl.reshape(_sorted_rows(x, dim, descending), x.shape)


@triton.jit
def topk(x, k: tl.constexpr, dim: tl.constexpr = None, descending: tl.constexpr = True):
    # The k largest (descending) or smallest elements of each row, in that order: the sorted
    # rows' first halves, halved until k remain.
    rank: tl.constexpr = len(x.shape)
    n: tl.constexpr = x.shape[rank - 1]
    tl.static_assert(k & (k - 1) == 0, "topk: k must be a power of two")
    tl.static_assert(k <= n, "topk: k must be at most the last dimension's extent")
    rows: tl.constexpr = x.numel // n
    v = tl.reshape(_sorted_rows(x, dim, descending), (rows, n))
    for i in tl.static_range(20):
        if (n >> i) > k:
            half: tl.constexpr = (n >> i) // 2
            v, rest = tl.split(tl.permute(tl.reshape(v, (rows, 2, half)), (0, 2, 1)))
    if rank == 1:
        return tl.reshape(v, (k,))
    elif rank == 2:
        return tl.reshape(v, (x.shape[0], k))
    else:
        return tl.reshape(v, (x.shape[0], x.shape[1], k))


@triton.jit
def _as_bits(x):
    # The same bits as a signed integer of the same width (bool as int8).
    if x.dtype.primitive_bitwidth == 1:
        return x.to(tl.int8)
    elif x.dtype.primitive_bitwidth == 8:
        return x.to(tl.int8, bitcast=True)
    elif x.dtype.primitive_bitwidth == 16:
        return x.to(tl.int16, bitcast=True)
    elif x.dtype.primitive_bitwidth == 32:
        return x.to(tl.int32, bitcast=True)
    else:
        return x.to(tl.int64, bitcast=True)


@triton.jit
def gather(src, index, axis: tl.constexpr):
    # out[i][j] = src[index[i][j]][j] along axis 0 (src[i][index[i][j]] along 1): each src
    # element along the axis selected as bits, one at a time, so values move exactly. An index
    # outside the axis is a device_assert finding.
    rank: tl.constexpr = len(src.shape)
    tl.static_assert(index.dtype.is_int(), "gather: index must be an integer tensor")
    tl.static_assert(len(index.shape) == rank, "gather: source and index tensors must have the same rank")
    tl.static_assert(rank == 1 or rank == 2, "gather: tilevm takes 1-D and 2-D tensors")
    tl.static_assert(axis >= -rank and axis < rank, "gather: axis must be less than the source's rank")
    ax: tl.constexpr = axis + rank if axis < 0 else axis
    if rank == 2:
        tl.static_assert(index.shape[1 - ax] == src.shape[1 - ax], "gather: index dims other than axis must match the source's")
    K: tl.constexpr = src.shape[ax]
    tl.device_assert((index >= 0) & (index < K), "gather: index out of range")
    bits = _as_bits(src)
    out = tl.zeros(index.shape, bits.dtype)
    for k in range(K):
        if rank == 1:
            row = tl.sum(tl.where(tl.arange(0, K) == k, bits, 0))
        elif ax == 0:
            row = tl.sum(tl.where(tl.arange(0, K)[:, None] == k, bits, 0), axis=0)[None, :]
        else:
            row = tl.sum(tl.where(tl.arange(0, K)[None, :] == k, bits, 0), axis=1)[:, None]
        out = tl.where(index == k, row.to(bits.dtype), out)
    if src.dtype.primitive_bitwidth == 1:
        return out != 0
    else:
        return out.to(src.dtype, bitcast=True)


@triton.jit
def _xor_combine(a, b):
    return a ^ b


@triton.jit
def xor_sum(input, axis=None, keep_dims=False):
    tl.static_assert(input.dtype.is_int(), "xor_sum only supported for integers")
    return tl.reduce(input, axis, _xor_combine, keep_dims=keep_dims)


@triton.jit
def _or_combine(a, b):
    return a | b


@triton.jit
def reduce_or(input, axis, keep_dims=False):
    tl.static_assert(input.dtype.is_int(), "reduce_or only supported for integers")
    return tl.reduce(input, axis, _or_combine, keep_dims=keep_dims)


# triton.language.standard's swizzle2d: row-major indices of a size_i x size_j matrix to
# column-major ones within each group of size_g rows (the last group may have fewer).
@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = tl.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j
)PY";

}  // namespace

const PyModule& prelude() {
  static const PyModule* module = [] {
    auto m = parsePython(std::string(kPreludeSource) + kPreludeDotScaledSource, "<tilevm prelude: triton.language>");
    if (!m) {
      std::cerr << "tilevm: internal error: the prelude does not parse: " << m.error().message << "\n";
      std::abort();
    }
    auto* p = new PyModule(std::move(*m));  // lives as long as the process
    p->adoptFunctions();
    return p;
  }();
  return *module;
}

}  // namespace tilevm::frontend

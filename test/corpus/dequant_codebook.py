# Blockwise dequantization through a code table, as 8-bit and 4-bit optimizer/weight
# quantizers write it: uint8 codes index a float table (`code_ptr + codes`, an unsigned offset),
# each block of values shares one absmax; 4-bit codes come two per byte, high nibble first.
# The codes run through every byte value (arange wraps in uint8), so offsets >= 128 are read
# unsigned.
import triton
import triton.language as tl


@triton.jit
def dequant_blockwise_8bit(codes_ptr, code_ptr, absmax_ptr, out_ptr, n_elements,
                           QUANT_BLOCK: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    codes = tl.load(codes_ptr + offsets, mask=mask, other=0)  # uint8
    values = tl.load(code_ptr + codes, mask=mask)  # the table entry of each code
    scale = tl.load(absmax_ptr + offsets // QUANT_BLOCK, mask=mask)
    tl.store(out_ptr + offsets, values * scale, mask=mask)


@triton.jit
def dequant_blockwise_4bit(packed_ptr, code_ptr, absmax_ptr, out_ptr, n_packed,
                           QUANT_BLOCK: tl.constexpr, BLOCK: tl.constexpr, OUT_DTYPE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_packed
    packed = tl.load(packed_ptr + offsets, mask=mask, other=0)
    hi = packed >> 4
    lo = packed & 0xF
    table_hi = tl.load(code_ptr + hi, mask=mask)
    table_lo = tl.load(code_ptr + lo, mask=mask)
    # Element 2i is the high nibble of byte i, 2i + 1 the low one.
    scale = tl.load(absmax_ptr + (2 * offsets) // QUANT_BLOCK, mask=mask)
    out = tl.interleave(table_hi * scale, table_lo * scale).to(OUT_DTYPE)
    out_offsets = pid * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(out_ptr + out_offsets, out, mask=out_offsets < 2 * n_packed)

# RUN: -k dequant_blockwise_8bit -D QUANT_BLOCK=64 -D BLOCK=128 --grid 4
# ARGS: codes_ptr=arange:u8:500 code_ptr=randn:f32:256 absmax_ptr=rand:f32:8 out_ptr=empty:f32:500 n_elements=500
# REF: idx = codes_ptr.astype(np.int64)
# REF: out_ptr = (code_ptr[idx] * absmax_ptr[np.arange(500) // 64]).astype(np.float32)  # one f32 rounding, as the kernel
# EXPECT: out_ptr
# TOL: 0 0
# RUN: -k dequant_blockwise_4bit -D QUANT_BLOCK=64 -D BLOCK=64 -D OUT_DTYPE=fp16 --grid 4
# ARGS: packed_ptr=arange:u8:200 code_ptr=randn:f32:16 absmax_ptr=rand:f32:7 out_ptr=empty:f16:400 n_packed=200
# REF: p = packed_ptr.astype(np.int64); v = np.stack([code_ptr[p >> 4], code_ptr[p & 15]], axis=1).reshape(-1)
# REF: out_ptr = (v * absmax_ptr[np.arange(400) // 64]).astype(np.float32).astype(np.float16)
# EXPECT: out_ptr
# TOL: 0 0

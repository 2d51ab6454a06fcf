# Unsigned 32-bit arithmetic as hashing kernels write it: uint32 loads, wrapping multiply,
# logical shifts, xor, tl.umulhi, and unsigned comparisons.
import triton
import triton.language as tl


@triton.jit
def hash_kernel(x_ptr, h_ptr, hi_ptr, big_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0).to(tl.uint32)
    h = x * 0x9E3779B1
    h = h ^ (h >> 16)
    h = h * 0x85EBCA6B
    h = h ^ (h >> 13)
    tl.store(h_ptr + offs, h, mask=m)
    tl.store(hi_ptr + offs, tl.umulhi(h, 0xDEADBEEF), mask=m)
    tl.store(big_ptr + offs, (h > 0x80000000).to(tl.int32), mask=m)

# RUN: -k hash_kernel -D BLOCK=64 --grid 2
# ARGS: x_ptr=randint:u32:100 h_ptr=empty:u32:100 hi_ptr=empty:u32:100 big_ptr=empty:i32:100 n=100
# REF: M = 2 ** 32; h = (x_ptr.astype(np.uint64) * 0x9E3779B1) % M
# REF: h = h ^ (h >> 16); h = (h * 0x85EBCA6B) % M; h = h ^ (h >> 13)
# REF: h_ptr = h; hi_ptr = (h * 0xDEADBEEF) >> 32; big_ptr = h > 0x80000000
# EXPECT: h_ptr hi_ptr big_ptr
# TOL: 0 0

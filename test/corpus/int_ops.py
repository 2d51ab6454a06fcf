# Integer semantics: division and remainder truncate toward zero (as in C and Triton, not
# Python), shifts, bitwise ops, unsigned comparisons, tl.cdiv and umulhi.
import triton
import triton.language as tl


@triton.jit
def int_kernel(a_ptr, b_ptr, q_ptr, r_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=1)
    b = tl.load(b_ptr + offs, mask=m, other=1)
    b = tl.where(b == 0, 7, b)
    tl.store(q_ptr + offs, a // b, mask=m)
    tl.store(r_ptr + offs, a % b, mask=m)
    x = ((a << 3) ^ (b >> 1)) & 0xFF | (a & 1)
    tl.store(bits_ptr + offs, x + tl.cdiv(n, BLOCK), mask=m)

# RUN: -k int_kernel -D BLOCK=64 --grid 2
# ARGS: a_ptr=randint:i32:100 b_ptr=randint:i32:100 q_ptr=empty:i32:100 r_ptr=empty:i32:100 bits_ptr=empty:i32:100 n=100
# REF: a = a_ptr.astype(np.int64); b = np.where(b_ptr == 0, 7, b_ptr).astype(np.int64)
# REF: q_ptr = np.trunc(a / b); r_ptr = a - q_ptr * b
# REF: bits_ptr = (((a << 3) ^ (b >> 1)) & 0xFF | (a & 1)) + 2
# EXPECT: q_ptr r_ptr bits_ptr
# TOL: 0 0

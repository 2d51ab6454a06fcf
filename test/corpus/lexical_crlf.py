# Windows line endings (CRLF) throughout, a bracketed call across lines.
import triton
import triton.language as tl


@triton.jit
def crlf_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs,
                mask=m)
    tl.store(y_ptr + offs, x * 3.0 - 1.0, mask=m)

# RUN: -k crlf_kernel -D BLOCK=64 --grid 2
# ARGS: x_ptr=randn:f32:100 y_ptr=empty:f32:100 n=100
# REF: y_ptr = x_ptr * 3 - 1
# EXPECT: y_ptr

# Debug forms real kernels keep in release code: tl.device_assert with a message,
# tl.static_print and tl.static_assert, tl.multiple_of / max_contiguous hints, tl.debug_barrier.
import triton
import triton.language as tl


@triton.jit(debug=True)
def checked_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16")
    tl.static_print("compiling checked_copy with BLOCK =", BLOCK)
    pid = tl.program_id(0)
    offs = tl.max_contiguous(tl.multiple_of(pid * BLOCK + tl.arange(0, BLOCK), BLOCK), BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.device_assert(x == x, "NaN in input")
    tl.debug_barrier()
    tl.store(y_ptr + offs, x, mask=m)

# RUN: -k checked_copy -D BLOCK=64 --grid 4
# ARGS: x_ptr=randn:f32:250 y_ptr=empty:f32:250 n=250
# REF: y_ptr = x_ptr
# EXPECT: y_ptr
# TOL: 0 0

import triton
import triton.language as tl


@triton.jit
def hist(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr):
    # The last three elements are masked off.
    offs = tl.arange(0, M)
    x = tl.load(x_ptr + offs)
    tl.store(z_ptr + tl.arange(0, N), tl.histogram(x, N, mask=offs < M - 3))

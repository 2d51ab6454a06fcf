# Used by ops.test: a dot in 3xTF32 precision (three FMA passes on the GPU).
import triton
import triton.language as tl


@triton.jit
def dot3(a, b, c, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs[:, None] * N + offs[None, :])
    y = tl.load(b + offs[:, None] * N + offs[None, :])
    z = tl.dot(x, y, input_precision="tf32x3")
    tl.store(c + offs[:, None] * N + offs[None, :], z)

# Used by ops.test: f32 dots in 3xTF32 precision (three tf32 dots), in tf32 (tensor cores) and in
# ieee (FMA on CUDA cores).
import triton
import triton.language as tl


@triton.jit
def dot3(a, b, c, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs[:, None] * N + offs[None, :])
    y = tl.load(b + offs[:, None] * N + offs[None, :])
    z = tl.dot(x, y, input_precision="tf32x3")
    tl.store(c + offs[:, None] * N + offs[None, :], z)


@triton.jit
def dot_tf32(a, b, c, N: tl.constexpr):  # Triton's default precision for f32: tf32 tensor cores
    offs = tl.arange(0, N)
    x = tl.load(a + offs[:, None] * N + offs[None, :])
    y = tl.load(b + offs[:, None] * N + offs[None, :])
    tl.store(c + offs[:, None] * N + offs[None, :], tl.dot(x, y))


@triton.jit
def dot_ieee(a, b, c, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs[:, None] * N + offs[None, :])
    y = tl.load(b + offs[:, None] * N + offs[None, :])
    tl.store(c + offs[:, None] * N + offs[None, :], tl.dot(x, y, input_precision="ieee"))

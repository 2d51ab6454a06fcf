# dot3d.py - batched (3-D) and small dots, as Triton's interpreter runs them (dot3d.test).
import triton
import triton.language as tl


@triton.jit
def dot3d(q, k, o, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    b = tl.arange(0, B)[:, None, None]
    m = tl.arange(0, M)[None, :, None]
    n = tl.arange(0, N)[None, None, :]
    kk = tl.arange(0, K)
    x = tl.load(q + b * M * K + m * K + kk[None, None, :])
    y = tl.load(k + b * K * N + kk[None, :, None] * N + n)
    tl.store(o + b * M * N + m * N + n, tl.dot(x, y))


@triton.jit
def small_dot(q, o, M: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(q + r[:, None] * M + r[None, :])
    tl.store(o + r[:, None] * M + r[None, :], tl.dot(a, a, input_precision="ieee"))

import triton
import triton.language as tl


@triton.jit
def dot_f32(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PRECISION: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    x = tl.load(X + offs_m[:, None] * K + offs_k[None, :])
    y = tl.load(Y + offs_k[:, None] * N + offs_n[None, :])
    tl.store(Z + offs_m[:, None] * N + offs_n[None, :], tl.dot(x, y, input_precision=PRECISION))

import triton
import triton.language as tl


@triton.jit
def dot_store(X, Y, Z, stride_zm, stride_zn, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # Z's strides say where the result goes: (N, 1) row-major, (1, M) transposed (Triton's
    # test_dot with epilogue 'trans').
    off_m = tl.arange(0, M)
    off_n = tl.arange(0, N)
    off_k = tl.arange(0, K)
    x = tl.load(X + off_m[:, None] * K + off_k[None, :])
    y = tl.load(Y + off_k[:, None] * N + off_n[None, :])
    z = tl.dot(x, y)
    tl.store(Z + off_m[:, None] * stride_zm + off_n[None, :] * stride_zn, z)

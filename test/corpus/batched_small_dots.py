# Dots tensor cores do not take: a batched (3-D) dot over a group of heads per program, as
# grouped-query attention kernels write it, and a skinny-M matmul (a decode step's few rows
# against a weight tile), as Triton accepts on its GPUs (M and N from 1, K from 16).
import triton
import triton.language as tl


@triton.jit
def grouped_heads_scores(Q, K, S, G: tl.constexpr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    g = tl.arange(0, G)[:, None, None]
    m = tl.arange(0, M)[None, :, None]
    n = tl.arange(0, N)[None, None, :]
    d = tl.arange(0, D)
    base = pid * G
    q = tl.load(Q + (base + g) * M * D + m * D + d[None, None, :])
    kt = tl.load(K + (base + g) * N * D + n * D + d[None, :, None])  # k read transposed: [G, D, N]
    s = tl.dot(q, kt)
    s = tl.dot(q, kt, s)  # accumulate a second time: acc in the batched layout
    tl.store(S + (base + g) * M * N + m * N + n, s)


@triton.jit
def skinny_matmul(X, W, Y, K, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, M)
    rn = pid * N + tl.arange(0, N)
    rk = tl.arange(0, BK)
    acc = tl.zeros([M, N], dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(X + rm[:, None] * K + (k0 + rk)[None, :])
        w = tl.load(W + (k0 + rk)[:, None] * (N * tl.num_programs(0)) + rn[None, :])
        acc = tl.dot(x, w, acc)
    tl.store(Y + rm[:, None] * (N * tl.num_programs(0)) + rn[None, :], acc.to(Y.dtype.element_ty))


@triton.jit
def tiny_ieee(A, B, C, T: tl.constexpr):
    r = tl.arange(0, T)
    a = tl.load(A + r[:, None] * T + r[None, :])
    b = tl.load(B + r[:, None] * T + r[None, :])
    tl.store(C + r[:, None] * T + r[None, :], tl.dot(a, b, input_precision="ieee"))

# RUN: -k grouped_heads_scores -D G=2 -D M=16 -D N=32 -D D=16 --grid 3
# ARGS: Q=randn:f16:6x16x16 K=randn:f16:6x32x16 S=empty:f32:6x16x32
# REF: S = 2 * np.einsum("hmd,hnd->hmn", Q, K)
# EXPECT: S
# TOL: 1e-3 1e-3
# RUN: -k grouped_heads_scores -D G=4 -D M=8 -D N=8 -D D=32 --grid 2
# ARGS: Q=randn:f32:8x8x32 K=randn:f32:8x8x32 S=empty:f32:8x8x8
# REF: S = 2 * np.einsum("hmd,hnd->hmn", Q, K)
# EXPECT: S
# TOL: 2e-2 2e-2
# RUN: -k skinny_matmul -D M=4 -D N=32 -D BK=32 --grid 2
# ARGS: X=randn:f16:4x128 W=randn:f16:128x64 Y=empty:f16:4x64 K=128
# REF: Y = X @ W
# EXPECT: Y
# TOL: 1e-2 2e-2
# RUN: -k tiny_ieee -D T=8
# ARGS: A=randn:f32:8x8 B=randn:f32:8x8 C=empty:f32:8x8
# REF: C = A @ B
# EXPECT: C
# TOL: 1e-5 1e-5

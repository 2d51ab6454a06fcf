# f16 dots into an f16 accumulator (`out_dtype=tl.float16`), in the style of Triton's test_dot:
# the accumulator is f16 as on Triton's GPU (mma.sync/wgmma .f16.f16.f16), so each 16 elements
# of K are summed, added to it and rounded to f16. Checked against a float64 reference that
# rounds so, on fresh random inputs, and on inputs where the rounding decides the result.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def matmul_f16acc(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, BK)
    acc = tl.load(Z + offs_m[:, None] * N + offs_n[None, :])
    for k0 in range(0, K, BK):
        x = tl.load(X + offs_m[:, None] * K + (k0 + offs_k)[None, :])
        y = tl.load(Y + (k0 + offs_k)[:, None] * N + offs_n[None, :])
        acc = tl.dot(x, y, acc, out_dtype=tl.float16)
    tl.store(Z + offs_m[:, None] * N + offs_n[None, :], acc)


@triton.jit
def batched_f16acc(X, Y, Z, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # A 3-D dot: on CUDA cores (FMA) on the GPU engine, rounded to f16 every 16 elements of K.
    b = tl.arange(0, B)[:, None, None]
    x = tl.load(X + b * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    y = tl.load(Y + b * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    zp = Z + b * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :]
    tl.store(zp, tl.dot(x, y, tl.load(zp), out_dtype=tl.float16))


def stepped(x, y, z, step=16):
    """The f16 accumulation in float64: each step's sum added to z, rounded to f16. Also the
    largest f16 spacing the accumulator had, per element (what one rounding may move it)."""
    acc = z.astype(np.float64)
    spacing = np.zeros_like(acc)
    for k0 in range(0, x.shape[1], step):
        s = x[:, k0:k0 + step].astype(np.float64) @ y[k0:k0 + step].astype(np.float64)
        acc = (acc + s).astype(np.float16).astype(np.float64)
        spacing = np.maximum(spacing, np.spacing(np.abs(acc).astype(np.float16)).astype(np.float64))
    return acc, spacing


rng = np.random.default_rng()
for M, N, K, BK in ((64, 64, 128, 32), (16, 16, 64, 16), (128, 64, 64, 64)):
    x = rng.standard_normal((M, K)).astype(np.float16)
    y = rng.standard_normal((K, N)).astype(np.float16)
    z0 = rng.standard_normal((M, N)).astype(np.float16)
    z = z0.copy()
    matmul_f16acc[(1, )](x, y, z, M=M, N=N, K=K, BK=BK)
    ref, spacing = stepped(x, y, z0)
    # Within one of the accumulator's f16 spacings of the stepped reference per rounding (a
    # step's sum is f32 on the CPU, the tensor cores' own on the GPU).
    err = np.max(np.abs(z.astype(np.float64) - ref) / spacing)
    assert err <= K // 16, f"{M}x{N}x{K}: {err} f16 spacings from the stepped reference"
    print(f"dot_f16_accumulate: {M}x{N}x{K} (BK {BK}) within {err:.0f} f16 spacing of the stepped reference")

B, M, N, K = 2, 16, 16, 64
x = rng.standard_normal((B, M, K)).astype(np.float16)
y = rng.standard_normal((B, K, N)).astype(np.float16)
z0 = rng.standard_normal((B, M, N)).astype(np.float16)
z = z0.copy()
batched_f16acc[(1, )](x, y, z, B=B, M=M, N=N, K=K)
for i in range(B):
    ref, spacing = stepped(x[i], y[i], z0[i])
    err = np.max(np.abs(z[i].astype(np.float64) - ref) / spacing)
    assert err <= K // 16, f"batch {i}: {err} f16 spacings from the stepped reference"
print(f"dot_f16_accumulate: batched {B}x{M}x{N}x{K} within {err:.0f} f16 spacing of the stepped reference")

# Where the rounding decides: from 2048 (f16 spacing 2 there) each step of 16 products of
# 1/16 adds 1, which rounds back to 2048 (ties to even) every time; a sum carried in f32 and
# rounded once would give 2048 + K / 16.
M = N = 16
K = 256
x = np.full((M, K), 0.25, np.float16)
y = np.full((K, N), 0.25, np.float16)
z = np.full((M, N), 2048, np.float16)
matmul_f16acc[(1, )](x, y, z, M=M, N=N, K=K, BK=64)
assert np.all(z == 2048), np.unique(z)
print("dot_f16_accumulate: each 16-element step rounds to f16 (2048 + 16 x 1 stays 2048)")

# Triton's max_num_imprecise_acc on fp8 dots, in the style of test_dot_max_num_imprecise_acc: a
# K loop of fp8 x fp8 -> f32 tiles (e4m3 and e5m2) with every 32, 64 or 128 elements of K summed
# apart and added in f32 (on the GPU engine's wgmma), against float64 NumPy on fresh random
# values that both fp8 formats hold exactly (multiples of 1/8 up to 1, converted in the kernel);
# where the dot runs on wgmma (sm_90a) the PTX holds Triton's count of f32 adds. The interpreter
# sums exactly either way.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def matmul_kernel(A, B, C, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  IMPRECISE: tl.constexpr, FP8: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(A + rm[:, None] * K + (k * BLOCK_K + rk)[None, :]).to(FP8)
        b = tl.load(B + (k * BLOCK_K + rk)[:, None] * N + rn[None, :]).to(FP8)
        acc = tl.dot(a, b, acc=acc, max_num_imprecise_acc=IMPRECISE)
    tl.store(C + rm[:, None] * N + rn[None, :], acc)


rng = np.random.default_rng()
M, N, K = 128, 256, 256
cases = 0
for fp8 in (tl.float8e4nv, tl.float8e5):
    for BLOCK_M, BLOCK_N, BLOCK_K in ((128, 256, 128), (64, 64, 64)):
        for imprecise in (32, 64, 128, None):
            if imprecise is not None and imprecise > BLOCK_K:
                continue
            a = (rng.integers(-8, 9, (M, K)) / 8).astype(np.float32)
            b = (rng.integers(-8, 9, (K, N)) / 8).astype(np.float32)
            c = np.zeros((M, N), dtype=np.float32)
            h = matmul_kernel[(M // BLOCK_M, N // BLOCK_N)](a, b, c, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, imprecise, fp8,
                                                           num_warps=8, num_stages=3)
            ref = a.astype(np.float64) @ b.astype(np.float64)
            np.testing.assert_allclose(c, ref, rtol=1e-2, atol=1e-2, err_msg=f"{fp8} {BLOCK_M}x{BLOCK_N}x{BLOCK_K} {imprecise}")
            ptx = h.asm.get("ptx", "")
            if imprecise is not None and "wgmma.mma_async" in ptx:  # 64 x 64 on 8 warps: mma.sync, f32 sums already
                adds = len([l for l in ptx.splitlines() if "add.f32" in l or "add.rn.f32" in l])
                assert adds == BLOCK_M * BLOCK_N // (32 * 8) * (BLOCK_K // imprecise), (adds, BLOCK_M, BLOCK_N, BLOCK_K, imprecise)
            cases += 1
print(f"fp8_imprecise_acc: {cases} fp8 matmuls agree with float64; Triton's add counts on sm_90a")

# Triton's value hints (tl.multiple_of, tl.max_contiguous, tl.max_constancy) change no value: a
# grouped GEMM over a pointer table in the style of Triton's tutorial 08, whose hint on the
# loop-carried pointers is a statement whose result is dropped (it holds where the value is
# defined, as Triton's set_attr), and a row copy whose wrapped offsets are promised contiguous.
# On the GPU engine the hints let the loads go 16 bytes at a time (the dot's operands through
# the cp.async ring on sm_90a); results against float64 NumPy on both engines.
import numpy as np
import torch

import triton
import triton.language as tl


@triton.jit
def grouped_matmul(a_ptrs, b_ptrs, c_ptrs, sizes, lds, group_size, NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(sizes + g * 3)
        gn = tl.load(sizes + g * 3 + 1)
        gk = tl.load(sizes + g * 3 + 2)
        num_n_tiles = tl.cdiv(gn, BLOCK_N)
        num_tiles = tl.cdiv(gm, BLOCK_M) * num_n_tiles
        while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
            lda = tl.load(lds + g * 3)
            ldb = tl.load(lds + g * 3 + 1)
            ldc = tl.load(lds + g * 3 + 2)
            a_ptr = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float32))
            tile_m = (tile_idx - last_problem_end) // num_n_tiles
            tile_n = (tile_idx - last_problem_end) % num_n_tiles
            offs_m = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            a = a_ptr + offs_m[:, None] * lda + offs_k[None, :]
            b = b_ptr + offs_k[:, None] * ldb + offs_n[None, :]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(gk, BLOCK_K)):
                tl.multiple_of(a, [16, 16])
                tl.multiple_of(b, [16, 16])
                acc += tl.dot(tl.load(a), tl.load(b))
                a += BLOCK_K
                b += BLOCK_K * ldb
            tl.store(c_ptr + ldc * offs_m[:, None] + offs_n[None, :], acc)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


@triton.jit
def wrapped_copy(src, dst, n, BLOCK: tl.constexpr):
    offs = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) % n
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    runs = tl.max_constancy(offs // 8, [8])
    tl.store(dst + offs, tl.load(src + offs) + runs.to(tl.float16))


dev = triton.runtime.driver.active.get_active_torch_device()
rng = np.random.default_rng()
shapes = [(64, 64, 64), (128, 64, 96), (64, 128, 32)]
A = [rng.standard_normal((m, k)).astype(np.float16) for m, n, k in shapes]
B = [rng.standard_normal((k, n)).astype(np.float16) for m, n, k in shapes]
ta = [torch.from_numpy(x).to(dev) for x in A]
tb = [torch.from_numpy(x).to(dev) for x in B]
tc = [torch.zeros((m, n), dtype=torch.float32, device=dev) for m, n, k in shapes]


def table(ts):
    return torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64, device=dev)


sizes = torch.tensor([d for s in shapes for d in s], dtype=torch.int32, device=dev)
lds = torch.tensor([d for m, n, k in shapes for d in (k, n, n)], dtype=torch.int32, device=dev)
grouped_matmul[(4, )](table(ta), table(tb), table(tc), sizes, lds, len(shapes), NUM_SM=4, BLOCK_M=64, BLOCK_N=64,
                      BLOCK_K=32, num_stages=3)
for a, b, c in zip(A, B, tc):
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.cpu().numpy(), ref, rtol=1e-3, atol=1e-2)

n = 3 * 1024
src = torch.from_numpy(rng.standard_normal(n).astype(np.float16)).to(dev)
dst = torch.zeros(n, dtype=torch.float16, device=dev)
wrapped_copy[(3, )](src, dst, n, BLOCK=1024)
expect = src.cpu().numpy().astype(np.float64) + np.arange(n) // 8
np.testing.assert_allclose(dst.cpu().numpy().astype(np.float64), expect, rtol=1e-3, atol=0.1)
print("value hints: ok (grouped GEMM over a pointer table, 3 problems; a wrapped copy)")

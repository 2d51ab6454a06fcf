# tl.sort, tl.topk, tl.xor_sum, tl.squeeze and tl.unsqueeze in the style of Triton's
# test_standard.py, on fresh random inputs, against NumPy.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def sort_kernel(X, Z, M: tl.constexpr, N: tl.constexpr, k: tl.constexpr, descending: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_x_n = tl.arange(0, N)
    offs_z_n = offs_x_n if k is None else tl.arange(0, k)
    x = tl.load(X + offs_m[:, None] * N + offs_x_n[None, :])
    if k is None:
        z = tl.sort(x, descending=descending)
    else:
        z = tl.topk(x, k, descending=descending)
    tl.store(Z + offs_m[:, None] * (N if k is None else k) + offs_z_n[None, :], z)


@triton.jit
def sort_1d(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.load(X + offs).sort(dim=0))


@triton.jit
def xor_kernel(X, Z, Zr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(Z + tl.arange(0, M), tl.xor_sum(x, axis=1))
    tl.store(Zr, x.xor_sum())


@triton.jit
def squeeze_kernel(out_ptr, dim: tl.constexpr, s0: tl.constexpr, s1: tl.constexpr, s2: tl.constexpr):
    a = tl.reshape(tl.arange(0, 8), (s0, s1, s2))
    a = tl.squeeze(a, dim)
    a = tl.unsqueeze(a, 0)
    tl.store(out_ptr + tl.arange(0, 8), tl.ravel(a))


rng = np.random.default_rng()
checked = 0
for M, N in [(1, 1), (1, 512), (8, 64), (256, 16), (512, 8)]:
    for k in (None, 8):
        if k is not None and M * N < k:
            continue
        for descending in (False, True):
            for dtype in (np.int32, np.float16, np.float32):
                if dtype == np.int32:
                    x = rng.integers(-2**31, 2**31, (M, N), dtype=np.int64).astype(np.int32)
                else:
                    x = rng.standard_normal((M, N)).astype(dtype)
                if k is not None and k > N:
                    continue
                z = np.empty((M, N if k is None else k), dtype=dtype)
                sort_kernel[(1,)](x, z, M, N, k, descending)
                ref = np.sort(x, axis=1)
                if descending:
                    ref = ref[:, ::-1]
                if k is not None:
                    ref = ref[:, :k]
                assert np.array_equal(z, ref), (M, N, k, descending, dtype)
                checked += 1
# NaN, infinities and signed zeros move as values (the network never computes with them).
x = np.array([3.0, -np.inf, 0.0, np.inf, -0.0, 1.5, -2.0, 7.0], dtype=np.float32)
z = np.empty_like(x)
sort_1d[(1,)](x, z, 8)
assert np.array_equal(z, np.sort(x)), z
x = rng.integers(0, 2**31, (16, 32), dtype=np.int64).astype(np.int32)
z, zr = np.empty(16, np.int32), np.empty(1, np.int32)
xor_kernel[(1,)](x, z, zr, 16, 32)
assert np.array_equal(z, np.bitwise_xor.reduce(x, axis=1)) and zr[0] == np.bitwise_xor.reduce(x.ravel())
for shape, dim in [((1, 2, 4), 0), ((2, 1, 4), 1), ((2, 4, 1), 2)]:
    out = np.empty(8, np.int32)
    squeeze_kernel[(1,)](out, dim, *shape)
    assert np.array_equal(out, np.arange(8)), out
print(f"sort_topk: {checked} sorts and top-ks, xor_sum, squeeze and unsqueeze agree with NumPy")

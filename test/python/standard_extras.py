# triton.language.standard's swizzle2d and reduce_or (a function and a tensor method), checked
# against NumPy on fresh random inputs.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def swizzle_k(out_i, out_j, size_i, size_j, size_g, BI: tl.constexpr, BJ: tl.constexpr):
    i = tl.arange(0, BI)[:, None]
    j = tl.arange(0, BJ)[None, :]
    ni, nj = tl.swizzle2d(i, j, size_i, size_j, size_g)
    tl.store(out_i + i * BJ + j, ni, mask=(i < size_i) & (j < size_j))
    tl.store(out_j + i * BJ + j, nj, mask=(i < size_i) & (j < size_j))


@triton.jit
def or_k(x, y, z, M: tl.constexpr, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(y + tl.arange(0, M), tl.reduce_or(v, 1))
    tl.store(z + tl.arange(0, N), v.reduce_or(axis=0))


def swizzle_ref(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    size_gj = size_g * size_j
    off_i = ij // size_gj * size_g
    g = np.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    return off_i + ij % g, ij // g


rng = np.random.default_rng()
for size_i, size_j, size_g in [(5, 7, 3), (4, 4, 2), (13, 6, 4), (16, 16, 1)]:
    oi = np.full((16, 16), -1, np.int32)
    oj = np.full((16, 16), -1, np.int32)
    swizzle_k[(1, )](oi, oj, size_i, size_j, size_g, BI=16, BJ=16)
    i, j = np.meshgrid(np.arange(size_i), np.arange(size_j), indexing="ij")
    ri, rj = swizzle_ref(i, j, size_i, size_j, size_g)
    assert np.array_equal(oi[:size_i, :size_j], ri) and np.array_equal(oj[:size_i, :size_j], rj), (size_i, size_j, size_g)
    # A permutation of the matrix's cells.
    assert len({(a, b) for a, b in zip(ri.ravel(), rj.ravel())}) == size_i * size_j

for dt in (np.int8, np.int32, np.uint16, np.int64):
    x = rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, size=(8, 16), dtype=dt, endpoint=True)
    y = np.empty(8, dt)
    z = np.empty(16, dt)
    or_k[(1, )](x, y, z, M=8, N=16)
    assert np.array_equal(y, np.bitwise_or.reduce(x, axis=1)) and np.array_equal(z, np.bitwise_or.reduce(x, axis=0)), dt
print("standard_extras: swizzle2d and reduce_or agree with NumPy")

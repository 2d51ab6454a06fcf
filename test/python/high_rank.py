# Tiles past rank 4, as Triton's test_reshape makes them: 512 elements reshaped to rank 9, summed
# along one axis, permuted and reshaped back; checked against NumPy on fresh random input.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def rank9(x_ptr, sum_ptr, perm_ptr):
    x = tl.load(x_ptr + tl.arange(0, 512))
    t = tl.reshape(x, (2, 2, 2, 2, 2, 2, 2, 2, 2))
    tl.store(sum_ptr + tl.arange(0, 256), tl.reshape(tl.sum(t, axis=4), (256,)))
    p = tl.permute(t, (8, 7, 6, 5, 4, 3, 2, 1, 0))
    tl.store(perm_ptr + tl.arange(0, 512), tl.reshape(p, (512,)))


x = np.random.default_rng().integers(-1000, 1000, 512).astype(np.int32)
sums, perm = np.zeros(256, np.int32), np.zeros(512, np.int32)
rank9[(1,)](x, sums, perm)
t = x.reshape((2,) * 9)
assert np.array_equal(sums, t.sum(axis=4).reshape(-1)), (sums, t.sum(axis=4).reshape(-1))
assert np.array_equal(perm, t.transpose(tuple(range(8, -1, -1))).reshape(-1))
print("high_rank: ok (rank-9 reshape, reduce and permute against NumPy)")

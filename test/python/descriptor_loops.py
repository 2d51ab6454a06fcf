# Tensor descriptors as loop-carried values and if results, as Triton allows: a descriptor made
# before a loop, re-made inside it under a runtime condition (over another array, so a wrong
# merge reads the wrong one), used after; in a for and a while loop. Checked against NumPy on
# fresh random inputs; a descriptor whose block shape changes in the loop is a located error.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def switch_kernel(a, b, out, N, EVERY: tl.constexpr, BLOCK: tl.constexpr):
    # Each block of 16 columns reads `a` until its index is a multiple of EVERY, then `b`.
    d = tl.make_tensor_descriptor(a, shape=[16, N], strides=[N, 1], block_shape=[16, BLOCK])
    o = tl.make_tensor_descriptor(out, shape=[16, N], strides=[N, 1], block_shape=[16, BLOCK])
    for i in range(0, N, BLOCK):
        if (i // BLOCK) % EVERY == EVERY - 1:
            d = tl.make_tensor_descriptor(b, shape=[16, N], strides=[N, 1], block_shape=[16, BLOCK])
        o.store([0, i], d.load([0, i]) * 2)
    n = 0
    while n < N:
        if n == 0:
            d = tl.make_tensor_descriptor(a, shape=[16, N], strides=[N, 1], block_shape=[16, BLOCK])
        o.store([0, n], o.load([0, n]) + d.load([0, n]))
        n += BLOCK


@triton.jit
def reshaped_kernel(a, N, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(a, shape=[16, N], strides=[N, 1], block_shape=[16, BLOCK])
    for i in range(0, N, BLOCK):
        d = tl.make_tensor_descriptor(a, shape=[16, N], strides=[N, 1], block_shape=[8, BLOCK])
        d.store([0, i], d.load([0, i]))


rng = np.random.default_rng()
for N, every in [(64, 2), (96, 3), (80, 1)]:
    a = rng.standard_normal((16, N)).astype(np.float32)
    b = rng.standard_normal((16, N)).astype(np.float32)
    out = np.zeros_like(a)
    switch_kernel[(1, )](a, b, out, N, EVERY=every, BLOCK=16)
    want = np.empty_like(a)
    src = a
    for blk in range(N // 16):
        if blk % every == every - 1:
            src = b
        want[:, blk * 16:(blk + 1) * 16] = src[:, blk * 16:(blk + 1) * 16] * 2
    want += a
    np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)
try:
    reshaped_kernel[(1, )](np.zeros((16, 64), np.float32), 64, BLOCK=16)
    raise AssertionError("a descriptor of another block shape was carried")
except Exception as e:
    assert "descriptor_loops.py:31:" in str(e) and "tensor descriptor 'd'" in str(e), e
print("descriptors carried by loops and merged by ifs read the arrays they were made over")

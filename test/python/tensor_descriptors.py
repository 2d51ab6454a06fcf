# Tensor descriptors from Python: triton.tools.tensor_descriptor.TensorDescriptor made on the host
# and passed to a kernel, and tl.make_tensor_descriptor in the kernel, picked by
# isinstance(x, tl.tensor_descriptor) as Triton's attention tutorial does. A block at the offsets;
# elements outside the shape read as zero and are not written (TMA's rule).
import numpy as np
import torch

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def _desc(desc_or_ptr, shape, strides, block_shape):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@triton.jit
def axpy_kernel(x, y, out, M, N, alpha, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    dx = _desc(x, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    dy = _desc(y, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    do = _desc(out, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    om = tl.program_id(0) * BLOCK_M
    on = tl.program_id(1) * BLOCK_N
    a = dx.load([om, on])
    b = dy.load([om, on])
    do.store([om, on], alpha * a + b)


@triton.jit
def edge_kernel(d, out, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One block straddling the bottom-right corner: what it reads past the edge.
    blk = d.load([8, 8])
    offs = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    tl.store(out + offs, blk)


M, N, BM, BN = 45, 40, 16, 8
rng = np.random.default_rng(7)
x64 = rng.standard_normal((M, N))
y64 = rng.standard_normal((M, N))
x, y = torch.from_numpy(x64.astype(np.float32)), torch.from_numpy(y64.astype(np.float32))
ref = 1.5 * x64 + y64
grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))

# Pointers: the kernel makes the descriptors.
out = torch.full((M, N), 99.0)
axpy_kernel[grid](x, y, out, M, N, 1.5, BLOCK_M=BM, BLOCK_N=BN)
np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-6)

# Host descriptors (from_tensor and the constructor; block_shape set after making them, as the
# tutorial's autotune pre-hook does).
dx = TensorDescriptor.from_tensor(x, block_shape=[1, 1])
dy = TensorDescriptor(y, shape=[M, N], strides=[N, 1], block_shape=[1, 1])
out = torch.full((M, N), 99.0)
do = TensorDescriptor.from_tensor(out, [BM, BN])
for d in (dx, dy):
    d.block_shape = [BM, BN]
assert dx.shape == [M, N] and dx.strides == [N, 1]
axpy_kernel[grid](dx, dy, do, M, N, 1.5, BLOCK_M=BM, BLOCK_N=BN)
np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-6)

# Stores past the edge are dropped: a descriptor over the top-left 20x12 of a bigger array
# writes nothing outside it (rows are 40 elements apart, so a write past column 12 would land in
# the array).
big = torch.full((M, N), -1.0)
sub = TensorDescriptor(big, shape=[20, 12], strides=[N, 1], block_shape=[BM, BN])
src = TensorDescriptor(x, shape=[20, 12], strides=[N, 1], block_shape=[BM, BN])
axpy_kernel[(2, 2)](src, src, sub, 20, 12, 1.0, BLOCK_M=BM, BLOCK_N=BN)
expect = np.full((M, N), -1.0)
expect[:20, :12] = 2.0 * x64[:20, :12]
np.testing.assert_allclose(big.numpy(), expect, rtol=1e-6, atol=1e-6)

# Loads past the edge read zero: the block at (8, 8) of a 12x10 descriptor.
small = torch.from_numpy(rng.standard_normal((12, 16)).astype(np.float32))
d = TensorDescriptor(small, shape=[12, 10], strides=[16, 1], block_shape=[BM, BN])
got = torch.empty(BM * BN)
edge_kernel[(1, )](d, got, BLOCK_M=BM, BLOCK_N=BN)
want = np.zeros((BM, BN), dtype=np.float32)
want[:4, :2] = small.numpy()[8:12, 8:10]
np.testing.assert_array_equal(got.numpy().reshape(BM, BN), want)

# NumPy arrays work as bases too.
a = rng.standard_normal((M, N)).astype(np.float32)
o = np.zeros_like(a)
axpy_kernel[grid](TensorDescriptor.from_tensor(a, [BM, BN]), TensorDescriptor.from_tensor(a, [BM, BN]),
                  TensorDescriptor.from_tensor(o, [BM, BN]), M, N, 2.0, BLOCK_M=BM, BLOCK_N=BN)
np.testing.assert_allclose(o, 3.0 * a.astype(np.float64), rtol=1e-6)



# The attention tutorial's pattern: autotune configurations whose pre-hook sets the host
# descriptors' block shapes, pruned by an early_config_prune that reads the call's keywords
# (Triton calls it as prune(configs, positional_args_by_name, **keyword_args)).
def set_blocks(nargs):
    for name in ("x", "y", "out"):
        if isinstance(nargs[name], TensorDescriptor):
            nargs[name].block_shape = [nargs["BLOCK_M"], nargs["BLOCK_N"]]


def prune(configs, named_args, **kwargs):
    assert set(named_args) == {"x", "y", "out"} and kwargs["M"] == M, (named_args.keys(), kwargs.keys())
    return [c for c in configs if c.kwargs["BLOCK_M"] <= kwargs["M"]]


tuned = triton.autotune(configs=[triton.Config({"BLOCK_M": 64, "BLOCK_N": 16}, pre_hook=set_blocks),
                                 triton.Config({"BLOCK_M": 32, "BLOCK_N": 8}, pre_hook=set_blocks)], key=["M", "N"],
                        prune_configs_by={"early_config_prune": prune})(axpy_kernel)
out = torch.full((M, N), 99.0)
dummy = [1, 1]
tgrid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
tuned[tgrid](TensorDescriptor(x, [M, N], [N, 1], dummy), TensorDescriptor(y, [M, N], [N, 1], dummy),
             TensorDescriptor(out, [M, N], [N, 1], dummy), M=M, N=N, alpha=1.5)
assert tuned.best_config.kwargs == {"BLOCK_M": 32, "BLOCK_N": 8}, tuned.best_config  # 64 > M was pruned
np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-6)

# Triton's checks on the host.
for bad, why in ((lambda: TensorDescriptor(x, [M, N], [N, 2], [BM, BN]), "contiguous"),
                 (lambda: TensorDescriptor(x[:, 1:], [M, N - 1], [N, 1], [BM, BN]), "aligned"),
                 (lambda: TensorDescriptor(torch.zeros(5, 3), [5, 3], [3, 1], [4, 2]), "aligned"),
                 (lambda: TensorDescriptor(x, [M, N], [N, 1], [BM, 3]), "powers of two")):
    try:
        bad()
    except (AssertionError, ValueError) as e:
        assert why in str(e), (why, e)
    else:
        raise AssertionError(f"accepted a descriptor that is not {why}")
# padding="nan": what a host-made descriptor reads past its edge is NaN (Triton's
# test_tensor_descriptor_padding); zero padding reads zero there.


@triton.jit
def edge_block(d, out_ptr, row, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + offs, d.load([row, 0]))


for padding, fill in (("nan", float("nan")), ("zero", 0.0)):
    got = torch.empty(BM, BN)
    edge_block[(1, )](TensorDescriptor(x, [M, N], [N, 1], [BM, BN], padding=padding), got, M - 2, BM=BM, BN=BN)
    want = torch.full((BM, BN), fill)
    want[:2, :min(BN, N)] = x[M - 2:, :BN]
    torch.testing.assert_close(got, want, equal_nan=True, rtol=0, atol=0)
print("tensor descriptors: host-made and kernel-made, edges zero- or NaN-padded and not written")

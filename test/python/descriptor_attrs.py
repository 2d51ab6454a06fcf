# What a kernel reads of a tensor descriptor, as Triton's test_tensor_descriptor.py does:
# desc.shape (int32) and desc.strides (int64) of kernel-made and host-made descriptors,
# Triton's functional tl.load_tensor_descriptor / tl.store_tensor_descriptor, and load's
# `multicast` hint (the same values loaded), and the row gather and scatter (rows outside the
# shape read as zero and are not written).
import torch

import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def copy_made(a_ptr, b_ptr, M, N, M_BLOCK: tl.constexpr, N_BLOCK: tl.constexpr, MULTICAST: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[M_BLOCK, N_BLOCK])
    b = tl.make_tensor_descriptor(b_ptr, shape=[M, N], strides=[N, 1], block_shape=[M_BLOCK, N_BLOCK])
    tl.device_assert(a.shape[0] == M)
    tl.device_assert(a.shape[1] == N)
    tl.device_assert(a.strides[0] == N)
    tl.static_assert(a.shape[0].dtype == tl.int32)
    tl.static_assert(a.strides[0].dtype == tl.int64)
    m, n = tl.program_id(0) * M_BLOCK, tl.program_id(1) * N_BLOCK
    tl.store_tensor_descriptor(b, [m, n], tl.load_tensor_descriptor(a, [m, n]) + a.load([m, n], multicast=MULTICAST))


@triton.jit
def shape_of_host(d, out_ptr):
    tl.store(out_ptr + 0, d.shape[0])
    tl.store(out_ptr + 1, d.shape[1])
    tl.store(out_ptr + 2, d.strides[0])
    tl.store(out_ptr + 3, d.strides[1])


@triton.jit
def gather_scatter(in_ptr, out_ptr, idx_ptr, y, X: tl.constexpr, Y: tl.constexpr, BX: tl.constexpr, BY: tl.constexpr):
    idx = tl.load(idx_ptr + tl.arange(0, BX))
    src = tl.make_tensor_descriptor(in_ptr, [X, Y], [Y, 1], [1, BY])
    dst = tl.make_tensor_descriptor(out_ptr, [X, Y], [Y, 1], [1, BY])
    dst.scatter(src.gather(idx, y) + 1, idx, y)


M, N = 40, 24
a = torch.randn(M, N)
for multicast in (False, True):
    b = torch.zeros(M, N)
    copy_made[(triton.cdiv(M, 16), triton.cdiv(N, 8))](a, b, M, N, M_BLOCK=16, N_BLOCK=8, MULTICAST=multicast)
    assert torch.equal(b, 2 * a)
out = torch.zeros(4, dtype=torch.int64)
shape_of_host[(1, )](TensorDescriptor.from_tensor(a, [16, 8]), out)
assert out.tolist() == [M, N, N, 1], out.tolist()
X, Y, BX, BY, y = 16, 64, 8, 32, 16
src, dst = torch.arange(X * Y, dtype=torch.float32).reshape(X, Y), torch.zeros(X, Y)
idx = torch.tensor([3, 0, 15, 7, 16, 2, -1, 9], dtype=torch.int32)  # 16 and -1: outside
gather_scatter[(1, )](src, dst, idx, y, X, Y, BX, BY)
want = torch.zeros(X, Y)
for i in idx.tolist():
    if 0 <= i < X:
        want[i, y:y + BY] = src[i, y:y + BY] + 1
assert torch.equal(dst, want)
print("descriptor attributes: ok (shape, strides, functional load/store, multicast, gather, scatter)")

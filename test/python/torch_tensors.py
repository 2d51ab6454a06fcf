# Torch CPU tensors in the style of Triton's tutorials (device=DEVICE, torch.empty_like,
# x.stride(0), torch.testing.assert_close): fp32 softmax over a strided view, an in-place fp16
# scale of a slice, and an int32 histogram with atomics, each against a float64/int64 reference.
import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    softmax_output = numerator / tl.sum(numerator, axis=0)
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, softmax_output, mask=mask)


@triton.jit
def scale_kernel(x_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(x_ptr + offs, (x.to(tl.float32) * factor).to(tl.float16), mask=m)


@triton.jit
def histogram_kernel(x_ptr, bins_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(bins_ptr + (v % NUM_BINS), 1, mask=m)


torch.manual_seed(int.from_bytes(__import__("os").urandom(4), "little"))

# Softmax of every other row of a wider matrix: a strided view, passed by pointer (no copy).
big = torch.randn(2 * 123, 1000, device=DEVICE)
x = big[::2, :781]
y = torch.empty(x.shape[0], 781, device=DEVICE)
softmax_kernel[(x.shape[0],)](y, x, x.stride(0), y.stride(0), 781, BLOCK_SIZE=triton.next_power_of_2(781))
ref = torch.softmax(x.double(), dim=1)
torch.testing.assert_close(y.double(), ref, rtol=1e-5, atol=1e-7)

# In place on an fp16 slice: only the slice changes.
h = torch.randn(5000, dtype=torch.float16)
before = h.clone()
part = h[1000:4000]
scale_kernel[(triton.cdiv(part.numel(), 512),)](part, part.numel(), 0.5, BLOCK=512)
expected = before.clone()
expected[1000:4000] = (before[1000:4000].float() * 0.5).half()
assert torch.equal(h, expected), "fp16 slice scaled in place"

# Atomics into an int32 tensor.
vals = torch.randint(0, 1000, (10000,), dtype=torch.int32)
bins = torch.zeros(16, dtype=torch.int32)
histogram_kernel[(triton.cdiv(vals.numel(), 256),)](vals, bins, vals.numel(), NUM_BINS=16, BLOCK=256)
assert torch.equal(bins.long(), torch.bincount(vals.long() % 16, minlength=16)), "histogram"
print("torch_tensors: ok")

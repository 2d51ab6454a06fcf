# Softmax over rows in half precision (f16 in and out, f32 arithmetic), in the style of Triton's
# tutorial 02 (one row per program here; masked tails: 781 of 1024 lanes live).
import torch
import triton
import triton.language as tl

from common import LAUNCHES, launch, report, torch_seconds_any


@triton.jit
def softmax_f16_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    row = tl.load(in_ptr + row_idx * in_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    out = numerator / tl.sum(numerator, axis=0)
    tl.store(out_ptr + row_idx * out_row_stride + cols, out.to(tl.float16), mask=mask)


x = torch.randn(1823, 781).half()
y = torch.empty_like(x)
for _ in range(LAUNCHES):
    launch(softmax_f16_kernel, (x.shape[0],), y, x, x.stride(0), y.stride(0), x.shape[1], BLOCK_SIZE=triton.next_power_of_2(x.shape[1]))
torch.testing.assert_close(y.float(), torch.softmax(x.float(), dim=1), atol=2e-3, rtol=2e-2)
xf = x.float()
report("softmax_f16", LAUNCHES, *torch_seconds_any(lambda: torch.softmax(x, dim=1), lambda: torch.softmax(xf, dim=1)))

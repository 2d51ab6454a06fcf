# Fused softmax, as Triton's tutorial 02 writes it (rows in a persistent loop, masked tails).
import torch
import triton
import triton.language as tl

from common import LAUNCHES, launch, report, torch_seconds


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


x = torch.randn(1823, 781)
y = torch.empty_like(x)
BLOCK_SIZE = triton.next_power_of_2(x.shape[1])
num_programs = 64
for _ in range(LAUNCHES):
    launch(softmax_kernel, (num_programs, 1, 1), y, x, x.stride(0), y.stride(0), x.shape[0], x.shape[1], BLOCK_SIZE=BLOCK_SIZE)
torch.testing.assert_close(y, torch.softmax(x, dim=1))
report("fused_softmax", LAUNCHES, torch_seconds(lambda: torch.softmax(x, dim=1)))

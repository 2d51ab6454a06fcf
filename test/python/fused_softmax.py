# Fused softmax in the style of Triton's tutorial 02: one program per row, strides from NumPy.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = np.empty_like(x)
    num_programs = min(64, n_rows)
    softmax_kernel[(num_programs, 1, 1)](y, x, x.strides[0] // x.itemsize, y.strides[0] // y.itemsize, n_rows, n_cols,
                                         BLOCK_SIZE=BLOCK_SIZE, num_stages=2, num_warps=8)
    return y


x = np.random.default_rng().standard_normal((1823, 781)).astype(np.float32)
y_triton = softmax(x)
e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
triton.testing.assert_close(y_triton, e / e.sum(axis=1, keepdims=True), atol=1e-6, rtol=1e-5)
print("fused_softmax: ok")

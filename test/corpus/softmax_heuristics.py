# Row softmax with @triton.heuristics computing BLOCK from the arguments with lambdas, stacked
# with autotune in the order many projects use, and an early return for rows past the end.
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_SIZE": lambda args: triton.next_power_of_2(args["n_cols"]),
    "num_warps": lambda args: 4 if args["n_cols"] <= 1024 else 8,
})
@triton.autotune(configs=[triton.Config({}, num_stages=s) for s in (1, 2)], key=["n_cols"],
                 prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: configs[:1]})
@triton.jit
def softmax_kernel(
    output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    if row_idx >= n_rows:
        return
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    row = tl.load(row_start_ptr + col_offsets, mask=col_offsets < n_cols, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=col_offsets < n_cols)

# RUN: -k softmax_kernel -D BLOCK_SIZE=128 --grid 40
# ARGS: output_ptr=empty:f32:37x100 input_ptr=randn:f32:37x100 input_row_stride=100 output_row_stride=100 n_rows=37 n_cols=100
# REF: e = np.exp(input_ptr - input_ptr.max(axis=1, keepdims=True)); output_ptr = e / e.sum(axis=1, keepdims=True)
# EXPECT: output_ptr

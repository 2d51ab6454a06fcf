# exp over its whole float32 range, as an activation or softmax kernel may feed it: results that
# overflow to inf, fall into subnormals and flush to 0, plus -inf, inf and NaN (the GPU engine
# builds 2^n from exponent bits after clamping x: docs/codegen.md).
import triton
import triton.language as tl


@triton.jit
def exp_range_kernel(out_ptr, n, STEP: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = (i - n // 2).to(tl.float32) * STEP
    x = tl.where(i == 0, float("-inf"), tl.where(i == 1, float("inf"), tl.where(i == 2, float("nan"), x)))
    tl.store(out_ptr + i, tl.exp(x), mask=i < n)

# RUN: -k exp_range_kernel -D STEP=0.0625 -D BLOCK=512 --grid 8
# ARGS: out_ptr=empty:f32:4096 n=4096
# REF: i = np.arange(4096); x = ((i - 2048).astype(np.float32) * np.float32(0.0625)).astype(np.float32)
# REF: x[0] = -np.inf; x[1] = np.inf; x[2] = np.nan
# REF: with np.errstate(over="ignore", under="ignore"): out_ptr = np.exp(x.astype(np.float64)).astype(np.float32)
# EXPECT: out_ptr
# TOL: 2e-7 1e-45

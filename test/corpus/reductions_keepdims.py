# Reductions with keep_dims, max with return_indices, min/argmin, xor-free integer sums, and
# a column reduction of a 2-D tile.
import triton
import triton.language as tl


@triton.jit
def reduce_kernel(x_ptr, rowmax_ptr, argmax_ptr, colmin_ptr, centered_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    vmax, imax = tl.max(x, axis=1, return_indices=True)
    tl.store(rowmax_ptr + r, vmax)
    tl.store(argmax_ptr + r, imax)
    tl.store(colmin_ptr + c, tl.min(x, axis=0))
    mean = tl.sum(x, axis=1, keep_dims=True) / C
    tl.store(centered_ptr + r[:, None] * C + c[None, :], x - mean)

# RUN: -k reduce_kernel -D R=16 -D C=32 --grid 1
# ARGS: x_ptr=randn:f32:16x32 rowmax_ptr=empty:f32:16 argmax_ptr=empty:i32:16 colmin_ptr=empty:f32:32 centered_ptr=empty:f32:16x32
# REF: rowmax_ptr = x_ptr.max(1); argmax_ptr = x_ptr.argmax(1); colmin_ptr = x_ptr.min(0)
# REF: centered_ptr = x_ptr - x_ptr.mean(1, keepdims=True)
# EXPECT: rowmax_ptr argmax_ptr colmin_ptr centered_ptr
# TOL: 1e-5 1e-6

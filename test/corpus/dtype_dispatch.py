# Compile-time dispatch on dtypes: a dtype constexpr from -D, comparisons of x.dtype, the
# element type of a pointer argument, and accumulation in a wider type.
import triton
import triton.language as tl


@triton.jit
def _acc_type(dtype: tl.constexpr):
    if dtype == tl.float16 or dtype == tl.bfloat16:
        return tl.float32
    return dtype


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, OUT_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=_acc_type(x_ptr.dtype.element_ty))
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=0)
        acc += x.to(acc.dtype)
    total = tl.sum(acc, axis=0)
    if x_ptr.dtype.element_ty == tl.float16:
        total = total * 1.0
    tl.store(out_ptr, total.to(OUT_DTYPE))

# RUN: -k sum_kernel -D OUT_DTYPE=fp32 -D BLOCK=256 --grid 1
# ARGS: x_ptr=randn:f16:1000 out_ptr=empty:f32:1 n=1000
# REF: out_ptr = np.array([x_ptr.sum()])
# EXPECT: out_ptr
# TOL: 1e-4 1e-3
# RUN: -k sum_kernel -D OUT_DTYPE=tl.float64 -D BLOCK=128 --grid 1
# ARGS: x_ptr=randn:f64:500 out_ptr=empty:f64:1 n=500
# REF: out_ptr = np.array([x_ptr.sum()])
# EXPECT: out_ptr
# TOL: 1e-12 1e-12

# Casts as real kernels write them: tl.cast, .to(ptr.dtype.element_ty), x.type.element_ty,
# bitcasts, and a module-level dtype constant.
import triton
import triton.language as tl

OUT_DTYPE = tl.float16


@triton.jit
def cast_kernel(x_ptr, h_ptr, bits_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    h = tl.cast(x, OUT_DTYPE)
    tl.store(h_ptr + offs, h.to(h_ptr.dtype.element_ty), mask=m)
    bits = x.to(tl.int32, bitcast=True)
    tl.store(bits_ptr + offs, bits, mask=m)
    acc_ty = x.type.element_ty
    y = tl.cast(h, acc_ty) * 2
    tl.store(y_ptr + offs, y.to(y_ptr.type.element_ty), mask=m)

# RUN: -k cast_kernel -D BLOCK=64 --grid 2
# ARGS: x_ptr=randn:f32:100 h_ptr=empty:f16:100 bits_ptr=empty:i32:100 y_ptr=empty:f32:100 n=100
# REF: h_ptr = x_ptr.astype(np.float16)
# REF: bits_ptr = x_ptr.astype(np.float32).view(np.int32)
# REF: y_ptr = x_ptr.astype(np.float16).astype(np.float64) * 2
# EXPECT: h_ptr bits_ptr y_ptr
# TOL: 0 0

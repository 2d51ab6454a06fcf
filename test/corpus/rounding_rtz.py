# Narrowing float conversions with Triton's fp_downcast_rounding: 'rtz' rounds toward zero (a
# value past the narrow type's largest finite one gives that one, not infinity), 'rtne' to
# nearest even; f32 to f16, bf16 and float8e5 (the top byte of f16 toward zero, as Triton's),
# f64 to f32, f16 and bf16 (through f32 on the GPU: toward zero twice is toward zero once).
# Against NumPy, bit for bit.
import triton
import triton.language as tl


@triton.jit
def rtz_kernel(x_ptr, d_ptr, h_ptr, hn_ptr, b_ptr, f_ptr, e_ptr, g_ptr, c_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i) * 40000.0  # past f16's 65504 in the tails
    d = tl.load(d_ptr + i)
    tl.store(h_ptr + i, x.to(tl.float16, fp_downcast_rounding="rtz").to(tl.float32))
    tl.store(hn_ptr + i, x.to(tl.float16, fp_downcast_rounding="rtne").to(tl.float32))
    tl.store(b_ptr + i, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz").to(tl.float32))
    tl.store(f_ptr + i, d.to(tl.float32, fp_downcast_rounding="rtz"))
    tl.store(e_ptr + i, x.to(tl.float8e5, fp_downcast_rounding="rtz").to(tl.float32))
    tl.store(g_ptr + i, (d * 70000.0).to(tl.float16, fp_downcast_rounding="rtz").to(tl.float32))
    tl.store(c_ptr + i, (d * 70000.0).to(tl.bfloat16, fp_downcast_rounding="rtz").to(tl.float32))

# RUN: -k rtz_kernel -D N=256 --grid 1
# ARGS: x_ptr=randn:f32:256 d_ptr=randn:f64:256 h_ptr=empty:f32:256 hn_ptr=empty:f32:256 b_ptr=empty:f32:256 f_ptr=empty:f32:256 e_ptr=empty:f32:256 g_ptr=empty:f32:256 c_ptr=empty:f32:256
# REF: x = x_ptr.astype(np.float32) * np.float32(40000.0)
# REF: def nearest(v, t):
# REF:     with np.errstate(over="ignore"): return v.astype(t)  # past the largest finite: inf
# REF: def toward_zero(v, t):
# REF:     y = nearest(v, t); over = np.abs(y.astype(np.float64)) > np.abs(v.astype(np.float64))
# REF:     y[over] = np.nextafter(y[over], t(0)); return y.astype(np.float64)
# REF: h_ptr = toward_zero(x, np.float16); hn_ptr = nearest(x, np.float16).astype(np.float64)
# REF: b_ptr = (x.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32).astype(np.float64)
# REF: f_ptr = toward_zero(d_ptr, np.float32)
# REF: e_ptr = (toward_zero(x, np.float16).astype(np.float16).view(np.uint16) & np.uint16(0xFF00)).view(np.float16).astype(np.float64)
# REF: assert (np.abs(x) > 65504).any() and (h_ptr != hn_ptr).any(), "inputs reach neither overflow nor a rounding"
# REF: g_ptr = toward_zero(d_ptr * 70000.0, np.float16)
# REF: c_ptr = (toward_zero(d_ptr * 70000.0, np.float32).astype(np.float32).view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32).astype(np.float64)
# EXPECT: h_ptr hn_ptr b_ptr f_ptr e_ptr g_ptr c_ptr
# TOL: 0 0

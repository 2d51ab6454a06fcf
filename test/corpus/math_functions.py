# Elementwise math as kernels use it: exp/log/sqrt/rsqrt/sin/cos/erf/floor/ceil/abs, fma,
# clamp, maximum, sigmoid, through tl, tl.math and libdevice spellings.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def math_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    a = tl.abs(x) + 0.5
    y0 = tl.exp(x) + tl.log(a) + tl.sqrt(a) + tl.math.rsqrt(a)
    y1 = tl.sin(x) * tl.cos(x) + tl.erf(x) + libdevice.tanh(x)
    y2 = tl.floor(x * 3.0) + tl.ceil(x * 3.0) + tl.fma(x, x, 1.0)
    y3 = tl.clamp(x, -0.5, 0.5) + tl.maximum(x, 0.0) + tl.sigmoid(x) + tl.exp2(x) + tl.log2(a)
    base = out_ptr + offs
    tl.store(base, y0, mask=m)
    tl.store(base + n, y1, mask=m)
    tl.store(base + 2 * n, y2, mask=m)
    tl.store(base + 3 * n, y3, mask=m)

# RUN: -k math_kernel -D BLOCK=128 --grid 2
# ARGS: x_ptr=randn:f32:200 out_ptr=empty:f32:4x200 n=200
# REF: import math
# REF: x = x_ptr; a = np.abs(x) + 0.5; erf = np.vectorize(math.erf)
# REF: out_ptr = np.stack([np.exp(x) + np.log(a) + np.sqrt(a) + 1 / np.sqrt(a),
# REF:     np.sin(x) * np.cos(x) + erf(x) + np.tanh(x),
# REF:     np.floor(np.float32(x) * np.float32(3)) + np.ceil(np.float32(x) * np.float32(3)) + x * x + 1,
# REF:     np.clip(x, -0.5, 0.5) + np.maximum(x, 0) + 1 / (1 + np.exp(-x)) + np.exp2(x) + np.log2(a)])
# EXPECT: out_ptr
# TOL: 1e-5 1e-5

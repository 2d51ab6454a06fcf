# libdevice imported the way projects do across Triton versions: inside try/except ImportError
# and under an if on the version; the first branch that resolves is used.
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:
    from triton.language.extra.cuda import libdevice

if triton.__version__ >= "3.0.0":
    from triton.language.extra.cuda.libdevice import tanh as fast_tanh
else:
    from triton.language.math import tanh as fast_tanh

try:
    from triton.language.extra.cuda.libdevice import pow as powf  # noqa: F401
except ModuleNotFoundError:
    powf = None


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, libdevice.erf(x) + fast_tanh(x), mask=m)
    tl.store(z_ptr + offs, powf(tl.abs(x), 1.5) + tl.math.rsqrt(tl.abs(x) + 1.0), mask=m)

# RUN: -k libdevice_kernel -D BLOCK=64 --grid 4
# ARGS: x_ptr=randn:f32:256 y_ptr=empty:f32:256 z_ptr=empty:f32:256 n=256
# REF: import math
# REF: y_ptr = np.vectorize(math.erf)(x_ptr) + np.tanh(x_ptr)
# REF: z_ptr = np.abs(x_ptr) ** 1.5 + 1 / np.sqrt(np.abs(x_ptr) + 1)
# EXPECT: y_ptr z_ptr
# TOL: 1e-5 1e-5

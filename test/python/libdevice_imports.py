# libdevice's functions imported by name on the host, as Triton's own tests and users' modules do
# (`from triton.language.extra.libdevice import fast_dividef as my_fast_dividef`): every name of
# Triton's libdevice imports from either module; a renamed import called in a kernel is that
# function; one called on the host says it runs in kernels; one the frontend lacks is a located
# error where the kernel calls it.
import numpy as np

import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda.libdevice import pow as cuda_pow
from triton.language.extra.libdevice import fast_dividef as my_fast_dividef  # noqa: F401
from triton.language.extra.libdevice import tanh as my_tanh


@triton.jit
def math_k(x, out_t, out_p, N: tl.constexpr):
    v = tl.load(x + tl.arange(0, N))
    tl.store(out_t + tl.arange(0, N), my_tanh(v))
    tl.store(out_p + tl.arange(0, N), cuda_pow(v, 2.0))


@triton.jit
def rare_k(x, out, N: tl.constexpr):
    tl.store(out + tl.arange(0, N), libdevice.rcp64h(tl.load(x + tl.arange(0, N))))


for name in ("fast_dividef", "j0", "isinf", "llrint", "erfcinv", "cyl_bessel_i1"):
    assert hasattr(libdevice, name), name
assert len(libdevice.NAMES) == 198 and len(set(libdevice.NAMES)) == 198
rng = np.random.default_rng()
x = rng.standard_normal(64).astype(np.float32)
t, p = np.empty_like(x), np.empty_like(x)
math_k[(1, )](x, t, p, N=64)
np.testing.assert_allclose(t, np.tanh(x.astype(np.float64)), rtol=1e-6, atol=1e-6)
np.testing.assert_allclose(p, x.astype(np.float64) ** 2, rtol=1e-6, atol=1e-6)
try:
    my_tanh(1.0)
    raise AssertionError("a libdevice stub ran on the host")
except RuntimeError as e:
    assert "can only be called inside a @triton.jit function" in str(e), e
try:
    rare_k[(1, )](x.astype(np.float64), t.astype(np.float64), N=64)
    raise AssertionError("rcp64h compiled")
except Exception as e:
    assert "libdevice_imports.py:25:" in str(e) and "rcp64h" in str(e), e
print("libdevice imports: renamed and module-qualified calls agree; an unknown one is located")

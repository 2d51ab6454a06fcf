# Module-level aliases of Triton's functions, as projects write them for several Triton versions
# (`triton_cast = tl.cast`, `exp = tl.math.exp`, `from triton.language.math import rsqrt`,
# `from triton.language.standard import sigmoid`): every name of Triton 3.6's triton.language
# exists on the host, `tl.exp` is `tl.math.exp`, a kernel calling the alias calls the function,
# and the host calling it is an error, as in Triton.
import numpy as np

import triton
import triton.language as tl
from triton.language.math import rsqrt
from triton.language.random import rand
from triton.language.standard import sigmoid

if triton.__version__ >= "3.0.0":
    from triton.language.extra import libdevice
    fast_tanh = libdevice.tanh
    triton_cast = tl.cast
else:
    raise AssertionError("the stand-in reports Triton 3.6")
exp = tl.math.exp
where = tl.where


@triton.jit
def aliases(x_ptr, out_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = triton_cast(exp(x) + fast_tanh(x), tl.float32)
    y = where(x > 0, y * rsqrt(x * x + 1.0), sigmoid(x))
    u = rand(seed, offs)  # in [0, 1)
    tl.store(out_ptr + offs, triton_cast(y, tl.float64), mask=mask)
    tl.store(out_ptr + n + offs, u.to(tl.float64), mask=mask)


rng = np.random.default_rng()
n = 1000
x = rng.standard_normal(n).astype(np.float32)
out = np.zeros(2 * n, np.float64)
aliases[(triton.cdiv(n, 256), )](x, out, n, 7, BLOCK=256)
xd = x.astype(np.float64)
want = np.where(xd > 0, (np.exp(xd) + np.tanh(xd)) / np.sqrt(xd * xd + 1), 1 / (1 + np.exp(-xd)))
err = np.max(np.abs(out[:n] - want) / np.maximum(1, np.abs(want)))
assert err < 1e-5, err
assert np.all((out[n:] >= 0) & (out[n:] < 1)) and np.std(out[n:]) > 0.2, out[n:]

assert tl.exp is tl.math.exp and tl.sigmoid is sigmoid and tl.rand is rand and tl.cast is triton_cast
assert tl.TRITON_MAX_TENSOR_NUMEL == 1048576
for name in ("load", "store", "dot", "arange", "program_id", "static_range", "make_block_ptr", "reduce", "umulhi"):
    assert callable(getattr(tl, name)), name
try:
    triton_cast(1.0, tl.float16)
    raise AssertionError("no error")
except RuntimeError as e:
    assert "can only be called inside a @triton.jit function" in str(e), e
print(f"module aliases: max relative error {err:.2e}")

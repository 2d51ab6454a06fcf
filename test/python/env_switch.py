# A module-level `if os.environ.get(...)` switching a constant a kernel uses: the kernel sees
# the value Python computed (run_scripts.sh runs this with TILEVM_TEST_SWITCH set and unset).
import os

import numpy as np

import triton
import triton.language as tl

if os.environ.get("TILEVM_TEST_SWITCH"):
    FACTOR = 3
    BIAS = 1.5
elif os.environ.get("TILEVM_TEST_NEVER"):
    FACTOR = 100
    BIAS = 100.0
else:
    FACTOR = 2
    BIAS = 0.0


@triton.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=m) * FACTOR + BIAS, mask=m)


x = np.arange(10, dtype=np.float32)
scale[(1,)](x, 10, BLOCK=16)
expected = np.arange(10, dtype=np.float32) * FACTOR + BIAS
assert (x == expected).all(), (x, expected)
print(f"env_switch: ok (FACTOR={FACTOR}, BIAS={BIAS})")

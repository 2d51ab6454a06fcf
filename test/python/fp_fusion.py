# Triton's enable_fp_fusion (test_enable_fp_fusion's kernel and more): by default, as Triton's
# GPU code, a product added or subtracted in its block is one fma on both engines, rounded once;
# enable_fp_fusion=False (or knobs.language.default_fp_fusion = False) rounds the product and
# the sum apart. Checked bit for bit on fresh random inputs: fused against the float64 result
# rounded once (an f32 product is exact in a double; the sum's rounding to double then f32 can
# differ from one rounding only at a tie, about 2^-29 of elements), unfused against NumPy's f32.
import re

import numpy as np

import triton
import triton.language as tl
from tilevm import _tilevm


@triton.jit
def mul_add(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)


@triton.jit
def fused_forms(A, B, C, O1, O2, O3, O4, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a, b, c = tl.load(A + offs), tl.load(B + offs), tl.load(C + offs)
    p = a * b
    tl.store(O1 + offs, p + c)      # fma(a, b, c)
    tl.store(O2 + offs, p - c)      # fma(a, b, -c)
    tl.store(O3 + offs, c - a * b)  # fma(-a, b, c)
    tl.store(O4 + offs, p)          # the product, for its own use


rng = np.random.default_rng()
n = 4096
a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
a64, b64, c64 = (v.astype(np.float64) for v in (a, b, c))
once = [(a64 * b64 + c64).astype(np.float32), (a64 * b64 - c64).astype(np.float32), (c64 - a64 * b64).astype(np.float32)]
apart = [a * b + c, a * b - c, c - a * b]
for fusion in (None, True, False):
    outs = [np.zeros(n, np.float32) for _ in range(4)]
    kw = {} if fusion is None else {"enable_fp_fusion": fusion}
    fused_forms[(n // 1024,)](a, b, c, *outs, BLOCK=1024, **kw)
    want = apart if fusion is False else once
    for i in range(3):
        np.testing.assert_array_equal(outs[i], want[i], err_msg=f"enable_fp_fusion={fusion}, form {i}")
    np.testing.assert_array_equal(outs[3], a * b)
# The forms differ somewhere on these inputs: the test sees fusion.
assert any(not np.array_equal(x, y) for x, y in zip(once, apart))

# test_enable_fp_fusion: the launch option and the knob, read in the IR and (a build with the code
# generator) the PTX.
d = rng.standard_normal(128).astype(np.float32)
for enable, override in ((False, False), (True, False), (False, True), (True, True)):
    if override:
        triton.knobs.language.default_fp_fusion = enable
        h = mul_add.warmup(d, grid=(1,))
    else:
        h = mul_add.warmup(d, grid=(1,), enable_fp_fusion=enable)
    assert ("= fma " in h.asm["ttir"]) == enable, h.asm["ttir"]
    if hasattr(_tilevm, "ptx"):
        assert (re.search(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32", h.asm["ptx"]) is not None) == enable
triton.knobs.language.default_fp_fusion = True
print("fp_fusion: a*b + c, a*b - c, c - a*b fused by default and apart when disabled, bit for bit")

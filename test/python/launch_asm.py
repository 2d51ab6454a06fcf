# What a launch gives back, read as Triton's tests read it (`pgm = kernel[grid](...)`, then
# `pgm.asm["ptx"]`): the tile IR and the PTX tilevm's GPU engine builds for the kernel, with the
# launch's numbers still readable as a dict.
import numpy as np

import triton
import triton.language as tl
from tilevm import _tilevm


@triton.jit
def scale_rows(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


x = np.random.default_rng(5).standard_normal(4096).astype(np.float32)
o = np.zeros_like(x)
pgm = scale_rows[(8,)](x, o, x.size, BLOCK=512)
np.testing.assert_array_equal(o, x * np.float32(3.0))
assert pgm["programs"] == 8, pgm["programs"]
ttir = pgm.asm["ttir"]
assert ttir.startswith("kernel @scale_rows(") and "load" in ttir and "store" in ttir, ttir[:200]
if hasattr(_tilevm, "ptx"):  # a build with the code generator
    ptx = pgm.asm["ptx"]
    # 4 elements a thread, n = 4096 specialized as divisible by 16: 16-byte masked accesses.
    assert ".entry scale_rows" in ptx and "ld.global.v4" in ptx and "st.global.v4" in ptx, ptx[:400]
    assert pgm.asm is pgm.asm  # made once
print("launch asm: ttir and ptx of the launched kernel")

# A warmup's compiled kernel has the same (Triton's CompiledKernel.asm).
k = scale_rows.warmup(x, o, x.size, BLOCK=512, grid=(8,))
assert k.asm["ttir"] == ttir, (k.asm["ttir"][:200], ttir[:200])
if hasattr(_tilevm, "ptx"):
    assert k.asm["ptx"] == ptx
print("warmup asm: the same")

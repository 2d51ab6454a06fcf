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

# Triton's maxnreg: `.maxnreg N` on the kernel's entry (ptxas gives a thread at most N
# registers); a launch, a warmup and an autotuner's Config carry it; a count ptxas cannot honour
# is refused, as an option is.
if hasattr(_tilevm, "ptx"):
    import re
    pgm = scale_rows[(8,)](x, o, x.size, BLOCK=512, maxnreg=42)
    assert re.search(r"\.visible \.entry scale_rows[^{;]*\.maxnreg 42", pgm.asm["ptx"]), pgm.asm["ptx"][:600]
    assert ".maxnreg" not in ptx  # without it, ptxas decides
    k = scale_rows.warmup(x, o, x.size, BLOCK=512, grid=(8,), maxnreg=40)
    assert ".maxnreg 40" in k.asm["ptx"], k.asm["ptx"][:600]

    @triton.autotune(configs=[triton.Config({"BLOCK": 256}, maxnreg=64)], key=["n"])
    @triton.jit
    def scale_tuned(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)

    o[:] = 0
    tuned = scale_tuned[(16,)](x, o, x.size)
    np.testing.assert_array_equal(o, x * np.float32(3.0))
    assert ".maxnreg 64" in tuned.asm["ptx"], tuned.asm["ptx"][:600]
    try:
        scale_rows[(8,)](x, o, x.size, BLOCK=512, maxnreg=256)
        raise AssertionError("maxnreg=256 was accepted")
    except ValueError as e:
        assert "--maxnreg 256: expected an integer from 0 to 255" in str(e), e
    print("maxnreg: on the entry, from a launch, a warmup and a Config")

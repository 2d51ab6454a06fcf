# Repeated launches of one kernel reuse what the first one built: the kernel is compiled and
# written to bytecode once (to key it), then prepared (interpreter) or JIT-loaded (GPU engine)
# once; later launches are in-memory hits. tilevm.last_launch counts each kind of work.
import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


x = np.arange(3000, dtype=np.float32)
out = np.empty_like(x)
scale_kernel[(3,)](x, out, x.size, 2.0, BLOCK=1024)
first = dict(tilevm.last_launch)
for key in ("bytecode_encodes", "prepares", "module_loads", "cache_hits"):
    assert key in first, first
on_gpu = tilevm.options["device"] != "cpu"
for i in range(3):
    scale_kernel[(3,)](x, out, x.size, 3.0 + i, BLOCK=1024)
    np.testing.assert_array_equal(out, x * (3.0 + i))
last = tilevm.last_launch
assert last["bytecode_encodes"] == first["bytecode_encodes"], (first, last)  # no launch wrote bytecode
assert last["prepares"] == first["prepares"], (first, last)
assert last["module_loads"] == first["module_loads"], (first, last)
assert last["cache_hits"] == first["cache_hits"] + 3, (first, last)
# Another constexpr is another kernel: compiled, keyed and prepared (or loaded) once more.
scale_kernel[(6,)](x, out, x.size, 1.0, BLOCK=512)
other = tilevm.last_launch
assert other["bytecode_encodes"] == last["bytecode_encodes"] + 1, (last, other)
assert (other["module_loads"] if on_gpu else other["prepares"]) == (last["module_loads"] if on_gpu else last["prepares"]) + 1, (last, other)
print("launch_cache: ok")

# The Python door takes the launch contract of runtime/: its options are checked by the CLI's one
# checker (a GPU grid's Y and Z included), a --device spec is parsed by the CLI's one parser, and
# every launch runs through rt::Device (the interpreter is one), its errors as Python exceptions
# by kind: ValueError for a bad kernel, argument or option.
import numpy as np

import tilevm
import triton
import triton.language as tl


def expect(exc, message, fn):
    try:
        fn()
    except exc as e:
        assert str(e) == message, f"got {e!r}, expected {message!r}"
        return
    raise AssertionError(f"no {exc.__name__}: {message}")


limits = ("each dimension must be at most 2147483647 (program_id is int32), and at most 4294967295 programs in a launch "
          "(see docs/limits.md)")
# A GPU's grid stops at 65535 along Y and Z; the interpreter's does not.
expect(ValueError, f"--grid 4,70000: expected X[,Y[,Z]] with positive integers; {limits}; on a GPU Y and Z at most 65535",
       lambda: tilevm._tilevm.check_options({"grid": (4, 70000), "device": "cuda"}))
tilevm._tilevm.check_options({"grid": (4, 70000), "device": "cpu"})
# Device specs: the CLI's parser and message.
for spec in ("gpu", "cuda:x", "cuda:1024"):
    expect(ValueError, f"--device {spec}: expected cpu, cuda or cuda:N (N from 0 to 1023)",
           lambda: tilevm._tilevm.probe_device(spec))
assert tilevm._tilevm.probe_device("cpu") == (True, "cpu interpreter")
usable, why = tilevm._tilevm.probe_device("cuda:7")
assert isinstance(usable, bool) and why, (usable, why)


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


x = np.arange(100, dtype=np.float32)
y = np.zeros_like(x)
if tilevm.options["device"] == "cpu":
    copy_kernel[(1,)](x, y, x.size, BLOCK=128)
    np.testing.assert_array_equal(x, y)
    assert tilevm.last_launch["programs"] == 1 and tilevm.last_launch["copied_bytes"] == 0, tilevm.last_launch
print("launch_contract: ok")

# tl.static_print as Triton's: Python's print of its values at compile time, to sys.stdout
# (test_subprocess.py's test_print[static_print] expects " int32[constexpr[128]]" there and
# nothing on stderr); constexprs print as their values, tensors as dtype[constexpr[dims]]; a
# compiled kernel prints nothing again.
import contextlib
import io
import uuid

import numpy as np

import triton
import triton.language as tl


@triton.jit
def kernel_static_print(X, Y, BLOCK: tl.constexpr, PLACEHOLDER: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.static_print("", x)
    tl.static_print("consts", BLOCK, 0.5, 1e-05, 2.0, False, tl.float16, x[:, None])
    tl.store(Y + tl.arange(0, BLOCK), x)


x = np.arange(128, dtype=np.int32)
y = np.zeros_like(x)
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    kernel_static_print[(1,)](x, y, BLOCK=128, PLACEHOLDER=str(uuid.uuid4()))
    kernel_static_print[(1,)](x, y, BLOCK=128, PLACEHOLDER="same")
    kernel_static_print[(1,)](x, y, BLOCK=128, PLACEHOLDER="same")  # compiled: prints nothing
np.testing.assert_array_equal(y, x)
lines = out.getvalue().splitlines()
assert lines == [" int32[constexpr[128]]", "consts 128 0.5 1e-05 2.0 False fp16 int32[constexpr[128], constexpr[1]]"] * 2, lines
assert err.getvalue() == "", err.getvalue()
print("static_print: to stdout in Python's words, once per compile")

# An arbitrary object given for a tl.constexpr parameter (Triton's own tests pass uuid.uuid4()
# so that each launch compiles afresh): the kernel takes it; naming it in the kernel is a located
# compile error that says what the object is. For a runtime parameter it is a TypeError.
import uuid

import numpy as np

import triton
import triton.language as tl
from triton import CompilationError


@triton.jit
def copy(X, Y, BLOCK: tl.constexpr, PLACEHOLDER: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs))


@triton.jit
def uses(X, P: tl.constexpr):
    tl.store(X, P)  # USE


x = np.random.default_rng().standard_normal(8).astype(np.float32)
for _ in range(2):
    y = np.zeros(8, np.float32)
    copy[(1,)](x, y, BLOCK=8, PLACEHOLDER=uuid.uuid4())
    assert np.array_equal(x, y)
line = next(i for i, l in enumerate(open(__file__), 1) if "# USE" in l)
try:
    uses[(1,)](y, P=uuid.uuid4())
except CompilationError as e:
    assert f"object_constexpr.py:{line}:17: error: 'P' is a uuid.UUID" in str(e), str(e)
else:
    raise SystemExit("naming an object constexpr was not an error")
try:
    copy[(1,)](uuid.uuid4(), y, BLOCK=8, PLACEHOLDER=0)
except TypeError as e:
    assert "argument 'X': a uuid.UUID" in str(e), str(e)
else:
    raise SystemExit("an object for a runtime parameter was accepted")
print("object_constexpr: ok")

# Triton's error classes as tilevm raises them: a kernel that does not compile raises
# triton.CompilationError (a triton.TritonError), whose text is the frontend's located diagnostic
# in Triton's words (what Triton's tests `match`), with the message alone, the place and a
# ValueError cause holding the message (Triton's tests read `__cause__`); it pickles. Errors that
# are no compile error stay what they were (a read-only array: ValueError; a tuple where a
# constexpr goes, or any object no constexpr text stands for: TypeError).
import os
import pickle

import numpy as np
import torch

import triton
import triton.language as tl
from triton.compiler import CompilationError
from triton.runtime.errors import InterpreterError, OutOfResources

HERE = os.path.abspath(__file__)


@triton.jit
def bitwise_on_floats(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x & y)


@triton.jit
def mixed_signedness(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) / tl.load(y_ptr + offs))


@triton.jit
def bad_axis():
    pid = tl.program_id(20)


@triton.jit
def bad_index(dst):
    dst[10:]


@triton.jit
def overflow():
    huge: tl.constexpr = 0xFFFFFFFFFFFFFF
    x = tl.full((), 32, dtype=tl.int32)
    y = x + huge


def compile_error(fn):
    try:
        fn()
    except triton.CompilationError as e:
        return e
    raise AssertionError("no CompilationError")


assert CompilationError is triton.CompilationError and issubclass(CompilationError, triton.TritonError)
assert issubclass(InterpreterError, triton.TritonError) and issubclass(OutOfResources, triton.TritonError)

x = torch.ones(16, dtype=torch.int8)
f = torch.ones(16, dtype=torch.float16)
e = compile_error(lambda: bitwise_on_floats[(1, )](x, f, x, BLOCK=16))
line = bitwise_on_floats.fn.__code__.co_firstlineno + 5  # `tl.store(out_ptr + offs, x & y)`
assert str(e).startswith(f"{HERE}:{line}:30: error: invalid operands of type int8 and fp16"), str(e)
assert str(e).splitlines()[1].strip() == "tl.store(out_ptr + offs, x & y)", str(e)
assert e.error_message.startswith("invalid operands of type int8 and fp16"), e.error_message
assert (e.file, e.lineno, e.col_offset) == (HERE, line, 29), (e.file, e.lineno, e.col_offset)
assert isinstance(e.__cause__, ValueError) and str(e.__cause__) == e.error_message
again = pickle.loads(pickle.dumps(e))
assert type(again) is type(e) and str(again) == str(e) and again.error_message == e.error_message

u = np.ones(16, dtype=np.uint32)
i = np.ones(16, dtype=np.int32)
e = compile_error(lambda: mixed_signedness[(1, )](u, i, i, BLOCK=16))
assert "Cannot use /, //, or % with uint32 and int32 because they have different signedness" in str(e), str(e)
e = compile_error(lambda: bad_axis[(1, )]())
assert "program_id axis must be 0, 1, or 2 but got 20" in str(e.__cause__), str(e)
e = compile_error(lambda: bad_index[(1, )](torch.empty(4)))
assert "unsupported tensor index" in str(e), str(e)
e = compile_error(lambda: overflow[(1, )]())
assert "Scalar 72057594037927935 is out of range for type int32" in str(e), str(e)

# Triton's own constructor and text, for programs that raise it themselves.
class Node:
    lineno, col_offset = 2, 4


mine = CompilationError("def k():\n    x = 1 +\n", Node(), "bad")
assert str(mine) == "at 2:4:\ndef k():\n    x = 1 +\n    ^\nbad", str(mine)

# Not a compile error: still ValueError.
frozen = np.ones(16, dtype=np.float32)
frozen.setflags(write=False)


@triton.jit
def copy(src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs))


try:
    copy[(1, )](frozen, frozen, BLOCK=16)
    raise AssertionError("a read-only output was accepted")
except ValueError as v:
    assert not isinstance(v, triton.TritonError) and "read-only" in str(v), v
# A tuple constexpr reaches the kernel (as in Triton), where arange refuses it, located; a value
# no constexpr text can stand for is a TypeError naming the argument, not its repr compiled.
try:
    copy[(1, )](frozen, np.ones(16, dtype=np.float32), BLOCK=(16, ))
    raise AssertionError("a tuple BLOCK was accepted")
except triton.CompilationError as e:
    assert "arange() must be a constexpr integer, got tuple" in str(e), e
try:  # a tuple argument reaches the kernel (as in Triton), where `+` refuses it, located
    copy[(1, )]((1, 2), np.ones(16, dtype=np.float32), BLOCK=16)
    raise AssertionError("a tuple src was accepted")
except triton.CompilationError as e:
    assert "operator '+' is not supported on tuple of 2" in str(e), e
import uuid
try:  # any object may be a constexpr (Triton's tests pass uuids); using it is the located error
    copy[(1, )](frozen, np.ones(16, dtype=np.float32), BLOCK=uuid.uuid4())
    raise AssertionError("a UUID BLOCK was used")
except triton.CompilationError as e:
    assert "triton_errors.py" in str(e) and "'BLOCK' is a uuid.UUID" in str(e), e
print("compile errors are triton.CompilationError, located, in Triton's words")

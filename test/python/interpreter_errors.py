# triton.runtime.errors.InterpreterError where Triton's interpreter raises it: for any error in a
# kernel it runs. On tilevm's interpreter a kernel that does not compile raises an error that is
# both Triton's CompilationError and its InterpreterError (Triton's tests pick one by
# is_interpreter()), with the message in `__cause__`; a launch whose checks fail (a failed
# device_assert, an out-of-bounds store) raises tilevm.KernelError, an InterpreterError too.
import pickle

import torch

import tilevm
import triton
import triton.language as tl
from triton._internal_testing import is_interpreter
from triton.runtime.errors import InterpreterError


def raised(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class is what is checked
        return e
    raise AssertionError("nothing raised")


# Triton's test_tma_load_block_shape_err and test_tma_store_block_shape_err.
@triton.jit
def load_narrow(ptr):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [1, 2])
    desc.load([0, 0])


@triton.jit
def store_narrow(ptr):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [8, 4])
    desc.store([0, 0], tl.zeros([8, 4], dtype=tl.int16))


assert is_interpreter()
errc = triton.CompilationError if not is_interpreter() else InterpreterError
for kernel, dtype, got in ((load_narrow, torch.int32, "2 * 4 = 8 bytes"), (store_narrow, torch.int16, "4 * 2 = 8 bytes")):
    e = raised(lambda: kernel[(1, )](torch.empty((128, 128), dtype=dtype)))
    assert isinstance(e, errc) and isinstance(e, triton.CompilationError), type(e)
    assert "Descriptor block shape must have at least 16 bytes" in str(e.__cause__), e.__cause__
    assert f"in the last dimension, but got {got}" in str(e), e
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is type(e) and str(again) == str(e)


@triton.jit
def strided_last(ptr):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [1, 128], [8, 8])
    desc.load([0, 0])


e = raised(lambda: strided_last[(1, )](torch.empty((128, 128), dtype=torch.int32)))
assert isinstance(e, InterpreterError) and "Tensor descriptor last dim must be 1 but got 128" in str(e.__cause__), e


# Errors at run time: a failed device_assert, a store past the end.
@triton.jit
def check_positive(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x > 0, "x must be positive")


@triton.jit
def overrun(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


x = torch.ones(16)
check_positive[(1, )](x, BLOCK=16)
x[3] = -1
for launch, words in ((lambda: check_positive[(1, )](x, BLOCK=16), "x must be positive"),
                      (lambda: overrun[(1, )](torch.ones(8), BLOCK=16), "past the end")):
    e = raised(launch)
    assert isinstance(e, tilevm.KernelError) and isinstance(e, InterpreterError), type(e)
    assert isinstance(e, RuntimeError) and isinstance(e, triton.TritonError)
    assert words in str(e) and words in e.report and str(e) == e.error_message, str(e)
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is tilevm.KernelError and again.report == e.report and again.kernel == e.kernel
print("interpreter errors: ok (descriptor checks, device_assert, overrun)")

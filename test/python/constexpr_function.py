# @triton.constexpr_function as Triton's tests and its triton_kernels library use it: plain Python
# run while the kernel compiles, on constexpr arguments (numbers, strings, dtypes, tuples and
# named tuples), its result a constexpr (a shape, a sum, a dtype). Against NumPy; then the located
# errors: an exception the function raises, a tensor given to it, a result tilevm cannot use.
from typing import NamedTuple

import numpy as np

import triton
import triton.language as tl


@triton.constexpr_function
def plus_one(x):
    return x + 1


@triton.constexpr_function
def make_shape(m, n):
    return (m, n)


@triton.constexpr_function
def add_dims(m, n):
    return m + n


@triton.constexpr_function
def passthrough(x):
    return x


@triton.constexpr_function
def accumulator_type(dtype):
    return tl.float32 if dtype.primitive_bitwidth < 32 else dtype


@triton.constexpr_function
def scaled(x, factor=2, name=""):
    return x * factor + len(name)


@triton.constexpr_function
def format_string(dtype: tl.dtype):  # triton_kernels' get_scaled_dot_format_string, in its style
    mapping = {tl.float16: "fp16", tl.bfloat16: "bf16", tl.float8e4nv: "e4m3", tl.float8e5: "e5m2"}
    return mapping[dtype]


@triton.constexpr_function
def element_of(pointer_dtype):
    return pointer_dtype.element_ty


@triton.constexpr_function
def no_arguments():
    return 3


class TrivialTuple(NamedTuple):
    foo: tl.constexpr


@triton.jit
def kernel(x_ptr, out_ptr, BLOCK: tl.constexpr, DT: tl.constexpr):
    N: tl.constexpr = plus_one(BLOCK)  # BLOCK + 1
    shape: tl.constexpr = make_shape(4, N)
    total: tl.constexpr = add_dims(shape[0], shape[1])  # BLOCK + 5
    tl.static_assert(passthrough(TrivialTuple(0)).foo == 0)
    tl.static_assert(scaled(3, factor=4, name="abc") == 15)
    tl.static_assert(format_string(DT) == "fp16" and no_arguments() == 3)
    tl.static_assert(element_of(x_ptr.dtype) == tl.float16)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(accumulator_type(DT))
    tl.store(out_ptr + offs, x + total)


BLOCK = 16
x = np.arange(BLOCK, dtype=np.float16)
out = np.zeros(BLOCK, np.float32)
kernel[(1,)](x, out, BLOCK=BLOCK, DT=tl.float16)
assert np.array_equal(out, x.astype(np.float32) + BLOCK + 5), out
assert plus_one(7) == 8 and make_shape(1, 2) == (1, 2)  # host code calls them as plain functions


def compile_error(k, *args):
    try:
        k[(1,)](*args)
    except triton.CompilationError as e:
        return str(e)
    raise AssertionError("no CompilationError")


@triton.constexpr_function
def refuses(x):
    raise ValueError(f"no shape for {x}")


@triton.constexpr_function
def opaque(x):
    return object()


@triton.jit
def raises(out_ptr):
    n: tl.constexpr = refuses(3)
    tl.store(out_ptr, n)


@triton.jit
def given_tensor(out_ptr):
    tl.store(out_ptr, plus_one(tl.load(out_ptr)))


@triton.jit
def unusable(out_ptr):
    tl.store(out_ptr, opaque(1))


one = np.zeros(1, np.int32)
e = compile_error(raises, one)
assert "constexpr function refuses: Python raised ValueError: no shape for 3" in e and "constexpr_function.py:" in e, e
e = compile_error(given_tensor, one)
assert "constexpr function plus_one takes compile-time values" in e and "int32 scalar" in e, e
e = compile_error(unusable, one)
assert "constexpr function opaque: it returned object object, which is not a compile-time value" in e, e
print("constexpr_function: ok (shapes, sums, dtypes, named tuples and keywords from Python at compile time; errors located)")

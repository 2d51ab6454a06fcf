# Launch options and argument binding of the Python front door: options checked by the CLI's
# checker (ValueError, the CLI's message), NumPy and u64 scalars as scalars, CPython's own
# TypeError for a bad call, read-only arrays refused where the kernel may store, benign races as
# notes (errors under strict), launches from 16 Python threads at once.
import os
import tempfile
import threading

import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def store_scalar(out_ptr, v):
    tl.store(out_ptr, v)


@triton.jit
def string_switch(out_ptr, MODE: tl.constexpr):
    if MODE == "nan":
        tl.store(out_ptr, 1)
    elif MODE == "":
        tl.store(out_ptr, 2)
    elif MODE == "1e3":
        tl.store(out_ptr, 3)
    else:
        tl.store(out_ptr, 4)


def expect(exc_type, message, fn):
    try:
        fn()
    except exc_type as e:
        assert str(e) == message, f"{exc_type.__name__}: got {str(e)!r}, expected {message!r}"
        return
    raise AssertionError(f"no {exc_type.__name__}: {message}")


n = 1000
x = np.arange(n, dtype=np.float32)
y = np.ones(n, dtype=np.float32)
out = np.zeros(n, dtype=np.float32)


def add(**meta):
    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256, **meta)


# Options: a bad one is a ValueError carrying the message `tilevm run` prints for its flag.
bad_options = {
    "threads": (65537, "--threads 65537: expected an integer from 0 to 1024 (worker threads, 0 for all cores; see docs/limits.md)"),
    "schedule": ("bogus", "--schedule bogus: expected parallel, serial, reverse or random:SEED (SEED an integer from 0 to 18446744073709551615)"),
    "fuel": (-1, "--fuel -1: expected an integer from 1 to 18446744073709551615 (loop iterations a program may run)"),
    "timeout": (float("nan"), "--timeout nan: expected a number from 0 to 10000000 (seconds, 0 for none)"),
    "check": ("bogus", "--check bogus: expected all, none, or a list of bounds, races, uninit"),
    "device": ("gpu", "--device gpu: expected cpu, cuda or cuda:N (N from 0 to 1023)"),
}
bad_options["threads_bool"] = (True, "--threads True: expected an integer from 0 to 1024 (worker threads, 0 for all cores; see docs/limits.md)")
for key, (value, message) in bad_options.items():
    name = key.split("_")[0]
    saved = tilevm.options[name]
    tilevm.options[name] = value
    try:
        expect(ValueError, message, add)
    finally:
        tilevm.options[name] = saved
for schedule in ("random:abc", "random:-1", "random:"):
    expect(ValueError, f"--schedule {schedule}: expected parallel, serial, reverse or random:SEED (SEED an integer from 0 to 18446744073709551615)",
           lambda: tilevm._tilevm.check_options({"schedule": schedule}))
expect(AssertionError, "num_warps must be a power of 2", lambda: add(num_warps=3))  # Triton's class and words
expect(ValueError, "--num-warps 64: expected a power of two from 1 to 32", lambda: add(num_warps=64))
expect(ValueError, "--grid 0,1,1: expected X[,Y[,Z]] with positive integers; each dimension must be at most 2147483647 "
       "(program_id is int32), and at most 4294967295 programs in a launch (see docs/limits.md)",
       lambda: add_kernel[(0,)](x, y, out, n, BLOCK=256))
tilevm.options["schedule"] = "random:7"
add()
assert tilevm.last_launch["programs"] == 4
np.testing.assert_array_equal(out, x + y)
tilevm.options["schedule"] = "parallel"

# NumPy scalars are scalars of their dtype (np.int64(7) used to be a pointer to its own memory);
# Python ints past INT64_MAX are u64 (they used to fail in pybind11's cast).
for value, dtype in [(np.int64(7), np.int64), (np.int32(-5), np.int32), (np.float32(1.5), np.float32),
                     (np.float64(0.1), np.float64), (np.uint64(2**63 + 5), np.uint64), (2**63 + 5, np.uint64),
                     (2**64 - 1, np.uint64), (-2**63, np.int64), (np.bool_(True), np.bool_), (np.uint8(200), np.uint8)]:
    cell = np.zeros(1, dtype=dtype)
    store_scalar[(1,)](cell, value)
    assert cell[0] == value and cell.dtype == dtype, (value, cell)
expect(OverflowError, "integer argument 18446744073709551616 does not fit 64 bits", lambda: store_scalar[(1,)](np.zeros(1, np.uint64), 2**64))

# A bad call raises CPython's own TypeError (extra arguments used to be dropped, and an argument
# given twice took the keyword).
def add_kernel_py(x_ptr, y_ptr, out_ptr, n, BLOCK):
    pass


def cpython_message(*args, **kwargs):
    try:
        add_kernel_py(*args, **kwargs)
    except TypeError as e:
        return str(e).replace("add_kernel_py", "add_kernel")
    raise AssertionError("no TypeError")


for args, kwargs in [((x, y, out, n, 256, 5), {}), ((x, y, out, n), {"BLOCK": 256, "x_ptr": x}), ((x, y), {"BLOCK": 256}),
                     ((), {"BLOCK": 256})]:
    expect(TypeError, cpython_message(*args, **kwargs), lambda: add_kernel[(4,)](*args, **kwargs))
assert "takes 5 positional arguments but 6 were given" in cpython_message(x, y, out, n, 256, 5)
assert "got multiple values for argument 'x_ptr'" in cpython_message(x, y, out, n, BLOCK=256, x_ptr=x)

# Read-only arrays: refused, the argument named, where the kernel may store through them (a
# read-only memory map used to crash with SIGSEGV; setflags(write=False) and np.frombuffer of
# bytes were written silently); accepted where it only loads.
frozen = np.zeros(n, dtype=np.float32)
frozen.setflags(write=False)
message = "argument 'out_ptr': the array is read-only and the kernel may store through 'out_ptr' (pass a writable copy, e.g. numpy.array(out_ptr))"
expect(ValueError, message, lambda: add_kernel[(4,)](x, y, frozen, n, BLOCK=256))
assert not frozen.any()
from_bytes = np.frombuffer(bytes(4 * n), dtype=np.float32)
expect(ValueError, message, lambda: add_kernel[(4,)](x, y, from_bytes, n, BLOCK=256))
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "a.npy")
    np.save(path, np.zeros(n, dtype=np.float32))
    mapped = np.load(path, mmap_mode="r")
    expect(ValueError, message, lambda: add_kernel[(4,)](x, y, mapped, n, BLOCK=256))
    out[:] = 0
    add_kernel[(4,)](mapped, np.frombuffer(y.tobytes(), dtype=np.float32), out, n, BLOCK=256)  # loads only: fine
    np.testing.assert_array_equal(out, y)
    del mapped

# Benign races (every program writes the same value, as Triton's tests do) are notes, kept in
# last_launch; strict=True makes them errors.
@triton.jit
def same_value(out_ptr):
    tl.store(out_ptr, 7)


cell = np.zeros(1, dtype=np.int32)
same_value[(4,)](cell)
assert cell[0] == 7 and tilevm.last_launch["findings"] == 0 and tilevm.last_launch["notes"] == 1, tilevm.last_launch
assert "note: data-race" in tilevm.last_launch["report"], tilevm.last_launch["report"]
tilevm.options["strict"] = True
try:
    same_value[(4,)](cell)
    raise AssertionError("strict=True: no KernelError for a benign race")
except tilevm.KernelError as e:
    assert "data-race" in e.report and "note:" not in e.report, e.report
tilevm.options["strict"] = "yes"
expect(ValueError, "strict='yes': expected True or False", lambda: same_value[(4,)](cell))
tilevm.options["strict"] = False

# String constexprs stay strings: "nan" and "1e3" are not numbers, "" is a string.
flag = np.zeros(1, dtype=np.int32)
for mode, want in (("nan", 1), ("", 2), ("1e3", 3), ("8c6f3b2e-uuid", 4)):
    string_switch[(1,)](flag, MODE=mode)
    assert flag[0] == want, (mode, flag[0])

# 16 Python threads launching at once (the GIL is released during each launch).
errors = []


def worker(i):
    try:
        a = np.full(n, float(i), dtype=np.float32)
        o = np.zeros(n, dtype=np.float32)
        for _ in range(5):
            add_kernel[(4,)](a, y, o, n, BLOCK=256)
            np.testing.assert_array_equal(o, a + 1)
    except Exception as e:  # reported below
        errors.append(e)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
print("launch_binding: ok")

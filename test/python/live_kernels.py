# Kernels compiled from the live function, as Triton's JIT compiles them: defined inside
# functions, built by exec() from a rewritten template, with module constants Python computed
# at import, helpers from another module, and names the kernel cannot use reported where used.
import math
import os
import sys

import numpy as np

import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "modules"))
import live_helpers as lh  # noqa: E402
import lazy_consts  # noqa: E402

NEG_INF = float("-inf")
HALF = np.float32(0.25) * 2          # a NumPy scalar computed at import: 0.5
TWICE = int(math.sqrt(16)) // 2      # a helper call: 2
FILL = tl.constexpr(7)
DT = tl.float32


def _computed():
    return 40 + 2


ANSWER = _computed()
N = 64


@triton.jit
def kernel(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.full((BLOCK,), 1.0, tl.float32))


def run(k, *extra):
    out = np.zeros(N, dtype=np.float32)
    k[(1,)](out, *extra, BLOCK=N)
    return out


# A kernel defined inside a function, named like the module-level one: each runs its own.
def nested_a():
    @triton.jit
    def kernel(out_ptr, BLOCK: tl.constexpr):
        o = tl.arange(0, BLOCK)
        tl.store(out_ptr + o, tl.full((BLOCK,), 2.0, tl.float32))
    return kernel


def nested_b(bias):
    # A closure: `bias` and the nested helper come from the enclosing function.
    @triton.jit
    def helper(x):
        return x + bias

    @triton.jit
    def kernel(out_ptr, BLOCK: tl.constexpr):
        o = tl.arange(0, BLOCK)
        tl.store(out_ptr + o, helper(tl.full((BLOCK,), 3.0, tl.float32)))
    return kernel


assert (run(kernel) == 1.0).all()
assert (run(nested_a()) == 2.0).all()
assert (run(nested_b(10)) == 13.0).all()
assert (run(nested_b(20)) == 23.0).all()  # the other closure's value: a kernel of its own

# Constants Python computed at import, the dtype and constexpr globals.
@triton.jit
def constants(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.full((BLOCK,), ANSWER, DT) * HALF + TWICE + FILL   # 21 + 2 + 7 = 30
    m = tl.maximum(tl.full((BLOCK,), NEG_INF, DT), x)
    tl.store(out_ptr + o, m)


assert (run(constants) == 30.0).all(), run(constants)

# A helper @triton.jit function and a constant from another module, imported with an alias.
@triton.jit
def uses_module(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, lh.scale_shift(tl.full((BLOCK,), 2.0, tl.float32)) + lh.SCALE)


assert (run(uses_module) == 2.0 * 3.0 + 0.5 + 3.0).all()


# libdevice, imported as Triton's programs import it, is the frontend's.
@triton.jit
def uses_libdevice(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.full((BLOCK,), 3.0, tl.float32)
    tl.store(out_ptr + o, libdevice.pow(x, 2.0) + cuda_libdevice.pow(x, 1.0))


assert (run(uses_libdevice) == 12.0).all()


# A module answering every attribute through __getattr__ is still a module, not a JIT function.
@triton.jit
def uses_lazy(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.full((BLOCK,), lazy_consts.ANYTHING, tl.float32))


assert (run(uses_lazy) == 5.0).all()

# exec-built kernels from a template, as Triton's tests' patch_kernel builds them: the source
# rewritten, then exec'd in the template's globals (no file holds the new text).
TEMPLATE = '''
@triton.jit
def templated(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.full((BLOCK,), VALUE, tl.float32))
'''


def patch_kernel(template, to_replace):
    src = template
    for k, v in to_replace.items():
        src = src.replace(k, v)
    namespace = {}
    exec(src, globals(), namespace)
    return namespace["templated"]


assert (run(patch_kernel(TEMPLATE, {"VALUE": "4.0"})) == 4.0).all()
assert (run(patch_kernel(TEMPLATE, {"VALUE": "ANSWER + 1"})) == 43.0).all()

# exec() of a string no frame keeps: no source to compile, Triton's ValueError at decoration.
try:
    exec("@triton.jit\ndef lost(x):\n    pass\n", globals(), {})
except ValueError as e:
    assert str(e).startswith("@jit functions should be defined in a Python file"), str(e)
else:
    raise AssertionError("a kernel without source was accepted")

# The other way patch_kernel rewrites a kernel: its `src`, then the next launch compiles that.
k = nested_a()
assert (run(k) == 2.0).all()
k.src = k.src.replace("2.0", "5.0")
assert (run(k) == 5.0).all()
k._unsafe_update_src(k.src.replace("5.0", "6.0"))
assert (run(k) == 6.0).all()

# A name the kernel uses that holds no value a kernel can use: an error at the line of its use.
TABLE = np.arange(4)


def not_jit(x):
    return x


@triton.jit
def bad_global(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, TABLE)  # the line the error names


@triton.jit
def bad_call(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, not_jit(o))


def line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


for fn, text, what in ((bad_global, "TABLE)", "'TABLE' is a numpy.ndarray"),
                       (bad_call, "not_jit(o)", "'not_jit' is a Python function (not_jit), not a @triton.jit function")):
    try:
        run(fn)
    except triton.CompilationError as e:  # Triton's class for a kernel that does not compile
        where = f"{os.path.abspath(__file__)}:{line_of(fn, text)}:"
        assert str(e).startswith(where) and what in str(e), (where, what, str(e))
    else:
        raise AssertionError(f"{fn.__name__} compiled")

# A global rebound after the kernel compiled: Triton's RuntimeError, not the old value.
@triton.jit
def reads_global(out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.full((BLOCK,), ANSWER, tl.float32))


assert (run(reads_global) == 42.0).all()
ANSWER = 41
try:
    run(reads_global)
except RuntimeError as e:
    assert str(e) == "Global variable ANSWER has changed since we compiled this kernel, from 42 to 41", str(e)
else:
    raise AssertionError("a rebound global went unnoticed")
ANSWER = 42
assert (run(reads_global) == 42.0).all()


# A parameter or local named like a global is not the global: rebinding the global is no change.
@triton.jit
def shadows(out_ptr, N, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    TWICE = 3
    tl.store(out_ptr + o, tl.full((BLOCK,), N + TWICE, tl.float32))


out = np.zeros(N, dtype=np.float32)
shadows[(1,)](out, N, BLOCK=N)
assert (out == N + 3).all()
N, TWICE = 32, 5
shadows[(1,)](out, N, BLOCK=N)
assert (out[:32] == 35).all()
N, TWICE = 64, 2

# A warm launch resolves and parses nothing; new constexprs compile again without parsing.
import tilevm
from tilevm import source_unit
builds = []
real_build = source_unit.build
source_unit.build = lambda fn: builds.append(fn) or real_build(fn)
fresh = nested_b(1)
parsed = tilevm._tilevm.files_parsed()
assert (run(fresh) == 4.0).all()
assert len(builds) == 1 and tilevm._tilevm.files_parsed() - parsed == 2, (builds, tilevm._tilevm.files_parsed() - parsed)
assert (run(fresh) == 4.0).all()
out = np.zeros(N // 2, dtype=np.float32)
fresh[(1,)](out, BLOCK=N // 2)
assert (out == 4.0).all()
assert len(builds) == 1 and tilevm._tilevm.files_parsed() - parsed == 2  # the kernel's and helper's text, once
source_unit.build = real_build

# Triton's functions bound to other names at import are what they name.
my_cdiv = triton.cdiv
from triton import cdiv as imported_cdiv  # noqa: E402


@triton.jit
def aliased(o, n):
    tl.store(o, my_cdiv(n, 4) * 10 + imported_cdiv(n, 8))


o = np.zeros(1, dtype=np.int32)
aliased[(1,)](o, 10)
assert o[0] == 32, o

print("live_kernels: ok")

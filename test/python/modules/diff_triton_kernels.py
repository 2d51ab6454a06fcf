"""Kernels for diff_triton_core.py, held by a stand-in of real Triton's JITFunction (the
attributes tilevm reads of it: fn, src, params, def_file_line_number, def_file_col_number); a
module with nothing else at its top level, so a fixture's replay can load it."""
import inspect
import textwrap

import triton.language as tl


class KernelParam:
    """Real Triton's KernelParam, as far as tilevm reads it."""

    def __init__(self, p):
        self.name = p.name
        self.is_constexpr = "constexpr" in str(p.annotation)


class JITFunction:
    """Real Triton's JITFunction, as far as tilevm reads it (not tilevm's: no _tilevm_jit)."""

    def __init__(self, fn):
        self.fn = fn
        raw, start = inspect.getsourcelines(fn)
        skipped = next(i for i, l in enumerate(raw) if l.strip().startswith("def "))
        self.def_file_line_number = start + skipped
        self.def_file_col_number = len(raw[skipped]) - len(raw[skipped].lstrip()) + 1
        self.src = textwrap.dedent("".join(raw[skipped:]))
        self.params = [KernelParam(p) for p in inspect.signature(fn).parameters.values()]
        self.__name__, self.__module__ = fn.__name__, fn.__module__

    def __call__(self, *args, **kwargs):
        raise RuntimeError("a @jit function is launched as fn[grid](...)")

    # What stands for the GPU (diff_triton_hook.py sets it): device(jit, args, grid, kwargs).
    device = None

    def run(self, *args, grid, warmup, **kwargs):
        return JITFunction.device(self, args, grid, kwargs)

    def __getitem__(self, grid):  # as Triton's KernelInterface
        return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)


def jit(fn):
    return JITFunction(fn)


@jit
def scale(x):
    return x * 2.0


@jit
def axpy2d(x_ptr, y_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask)
    y = tl.load(y_ptr + row * stride + cols, mask=mask)
    tl.store(out_ptr + row * stride + cols, scale(x) + y, mask=mask)


@jit
def mad_int(a_ptr, b_ptr, out_ptr, n, K: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * b + K, mask=mask)


@jit
def unmasked(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


@jit
def refused(x_ptr):
    tl.store(x_ptr, no_such_function(tl.load(x_ptr)))  # noqa: F821 (a located error of tilevm's)


@jit
def high_bit(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) | 0x80000000)


@jit
def count_up(out_ptr, n):
    acc = 0
    for i in range(n):
        acc += 1
    tl.store(out_ptr, acc)


@jit
def printer(x_ptr):
    tl.device_print("x", tl.load(x_ptr))


@jit
def row_sums(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@jit
def locked_total(x_ptr, total_ptr, lock_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + offs), axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(total_ptr, tl.load(total_ptr) + s)
    tl.atomic_xchg(lock_ptr, 0)


@jit
def exp_dot(x_ptr, v_ptr, out_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    offs = r[:, None] * N + r[None, :]
    p = tl.exp(tl.load(x_ptr + offs))
    tl.store(out_ptr + offs, tl.dot(p.to(tl.float16), tl.load(v_ptr + offs)))  # p rounded to f16 for the dot

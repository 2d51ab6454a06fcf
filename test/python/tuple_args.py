# Tuples as runtime kernel arguments, as Triton passes them: nested tuples of arrays, numbers,
# None and tl.constexpr values, and named tuples whose fields the kernel reads by name; each
# element checked as an argument (bounds of an array inside a tuple included). Named tuples made
# in a kernel, @triton.jit functions as arguments (alone and inside a tuple), and f(*t).
from typing import NamedTuple

import numpy as np

import tilevm
import triton
import triton.language as tl


class Strided(NamedTuple):
    ptr: object
    n: int
    stride: int


@triton.jit
def gather_k(out, pair, nested, BLOCK: tl.constexpr):
    a, b = pair
    offs = tl.arange(0, BLOCK)
    tl.static_assert(nested[1][1] is None)
    tl.static_assert(nested[1][2] == 4)
    x = tl.load(a + offs) * nested[0] + tl.load(b + offs)
    tl.store(out + offs, x + tl.load(nested[1][0] + offs) * nested[1][2])


@triton.jit
def strided_k(out, src, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src.ptr + offs * src.stride, mask=offs < src.n, other=0.0)
    tl.store(out + offs, x + src[1])


rng = np.random.default_rng()
B = 64
a, b, c = (rng.standard_normal(B).astype(np.float32) for _ in range(3))
for scale in (3, 1):  # 1 as well: Triton's specialization of ints equal to 1 must not change the tuple
    out = np.empty(B, np.float32)
    gather_k[(1, )](out, (a, b), (scale, (c, None, tl.constexpr(4))), BLOCK=B)
    want = a.astype(np.float64) * scale + b + c.astype(np.float64) * 4
    assert np.allclose(out, want, rtol=1e-6, atol=1e-6), np.abs(out - want).max()

src = rng.standard_normal(3 * B).astype(np.float32)
out = np.empty(B, np.float32)
strided_k[(1, )](out, Strided(src, 50, 3), BLOCK=B)
want = np.where(np.arange(B) < 50, src[::3], 0.0) + 50
assert np.allclose(out, want, rtol=1e-6, atol=1e-6)

# An array inside a tuple is bounds-checked like any argument: n past the array is a finding.
try:
    strided_k[(1, )](out, Strided(src[:40].copy(), 50, 1), BLOCK=B)
except tilevm.KernelError as e:
    assert "out of bounds" in str(e) and "src.0_ptr" in str(e), str(e)
else:
    raise AssertionError("a load past an array inside a tuple argument must be reported")


class Op(NamedTuple):
    fn: object
    captured: tuple


@triton.jit
def scale(x, a, b):
    return x * a + b


@triton.jit
def shift(x, a, b):
    return x + a - b


@triton.jit
def make(ptr, n):
    return Strided(stride=1, ptr=ptr, n=n)


@triton.jit
def apply_k(out, src, op, f, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    view = make(src, BLOCK)
    x = tl.load(view.ptr + offs * view.stride)
    y = op.fn(x, *op.captured)
    tl.store(out + offs, f(y, view.n, 0.0))


x = rng.standard_normal(B).astype(np.float32)
for fn, ref in ((scale, lambda v: v * 2.0 + 1.0), (shift, lambda v: v + 2.0 - 1.0)):
    for outer, outer_ref in ((scale, lambda v: v * B), (shift, lambda v: v + B)):
        out = np.empty(B, np.float32)
        apply_k[(1, )](out, x, Op(fn, (2.0, 1.0)), outer, BLOCK=B)
        want = outer_ref(ref(x.astype(np.float64)))
        assert np.allclose(out, want, rtol=1e-6, atol=1e-5), (fn, outer, np.abs(out - want).max())


@triton.jit
def bad_make(ptr):
    return Strided(ptr, 1, 2, 3)


@triton.jit
def bad_k(out):
    t = bad_make(out)
    tl.store(t.ptr, 1.0)


try:
    bad_k[(1, )](np.zeros(1, np.float32))
    raise AssertionError("a named tuple of too many fields was accepted")
except triton.CompilationError as e:
    assert "Strided() takes 3 arguments but 4 were given" in str(e), e
print("tuple_args: nested and named tuple arguments, named tuples made in a kernel and function arguments agree "
      "with NumPy; arrays inside tuples are bounds-checked")

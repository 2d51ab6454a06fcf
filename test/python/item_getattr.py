# tensor.item(), getattr/hasattr on compile-time objects, tl.PropagateNan and an `if` on a
# one-element tile, as Triton's test_core.py uses them, against NumPy on fresh inputs.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def item_kernel(X, Out, dtype: tl.constexpr):
    v = tl.load(X + tl.arange(0, 1)).item()  # a scalar: it broadcasts as one
    w = tl.reshape(tl.load(X + 1 + tl.arange(0, 1)), (1, 1)).item()
    p = (X + 2 + tl.arange(0, 1)).item()  # a pointer element
    tl.static_assert(len(v.shape) == 0 and len(w.shape) == 0 and len(p.shape) == 0)
    tl.store(Out + tl.arange(0, 4), tl.full((4,), 0, dtype) + v * 100 + w * 10 + tl.load(p))
    tl.atomic_cas(Out + 4, tl.full((1,), 0, dtype).item(), tl.full((1,), 7, dtype).item())


@triton.jit
def nan_kernel(A, B, C, func: tl.constexpr, mode: tl.constexpr):
    tl.store(C, getattr(tl, func)(tl.load(A), tl.load(B), propagate_nan=getattr(tl.PropagateNan, mode)))


@triton.jit
def has_kernel(x, Out, k, K: tl.constexpr = None):
    r = 0
    if (x is not None) and hasattr(x, "dtype") and isinstance(x.dtype, tl.pointer_type) and (tl.load(x) > 42):
        r = 1
    tl.store(Out, r + 10 * hasattr(k, "dtype") + 100 * hasattr(tl, "sum") + 1000 * hasattr(tl, "no_such_fn") +
             10000 * (getattr(tl.float16, "primitive_bitwidth") == 16) + 100000 * getattr(Out, "no_attr", 2) +
             1000000 * hasattr(K, "dtype") + 2000000 * hasattr(K, "no_attr"))


@triton.jit
def if_one(x):
    condition = tl.load(x + tl.arange(0, 1)) > 42  # tile<1xi1>: the if tests its element
    if condition:
        tl.store(x, 42)


rng = np.random.default_rng()
checked = 0
for np_dtype, tl_dtype in [(np.int32, tl.int32), (np.int64, tl.int64), (np.float32, tl.float32)]:
    x = rng.integers(-9, 10, 3).astype(np_dtype)
    out = np.zeros(5, dtype=np_dtype)
    item_kernel[(1,)](x, out, tl_dtype)
    assert (out[:4] == x[0] * 100 + x[1] * 10 + x[2]).all() and out[4] == 7, (out, x)
    checked += 1
for func in ("minimum", "maximum"):
    for mode in ("NONE", "ALL"):
        for a, b in [(np.nan, 1.5), (2.5, np.nan), (-1.0, 3.0)]:
            A, B, C = np.array([a], np.float32), np.array([b], np.float32), np.zeros(1, np.float32)
            nan_kernel[(1,)](A, B, C, func, mode)
            if mode == "ALL" and (np.isnan(a) or np.isnan(b)):
                assert np.isnan(C[0]), (func, mode, a, b)
            else:
                want = (np.fmin if func == "minimum" else np.fmax)(A, B)[0]
                assert C[0] == want, (func, mode, a, b, C[0])
            checked += 1
for v, want_r in [(37, 0), (84, 1)]:
    x, out = np.array([v], np.int32), np.zeros(1, np.int32)
    has_kernel[(1,)](x, out, x)
    assert out[0] == want_r + 10 + 100 + 0 + 10000 + 200000, out
    out[0] = 0
    has_kernel[(1,)](None, out, 5)  # None short-circuits; 5 is an int32 scalar, with a dtype
    assert out[0] == 10 + 100 + 10000 + 200000, out
    out[0] = 0
    has_kernel[(1,)](None, out, 5.0, K=3)  # a Python number (a constexpr) has no dtype
    assert out[0] == 10 + 100 + 10000 + 200000, out
    checked += 2
for v in rng.integers(0, 100, 8):
    x = np.array([v], np.int32)
    if_one[(1,)](x)
    assert x[0] == (42 if v > 42 else v)
    checked += 1
print(f"item_getattr: {checked} kernels agree with NumPy")

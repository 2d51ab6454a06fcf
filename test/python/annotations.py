# Parameter annotations as Triton reads them: a runtime parameter annotated with a dtype
# (`n: tl.int64`, `tl.float16`, the name as a string, or set on __annotations__ by a decorator)
# takes that type, its Python value converted to it; a value that does not fit is an error, and
# annotations that are not dtypes (torch.Tensor, int) change nothing, as in Triton. (Under
# `from __future__ import annotations` a quoted annotation is a string of a string, which
# Triton's _normalize_ty does not read as a dtype: nor does tilevm.)
import numpy as np

import triton
import triton.language as tl


@triton.jit
def typed(out_ptr, n: tl.int64, u: "tl.uint8", h: tl.float16, b: triton.language.bfloat16, plain: int):
    tl.static_assert(n.dtype == tl.int64 and u.dtype == tl.uint8)
    tl.static_assert(h.dtype == tl.float16 and b.dtype == tl.bfloat16 and plain.dtype == tl.int32)
    tl.store(out_ptr + 0, (n * 2**20).to(tl.float64))  # past int32: computed in int64
    tl.store(out_ptr + 1, (u + 1).to(tl.float64))  # uint8 arithmetic wraps: 255 + 1 == 0
    tl.store(out_ptr + 2, h.to(tl.float64))
    tl.store(out_ptr + 3, b.to(tl.float64))
    tl.store(out_ptr + 4, plain.to(tl.float64))


def set_annotations(**types):
    def decorate(fn):
        fn.__annotations__ = dict(types)
        return fn
    return decorate


@triton.jit
@set_annotations(v="tl.int16")
def decorated(out_ptr, v):
    tl.static_assert(v.dtype == tl.int16)
    tl.store(out_ptr, v.to(tl.float64))


out = np.zeros(5, np.float64)
typed[(1, )](out, 3 * 2**20, 255, 0.1, 0.1, 7)
assert out[0] == 3 * 2**40 and out[1] == 0 and out[4] == 7, out
assert out[2] == float(np.float16(0.1)), out  # one rounding, from the Python float
assert out[3] == 0.10009765625, out  # bfloat16(0.1)
decorated[(1, )](out, -300)
assert out[0] == -300, out
for args, words in [((out, 1, 256, 0.0, 0.0, 0), "does not fit the parameter's annotated type u8"),
                    ((out, 1.5, 1, 0.0, 0.0, 0), "is not an integer, but the parameter is annotated i64")]:
    try:
        typed[(1, )](*args)
        raise AssertionError("no error")
    except (OverflowError, TypeError) as e:
        assert words in str(e), str(e)
print("annotations: ok (dtype annotations type their parameters; values converted and checked)")

# Triton's debug mode from Python, the three ways programs turn it on (a launch's debug=True,
# @triton.jit(debug=True), knobs.runtime.debug / TRITON_DEBUG): integer +, - and * that overflow
# their type fail as Triton's device-side assert, in Triton's words; outside debug mode they wrap
# as two's complement. sanitize_overflow=False and Philox's own wrapping stay quiet; a
# device_assert of a constant condition honours its mask.
import numpy as np

import triton
import triton.language as tl
from triton import knobs


@triton.jit
def scale_offsets(x_ptr, out_ptr, stride, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.load(x_ptr + i) * stride + tl.program_id(0))


@triton.jit(debug=True)
def scale_debug(x_ptr, out_ptr, stride, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.load(x_ptr + i) * stride + tl.program_id(0))


@triton.jit
def wrapping(x_ptr, out_ptr, stride, seed, N: tl.constexpr):
    i = tl.arange(0, N)
    v = tl.mul(tl.load(x_ptr + i), stride, sanitize_overflow=False)
    tl.store(out_ptr + i, v + (tl.rand(seed, i) * 0).to(tl.int32))


@triton.jit
def constant_assert(out_ptr, MASK: tl.constexpr):
    tl.device_assert(False, "reached", mask=MASK)
    tl.store(out_ptr, 1)


def fails(run):
    try:
        run()
    except RuntimeError as e:
        return str(e)
    raise AssertionError("no RuntimeError")


N = 16
x = np.arange(N, dtype=np.int32) * 100_000_000  # times 3 passes 2^31 from the 8th element
out = np.zeros(N, np.int32)
wrapped = (x.astype(np.int64) * 3 + 0).astype(np.int32)  # two's complement, as the GPU computes

scale_offsets[(1, )](x, out, 3, N=N)
assert np.array_equal(out, wrapped), "outside debug mode integers wrap"
for name, run in [("launch", lambda: scale_offsets[(1, )](x, out, 3, N=N, debug=True)),
                  ("jit", lambda: scale_debug[(1, )](x, out, 3, N=N))]:
    e = fails(run)
    assert "device-side assert failed: int32 overflow detected for operation mul" in e, (name, e)
    assert "debug_overflow.py:" in e, (name, e)

knobs.runtime.debug = True
try:
    e = fails(lambda: scale_offsets[(1, )](x, out, 3, N=N))
    assert "int32 overflow detected for operation mul" in e, e
    scale_offsets[(1, )](x, out, 3, N=N, debug=False)  # the launch's word wins
    wrapping[(1, )](x, out, 3, 42, N=N)
    assert np.array_equal(out, wrapped), "sanitize_overflow=False wraps in debug mode too"
finally:
    knobs.runtime.debug = knobs.env

constant_assert[(1, )](out, MASK=False)
e = fails(lambda: constant_assert[(1, )](out, MASK=True))
assert "device-side assert failed: reached" in e, e
print("debug_overflow: ok (launch, jit and knob debug modes; wrapping outside them; masked constant asserts)")

# Float atomic_max / atomic_min as Triton defines them (semantic.py): a signed integer max (min)
# of the bits where the value's sign bit is clear, an unsigned min (max) where it is set. In the
# style of Triton's test_atomic_rmw: programs race to one element with fresh random values
# (negative, positive, signed zeros), checked against NumPy, the old values returned too.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def minmax(X, Z_MAX, Z_MIN, OLD, SEM: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(OLD + offs, tl.atomic_max(Z_MAX + tl.arange(0, BLOCK), x, sem=SEM))
    tl.atomic_min(Z_MIN + tl.arange(0, BLOCK), x, mask=x == x, sem=SEM)


rng = np.random.default_rng()
BLOCK, programs = 16, 8
for dtype in (np.float32, np.float64):
    for sem in ("acq_rel", "relaxed"):
        x = rng.standard_normal(BLOCK * programs).astype(dtype)
        x[:4] = [0.0, -0.0, -0.0, 0.0]  # signed zeros meet
        start = rng.standard_normal(BLOCK).astype(dtype)
        z_max, z_min, old = start.copy(), start.copy(), np.zeros_like(x)
        minmax[(programs, )](x, z_max, z_min, old, SEM=sem, BLOCK=BLOCK)
        cols = np.concatenate([start[None, :], x.reshape(programs, BLOCK)])
        assert np.array_equal(z_max, cols.max(axis=0)), (z_max, cols.max(axis=0))
        assert np.array_equal(z_min, cols.min(axis=0)), (z_min, cols.min(axis=0))
        # Each returned old value is what the column held before: never above the final max, and
        # at least the start value.
        olds = old.reshape(programs, BLOCK)
        assert np.all(olds <= z_max) and np.all(olds >= start), olds
print("atomic_float_minmax: f32 and f64 max/min agree with NumPy")

# Signed zeros: max(+0.0, -0.0) is +0.0 and min is -0.0 whichever arrives first.
for first, second in ((0.0, -0.0), (-0.0, 0.0)):
    x = np.array([second] * BLOCK, np.float32)
    z_max = np.full(BLOCK, first, np.float32)
    z_min = z_max.copy()
    minmax[(1, )](x, z_max, z_min, np.zeros_like(x), SEM="acq_rel", BLOCK=BLOCK)
    assert not np.any(np.signbit(z_max)) and np.all(np.signbit(z_min)), (first, second, z_max, z_min)
print("atomic_float_minmax: +0.0 is the max and -0.0 the min of the signed zeros")

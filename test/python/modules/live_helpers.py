"""A user's helper module for live_kernels.py: a constant and a @triton.jit helper that uses a
constant of its own module (resolved in this module's globals, not the caller's)."""
import triton
import triton.language as tl

SCALE = 3.0
_OFFSET = 0.5


@triton.jit
def scale_shift(x):
    return x * SCALE + _OFFSET

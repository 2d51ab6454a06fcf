# A kernel in a package's __init__.py, using a sibling module of the parent package.
import triton
import triton.language as tl

from ..combiners import add_combine


@triton.jit
def prefix_total_kernel(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y, tl.reduce(x, 0, add_combine))

# RUN: -k prefix_total_kernel -D N=128 --grid 1
# ARGS: X=randn:f32:128 Y=empty:f32:1
# REF: Y = np.array([X.sum()])
# EXPECT: Y
# TOL: 1e-5 1e-5

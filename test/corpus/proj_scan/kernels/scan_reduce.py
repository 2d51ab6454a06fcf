# Scans and reductions whose combiners live in another module of the package.
import triton
import triton.language as tl

from .. import combiners
from ..combiners import max_with_index


@triton.jit
def row_cumsum_kernel(X, Y, N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(X + row * N + cols)
    tl.store(Y + row * N + cols, tl.associative_scan(x, 0, combiners.add_combine))


@triton.jit
def row_argmax_kernel(X, V, I, N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(X + row * N + cols)
    v, i = tl.reduce((x, cols), 0, max_with_index)
    tl.store(V + row, v)
    tl.store(I + row, i)

# RUN: -k row_cumsum_kernel -D N=64 --grid 5
# ARGS: X=randn:f32:5x64 Y=empty:f32:5x64
# REF: Y = np.cumsum(X, axis=1)
# EXPECT: Y
# TOL: 1e-5 1e-5
# RUN: -k row_argmax_kernel -D N=64 --grid 5
# ARGS: X=randn:f32:5x64 V=empty:f32:5 I=empty:i32:5
# REF: V = X.max(axis=1); I = X.argmax(axis=1)
# EXPECT: V I

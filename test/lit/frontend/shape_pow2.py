# RUN: not %tilevm run %s -k non_pow2 --arg X=zeros:i64:32 2>&1 | FileCheck %s
# Every tile dimension a power of two, as Triton's block types: refused where the shape is made.
import triton
import triton.language as tl


@triton.jit
def non_pow2(X):
    x = tl.full((32, ), 1, dtype=tl.int64)
    y = tl.full((33, ), 0, dtype=tl.int64)
    tl.store(X + tl.arange(0, 32), x + tl.sum(y))
# CHECK: shape_pow2.py:[[#@LINE-2]]:9: error: Shape element 0 must be a power of 2

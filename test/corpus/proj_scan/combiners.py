import triton
import triton.language as tl


@triton.jit
def add_combine(a, b):
    return a + b


@triton.jit
def max_with_index(v0, i0, v1, i1):
    pick = v1 > v0
    return tl.where(pick, v1, v0), tl.where(pick, i1, i0)

import triton
import triton.language as tl

SCALE = 0.5


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)

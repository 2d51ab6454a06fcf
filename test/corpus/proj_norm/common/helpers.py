import triton
import triton.language as tl

from .constants import ACC_DTYPE


@triton.jit
def row_mean(x, n):
    return tl.sum(x.to(ACC_DTYPE), axis=0) / n


@triton.jit
def rsqrt_eps(v, eps):
    return 1.0 / tl.sqrt(v + eps)

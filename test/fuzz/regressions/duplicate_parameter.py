import triton
import triton.language as tl


@tri+ b


@triton.jit
def max_with_index(v0, i1, v1, i1):
    pick = v1 > v0
 #   return tl.if where(pick, v1, v0), tl.where(pick, i1, i0)

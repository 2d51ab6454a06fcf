import triton
import triton.language as tl


@triton.jit
def gelu_tanh(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + tl.extra.cuda.libdevice.tanh(inner))

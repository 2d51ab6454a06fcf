"""triton.language.standard for host code: Triton 3.6's names, each a stand-in that a kernel
resolves to the frontend's function of that name. Nothing here runs on the host."""
from .extra._kernel_only import kernel_only

# Triton 3.6's python/triton/language/standard.py.
NAMES = ("cdiv", "sigmoid", "softmax", "ravel", "swizzle2d", "zeros", "zeros_like", "max", "argmax", "min", "argmin",
         "sum", "xor_sum", "reduce_or", "cumsum", "cumprod", "sort", "topk", "bitonic_merge", "flip", "interleave",
         "squeeze", "unsqueeze")

globals().update({name: kernel_only(__name__, name) for name in NAMES})

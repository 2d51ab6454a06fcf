"""triton.language.math for host code: Triton 3.6's names, each a stand-in that a kernel resolves
to the frontend's function of that name (`exp = tl.math.exp` at module level, then `exp(x)` in a
kernel). Nothing here runs on the host."""
from .extra._kernel_only import kernel_only

# Triton 3.6's python/triton/language/math.py.
NAMES = ("umulhi", "exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "sqrt_rn", "rsqrt", "abs", "fdiv", "div_rn",
         "erf", "floor", "ceil", "fma")

globals().update({name: kernel_only(__name__, name) for name in NAMES})

"""triton.language.random for host code: Triton 3.6's names, each a stand-in that a kernel
resolves to the frontend's function of that name. Nothing here runs on the host."""
from .extra._kernel_only import kernel_only

# Triton 3.6's python/triton/language/random.py.
NAMES = ("philox_impl", "philox", "randint", "randint4x", "uint_to_uniform_float", "rand", "rand4x",
         "pair_uniform_to_normal", "randn", "randn4x")

globals().update({name: kernel_only(__name__, name) for name in NAMES})

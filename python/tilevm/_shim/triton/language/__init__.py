"""triton.language for host code: `tl.constexpr`, the dtypes and pointer types, and the host-side
enums (language/core.py). Kernel bodies are compiled by tilevm's frontend from the live
function's source; these objects serve annotations, host code and the values a kernel's globals
hold (a `tl.constexpr(7)`, `tl.float16`, `triton_cast = tl.cast`). Every other name of Triton
3.6's `triton.language` is a stand-in a kernel resolves by its name (extra/_kernel_only.py);
`tl.exp` is `tl.math.exp`, as in Triton."""
from . import core  # noqa: F401
from . import extra  # noqa: F401
from . import math, random, standard
from .core import (  # noqa: F401
    PropagateNan, ReductionOrdering, ReductionOrderingBase, base_type, base_value, bfloat16, const, constexpr,
    constexpr_type, dtype, float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16, float16, float32, float64,
    get_int_dtype, int1, int8, int16, int32, int64, pi32_t, pointer_type, str_to_ty, tensor, uint8, uint16, uint32, uint64,
    void)
from .extra._kernel_only import kernel_only

TRITON_MAX_TENSOR_NUMEL = 1048576

# Triton 3.6's `triton.language.__all__` less the names bound above and its submodule
# target_info: kernel-only functions (and range, static_range, tensor_descriptor and the other
# classes a kernel alone uses).
KERNEL_NAMES = (
    "load_tensor_descriptor", "store_tensor_descriptor", "make_tensor_descriptor", "tensor_descriptor", "abs", "add",
    "advance", "arange", "argmax", "argmin", "associative_scan", "assume", "atomic_add", "atomic_and", "atomic_cas",
    "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor", "bitonic_merge", "block_type", "broadcast",
    "broadcast_to", "cat", "cast", "cdiv", "ceil", "clamp", "condition", "cos", "cumprod", "cumsum", "debug_barrier",
    "device_assert", "device_print", "div_rn", "dot", "dot_scaled", "erf", "exp", "exp2", "expand_dims", "fdiv", "flip",
    "floor", "fma", "full", "gather", "histogram", "inline_asm_elementwise", "interleave", "join", "load", "log", "log2",
    "make_block_ptr", "map_elementwise", "max", "max_constancy", "max_contiguous", "maximum", "min", "minimum", "mul",
    "multiple_of", "num_programs", "pair_uniform_to_normal", "permute", "philox", "philox_impl", "program_id", "rand",
    "rand4x", "randint", "randint4x", "randn", "randn4x", "range", "ravel", "reduce", "reduce_or", "reshape", "rsqrt",
    "slice", "sigmoid", "sin", "softmax", "sort", "split", "sqrt", "sqrt_rn", "squeeze", "static_assert", "static_print",
    "static_range", "store", "sub", "sum", "swizzle2d", "topk", "to_tensor", "trans", "tuple", "uint_to_uniform_float",
    "umulhi", "unsqueeze", "view", "where", "xor_sum", "zeros", "zeros_like")


def _stand_in(name):
    for module in (math, random, standard):  # one object per function, as Triton re-exports them
        if name in module.NAMES:
            return getattr(module, name)
    return kernel_only(__name__, name)


globals().update({name: _stand_in(name) for name in KERNEL_NAMES})
del _stand_in

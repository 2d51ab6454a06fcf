"""triton.language for host code: `tl.constexpr`, the dtypes and pointer types, and the host-side
enums (language/core.py). Kernel bodies are compiled by tilevm's frontend from the live
function's source; these objects serve annotations, host code and the values a kernel's globals
hold (a `tl.constexpr(7)`, `tl.float16`)."""
from . import core  # noqa: F401
from . import extra  # noqa: F401
from .core import (  # noqa: F401
    PropagateNan, ReductionOrdering, ReductionOrderingBase, base_type, base_value, bfloat16, const, constexpr,
    constexpr_type, dtype, float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16, float16, float32, float64,
    get_int_dtype, int1, int8, int16, int32, int64, pi32_t, pointer_type, str_to_ty, tensor, uint8, uint16, uint32, uint64,
    void)

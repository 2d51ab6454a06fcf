"""triton.runtime.jit for host code: TensorWrapper and reinterpret (a tensor's memory seen as
another dtype: how Triton's programs pass uint16/32/64 arrays, which torch 1.x lacks, and fp8
ones), constexpr_function, and type_canonicalisation_dict. The launcher binds a TensorWrapper
as a pointer of the wrapper's dtype to the base tensor's memory."""
import functools

from .._utils import type_canonicalisation_dict  # noqa: F401
from ..language import core as _core


class TensorWrapper:
    """`base` (a tensor) whose elements a kernel reads as `dtype` (a triton.language dtype)."""

    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = base.data
        self.device = base.device
        self.shape = self.base.shape

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def __str__(self):
        return f"TensorWrapper[{self.dtype}]({self.base})"

    def element_size(self):
        return self.base.element_size()

    def numel(self):
        return self.base.numel()

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)


def reinterpret(tensor, dtype):
    """`tensor`'s memory as `dtype`: a TensorWrapper (or the base tensor itself when `dtype` is
    its own)."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"Cannot reinterpret a {type(tensor)}.")


class ConstexprFunction:
    """A function of compile-time values (Triton's @constexpr_function). Host code calls it as a
    plain function, constexpr arguments unwrapped; a kernel calls it while it compiles
    (source_unit.py hands it to the frontend), on its constexpr arguments, as Triton does."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        args = [a.value if isinstance(a, _core.constexpr) else a for a in args]
        kwargs = {k: v.value if isinstance(v, _core.constexpr) else v for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)


def constexpr_function(fn):
    return ConstexprFunction(fn)

"""CPU copies of a launch's arrays: each torch tensor's whole storage copied once (tensors that
share a storage share the copy, so aliases stay aliases) and the tensor rebuilt over it with its
own shape, strides and offset, which the kernel's stride arguments assume. NumPy arrays are
copied with their strides. Triton's TensorWrapper and TensorDescriptor keep their wrapper over a
copied base."""
import dataclasses
import sys


def is_tensor(x):
    """A torch tensor (without importing torch)."""
    return type(x).__name__ in ("Tensor", "Parameter") and hasattr(x, "data_ptr") and hasattr(x, "storage_offset")


def is_ndarray(x):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.ndarray)


def _is_wrapper(x):
    return type(x).__name__ == "TensorWrapper" and hasattr(x, "base") and hasattr(x, "dtype")


def _is_descriptor(x):
    return type(x).__name__ == "TensorDescriptor" and hasattr(x, "block_shape") and hasattr(x, "base")


def tensor_storage(t):
    """(address, bytes) of the storage under tensor t."""
    if hasattr(t, "untyped_storage"):  # torch 2
        s = t.untyped_storage()
        return s.data_ptr(), s.nbytes()
    s = t.storage()  # torch 1.x: typed
    return s.data_ptr(), s.size() * s.element_size()


def tensor_root(t):
    """The tensor whose memory t is a view of (the root of its `_base` chain; t itself if none)."""
    while getattr(t, "_base", None) is not None:
        t = t._base
    return t


class Copier:
    """Copies arrays to the CPU, one copy per (storage, dtype)."""

    def __init__(self):
        self._wholes = {}

    def tensor(self, t):
        address, nbytes = tensor_storage(t)
        key = (str(t.device), address, t.dtype)
        whole = self._wholes.get(key)
        if whole is None:
            n = nbytes // t.element_size()
            whole = t.detach().as_strided((n,), (1,), 0).to("cpu", copy=True)
            self._wholes[key] = whole
        return whole.as_strided(tuple(t.shape), tuple(t.stride()), t.storage_offset())

    def value(self, v):
        """A copy of `v` if it is an array (or holds one), else `v` itself."""
        if is_tensor(v):
            return self.tensor(v)
        if is_ndarray(v):
            return v.copy(order="K")
        if _is_wrapper(v):
            return type(v)(self.value(v.base), v.dtype)
        if _is_descriptor(v) and dataclasses.is_dataclass(v):
            return dataclasses.replace(v, base=self.value(v.base))
        return v


def copy_values(values):
    """{name: value} with every array copied (aliases kept)."""
    c = Copier()
    return {name: c.value(v) for name, v in values.items()}


def arrays_of(name, v):
    """[(buffer name, array, tilevm dtype or None)] of an argument: a tensor or array itself, a
    TensorWrapper's base (as the wrapper's dtype), a TensorDescriptor's base (NAME.base)."""
    if is_tensor(v) or is_ndarray(v):
        return [(name, v, None)]
    if _is_wrapper(v):
        return [(name, v.base, "triton:" + str(v.dtype.name))]
    if _is_descriptor(v):
        return [(f"{name}.base", v.base, None)]
    return []


def element_count(values):
    """Elements the copies of the values' arrays hold: each tensor storage once, whole (a view
    copies its storage), and each NumPy array."""
    n, seen = 0, set()
    for name, v in values.items():
        for _, a, _ in arrays_of(name, v):
            if is_tensor(a):
                address, nbytes = tensor_storage(a)
                if (str(a.device), address) not in seen:
                    seen.add((str(a.device), address))
                    n += nbytes // a.element_size()
            else:
                n += int(a.size)
    return n


def contiguous_bytes(a):
    """The elements of a tensor or array in row-major order of its shape, as a NumPy uint8
    array (a buffer for the extension)."""
    if is_tensor(a):
        import torch
        flat = a.detach().contiguous().reshape(-1)
        if flat.numel() == 0:
            return bytes()
        return flat.view(torch.uint8).numpy()
    import numpy as np
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8)


def dtype_name(a):
    """The dtype name (NumPy's or torch's, without `torch.`) of a tensor or array."""
    return str(a.dtype).replace("torch.", "")


def element_offset(a, index):
    """The position of element `index` (a tuple in a's shape) in a's allocation, in elements."""
    if is_tensor(a):
        return a.storage_offset() + sum(i * s for i, s in zip(index, a.stride()))
    base = a
    while getattr(base, "base", None) is not None and hasattr(base.base, "__array_interface__"):
        base = base.base
    start = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
    return start + sum(i * s // a.itemsize for i, s in zip(index, a.strides))

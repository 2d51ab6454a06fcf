"""triton.tools.tensor_descriptor: a tensor descriptor made on the host (Triton's TensorDescriptor,
what TMA reads), passed to a kernel as an argument. At the launch it becomes the base pointer
and the shape and stride scalars (i64) of a `tensordesc<*T:BLOCK>` parameter; in the kernel
`desc.load(offsets)` / `desc.store(offsets, v)` address a block of `block_shape` there, elements
outside `shape` reading as zero and not written (docs/language.md). The checks are Triton's."""
from dataclasses import dataclass
from typing import Any, List


def _itemsize(dtype):
    size = getattr(dtype, "itemsize", None)  # numpy dtypes, torch >= 2.1
    if size is None:
        import torch  # torch 1.x dtypes have no itemsize
        size = torch.empty((), dtype=dtype).element_size()
    return int(size)


def _is_floating(dtype):
    flag = getattr(dtype, "is_floating_point", None)
    if flag is not None:
        return bool(flag)
    return getattr(dtype, "kind", "") == "f"  # numpy


@dataclass
class TensorDescriptor:
    """A descriptor of `base` (a torch tensor or NumPy array): its `shape` and `strides` (in
    elements, the last 1) and the `block_shape` a kernel's load or store moves. A program may
    change `block_shape` before launching (Triton's tutorial sets it in an autotune pre-hook)."""
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"
    round_f32_to_tf32: bool = False

    def __post_init__(self):
        rank = len(self.shape)
        assert len(self.strides) == rank, f"rank mismatch: {self}"
        assert len(self.block_shape) == rank, f"rank mismatch: {self}"
        assert rank > 0, "rank must not be zero"
        assert rank <= 5, "rank cannot be more than 5"
        assert _base_address(self.base) % 16 == 0, "base must be 16-byte aligned"
        _check_block_shape(self.block_shape)
        elem_bytes = _itemsize(self.base.dtype)
        for stride in list(self.strides)[:-1]:
            assert (stride * elem_bytes) % 16 == 0, "strides must be 16-byte aligned"
        for dim in self.shape:
            assert dim > 0, "shape must be positive"
        assert list(self.strides)[-1] == 1, "Last dimension must be contiguous"
        assert self.padding in ("zero", "nan"), "Illegal value for padding"
        if self.padding == "nan":
            assert _is_floating(self.base.dtype), "Padding option `nan` is only supported for floating point tensors"

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding="zero", round_f32_to_tf32=False):
        """The descriptor of a whole tensor: its own shape and strides."""
        return TensorDescriptor(tensor, list(tensor.shape), _strides_of(tensor), block_shape, padding, round_f32_to_tf32)


def _base_address(x):
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    return x.__array_interface__["data"][0]


def _strides_of(x):
    if callable(getattr(x, "stride", None)):
        return list(x.stride())
    return [s // x.itemsize for s in x.strides]  # NumPy: bytes


def _check_block_shape(block_shape):
    # Triton's validate_block_shape: positive powers of two, at most 2^20 elements.
    numel = 1
    for dim in block_shape:
        if int(dim) != dim or dim <= 0 or (int(dim) & (int(dim) - 1)) != 0:
            raise ValueError(f"block_shape entries must be powers of two, got {list(block_shape)}")
        numel *= int(dim)
    if numel > 2**20:
        raise ValueError(f"the block {list(block_shape)} has more than 2^20 elements")

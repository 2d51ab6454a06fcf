# triton.reinterpret / TensorWrapper: a torch tensor's memory as another dtype, how Triton's
# programs pass uint16/32/64 arrays (torch 1.x has no such dtypes): the kernel gets a pointer of
# the wrapper's dtype over the base's memory, in place. triton._internal_testing's to_triton /
# to_numpy round-trip unsigned NumPy arrays through it.
import numpy as np
import torch

import triton
import triton.language as tl
from triton._internal_testing import (is_cuda, is_hip, is_interpreter, numpy_random, str_to_triton_dtype, to_numpy,
                                      to_triton, torch_dtype_name, uint_dtypes)


@triton.jit
def halve_and_compare(x_ptr, out_ptr, big_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x >> 1)  # logical for unsigned, arithmetic for signed
    tl.store(big_ptr + offs, (x > 0).to(tl.int8))  # 0xFFFFFFFF is > 0 only as uint32


bits = torch.tensor([-1, -2, 6, 2**31 - 1], dtype=torch.int32)
as_u32 = triton.reinterpret(bits, tl.uint32)
assert isinstance(as_u32, triton.TensorWrapper) and as_u32.dtype == tl.uint32 and as_u32.base is bits
assert triton.reinterpret(as_u32, torch.int32) is bits and triton.reinterpret(as_u32, tl.int32).dtype == tl.int32
out = triton.reinterpret(torch.zeros(4, dtype=torch.int32), tl.uint32)
big = torch.zeros(4, dtype=torch.int8)
halve_and_compare[(1, )](as_u32, out, big, BLOCK=4)
assert to_numpy(out).tolist() == [0x7FFFFFFF, 0x7FFFFFFF, 3, 2**30 - 1], to_numpy(out)
assert big.tolist() == [1, 1, 1, 1], big
signed_out = torch.zeros(4, dtype=torch.int32)
halve_and_compare[(1, )](bits, signed_out, big, BLOCK=4)
assert signed_out.tolist() == [-1, -1, 3, 2**30 - 1] and big.tolist() == [0, 0, 1, 1], (signed_out, big)
try:
    triton.reinterpret([1, 2], tl.uint32)
    raise AssertionError("reinterpret accepted a list")
except TypeError as e:
    assert "Cannot reinterpret" in str(e), e

# Every unsigned width through to_triton and back, the values exact.
for name in uint_dtypes:
    x = numpy_random(64, name)
    t = to_triton(x, device="cpu")
    assert str_to_triton_dtype(name) == getattr(tl, name) and torch_dtype_name(getattr(tl, name)) == name
    z = to_triton(np.zeros(64, dtype=name), device="cpu")
    halve_and_compare[(1, )](t, z, torch.zeros(64, dtype=torch.int8), BLOCK=64)
    assert to_numpy(z).dtype == np.dtype(name) and (to_numpy(z) == x >> 1).all(), name
# A host-made descriptor over a reinterpreted tensor reads its elements as the wrapper's dtype.
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def halve_block(desc, out_ptr, BLOCK: tl.constexpr):
    x = desc.load([0])
    tl.store(out_ptr + tl.arange(0, BLOCK), x >> 1)


desc = TensorDescriptor.from_tensor(triton.reinterpret(torch.tensor([-2, 6, -8, 2], dtype=torch.int32), tl.uint32), [4])
out = triton.reinterpret(torch.zeros(4, dtype=torch.int32), tl.uint32)
halve_block[(1, )](desc, out, BLOCK=4)
assert to_numpy(out).tolist() == [0x7FFFFFFF, 3, 0x7FFFFFFC, 1], to_numpy(out)
assert is_interpreter() and not is_cuda() and not is_hip()
# Triton's dtype names and groups.
assert tl.float16.name == "fp16" and tl.bfloat16.name == "bf16" and tl.int1.name == "int1"
assert tl.dtype.SINT_TYPES == ["int8", "int16", "int32", "int64"] and "uint32" in tl.dtype.UINT_TYPES
assert tl.dtype.STANDARD_FP_TYPES == ["fp16", "bf16", "fp32", "fp64"] and tl.float8e4nv.is_fp8()
assert tl.uint32.is_int_unsigned() and tl.uint32.is_uint32() and tl.int8.get_int_min_value() == -128
assert tl.constexpr(3).type == tl.constexpr_type(3) and tl.constexpr(tl.constexpr(3)) == 3
print("reinterpreted tensors run in place as their wrapper's dtype; unsigned arrays round-trip")

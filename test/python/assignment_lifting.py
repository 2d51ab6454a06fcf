# Triton's assignment rule (its code generator's visit_Assign): a number assigned to a name becomes
# a scalar tensor of its default dtype, so only `x: tl.constexpr = v` (and parameters) stay
# compile-time values. A constexpr's `.type` is constexpr_type(value), as test_core.py's
# test_constexpr_assignment checks; `BLOCK = 128; tl.arange(0, BLOCK)` is refused, as Triton
# refuses it.
import torch

import triton
import triton.language as tl
from triton.compiler import CompilationError
from triton.language.core import constexpr_type


@triton.jit
def lifted_types(out, input_literal: tl.constexpr, tensor_type: tl.constexpr):
    kept: tl.constexpr = input_literal
    tl.static_assert(kept.type == constexpr_type(input_literal))
    tl.static_assert(input_literal.type == constexpr_type(input_literal))
    tl.static_assert(kept == input_literal)
    assigned = input_literal
    tl.static_assert(assigned.type == tensor_type)  # a scalar's type is its dtype
    tl.static_assert(assigned.dtype == tensor_type)
    tl.store(out, assigned.to(tl.float32))


for literal, dtype in [(10, tl.int32), (32.5, tl.float32), (2**40, tl.int64), (True, tl.int1), (1e-40, tl.float64),
                       (3e38, tl.float32), (1e39, tl.float64)]:
    out = torch.zeros(1)
    lifted_types[(1, )](out, literal, dtype)
    assert out.item() == torch.tensor(float(literal)).item(), (literal, out.item())


@triton.jit
def tuple_type(out, T: tl.constexpr):
    t: tl.constexpr = T
    tl.static_assert(t.type == constexpr_type((5, 6, 7)))
    a, b, c = T  # unpacked by assignment: int32 scalars
    tl.static_assert(a.dtype == tl.int32)
    tl.store(out, a * 100 + b * 10 + c)


out = torch.zeros(1, dtype=torch.int32)
tuple_type[(1, )](out, (5, 6, 7))
assert out.item() == 567, out.item()


@triton.jit
def block_type(out):
    x = tl.arange(0, 4)
    tl.static_assert(x.type != tl.int32)  # a block's type is not its element dtype
    tl.static_assert(x.type.element_ty == tl.int32)
    tl.store(out + x, x)


out = torch.zeros(4, dtype=torch.int32)
block_type[(1, )](out)
assert out.tolist() == [0, 1, 2, 3], out.tolist()


@triton.jit
def loop_counter(out, n):
    # A number assigned before a runtime loop is its carried int32 value.
    count = 0
    total = 0.0
    for i in range(n):
        count += 1
        total += 0.5
    tl.store(out, count + total)


out = torch.zeros(1)
loop_counter[(1, )](out, 6)
assert out.item() == 9.0, out.item()


@triton.jit
def block_from_assignment(out):
    BLOCK = 128
    tl.store(out + tl.arange(0, BLOCK), 1.0)


try:
    block_from_assignment[(1, )](torch.zeros(128))
    raise AssertionError("accepted an assigned number as arange's bound")
except CompilationError as e:
    assert "assignment_lifting.py:79:" in str(e) and "must be a constexpr integer, got int32 scalar" in str(e), e
print("assignment lifting: ok (numbers lifted to scalar tensors, constexpr_type, refusals located)")

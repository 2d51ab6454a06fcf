# Tuples at compile time, as Triton's test_tuple.py uses them: a tuple given for a tl.constexpr
# parameter (unpacked, nested, subscripted, used as a shape), `+` concatenating tuples and
# tl.tuple(...), `==` comparing them (tuple_constexpr.py: shapes and lists).
import torch

import triton
import triton.language as tl


@triton.jit
def unpack(out_ptr, shape: tl.constexpr, nested: tl.constexpr):
    d0, d1, d2 = shape  # assigned: scalar tensors, as in Triton
    (e0, e1), e2 = nested
    x = tl.full((shape[1], ), d0 * 100 + d1 * 10 + d2, dtype=tl.int32)  # a tuple element as a shape
    tl.store(out_ptr + tl.arange(0, shape[1]), x)
    tl.store(out_ptr + d1, e0 * 100 + e1 * 10 + e2 + shape[2] * 1000)


@triton.jit
def tuple_ops(out_ptr, one: tl.constexpr):
    t = (0, 1) + (2, 3)
    u = tl.tuple((4, 5)) + (6, 7)
    for i in tl.static_range(4):
        tl.store(out_ptr + i, t[i])
        tl.store(out_ptr + 4 + i, u[i])
    tl.store(out_ptr + 8, (1, 2) == (1, 2))
    tl.store(out_ptr + 9, tl.tuple((1, 2)) == (1, 3))
    tl.store(out_ptr + 10, one[0])


out = torch.zeros(5, dtype=torch.int32)
unpack[(1, )](out, shape=(8, 4, 2), nested=((3, 2), 1))
assert out.tolist() == [842, 842, 842, 842, 2321], out.tolist()
out = torch.zeros(11, dtype=torch.int32)
tuple_ops[(1, )](out, (9, ))
assert out.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 1, 0, 9], out.tolist()
# A tuple holding a tensor is refused naming the element where a constexpr goes; a tuple for a
# runtime parameter is a tuple argument, which the kernel's `+` then refuses, located.
try:
    tuple_ops[(1, )](out, one=(torch.zeros(1), ))
    raise AssertionError("accepted a tensor in a tuple constexpr")
except TypeError as e:
    assert "argument 'one[0]': a torch.Tensor" in str(e), e
try:
    unpack[(1, )]((1, 2), shape=(8, 4, 2), nested=((3, 2), 1))
    raise AssertionError("accepted a tuple plus a tile")
except triton.CompilationError as e:
    assert "operator '+' is not supported on tuple of 2" in str(e), e
print("tuple constexprs: ok (unpacked, nested, subscripted, concatenated, compared)")


# Repetition by a constexpr integer, as Python's (Triton's test_dot_multidim builds a shape so).
@triton.jit
def repeated(X, Y, RANK: tl.constexpr):
    x = tl.load(X + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    tl.static_assert(len(2 * (1, ) + (3, ) * 0 + (4, ) * -1) == 2)
    tl.store(Y + tl.arange(0, 32), tl.sum(tl.sum(x, axis=0), axis=0))


xs = torch.arange(256 << 3, dtype=torch.float32)
ys = torch.zeros(32)
repeated[(1, )](xs, ys, RANK=3)
assert torch.equal(ys, xs.reshape(-1, 32).sum(axis=0)), ys
print("tuple repetition: ok")

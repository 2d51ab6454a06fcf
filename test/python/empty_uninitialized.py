# torch.empty's memory is uninitialized: a kernel that reads it before anything wrote it is an
# uninitialized-read error at the load, as a read of what an earlier launch left undefined is.
# Memory written since (by torch in place, through .data or .numpy(), or by a kernel) is not.
import torch

import tilevm
import triton
import triton.language as tl


@triton.jit
def accumulate(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(acc_ptr + offs, mask=mask)  # LOAD
    tl.store(acc_ptr + offs, acc + tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def fill(y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, offs.to(tl.float32))


line = next(i for i, l in enumerate(open(__file__), 1) if "# LOAD" in l)
x = torch.randn(100)


def reported(acc, n):
    try:
        accumulate[(triton.cdiv(n, 32),)](x, acc, n, BLOCK=32)
    except tilevm.KernelError as e:
        assert f"empty_uninitialized.py:{line}:" in e.report and "uninitialized-read" in e.report, e.report
        return e.report.splitlines()[0]
    return None


for make in (lambda: torch.empty(100), lambda: torch.empty_like(x), lambda: torch.empty_strided((100,), (1,)),
             lambda: x.new_empty(100)):
    first = reported(make(), 100)
    assert first is not None and "acc_ptr[0]" in first, first
for write in (lambda t: t.zero_(), lambda t: t.copy_(x), lambda t: t.data.fill_(1), lambda t: t.numpy().fill(2),
              lambda t: t.__setitem__(slice(None), 3)):
    acc = torch.empty(100)
    write(acc)
    assert reported(acc, 100) is None
y = torch.empty(64)
fill[(1,)](y, BLOCK=32)  # a kernel writes the first half
assert reported(y, 32) is None
second = reported(y[32:], 32)
assert second is not None and "acc_ptr[32]" in second, second
print("empty_uninitialized: ok (reads of torch.empty's unwritten memory reported at the load)")

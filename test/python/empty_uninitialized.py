# The record of torch.empty's unwritten memory (python/tilevm/fresh_memory.py) that --diff triton
# gives its interpreter runs (test/python/diff_triton_planted.py: a kernel reading it is an
# uninitialized-read there): each uninitialized allocation is recorded whole; an in-place torch
# write, or taking .data, .numpy() or __array__, drops the record; a launch's leftovers replace it.
# The Python door's own launches do not use it: Triton's tests copy torch.empty memory on purpose.
import numpy as np
import torch

from tilevm import fresh_memory

fresh_memory.install(torch)
memory = fresh_memory.memory
x = torch.randn(100)
for make in (lambda: torch.empty(100), lambda: torch.empty_like(x), lambda: torch.empty_strided((100,), (1,)),
             lambda: x.new_empty(100)):
    t = make()
    assert memory.ranges(t) == [(0, 400)], memory.ranges(t)
    assert memory.ranges(t[10:]) == [(0, 400)], "a view's storage is the allocation's"
for write in (lambda t: t.zero_(), lambda t: t.copy_(x), lambda t: t.data.fill_(1), lambda t: t.numpy().fill(2),
              lambda t: np.asarray(t), lambda t: t.__setitem__(slice(None), 3)):
    t = torch.empty(100)
    write(t)
    assert memory.ranges(t) is None, write
t = torch.empty(64)
memory.update(t, [(128, 256)])  # a launch wrote the first half
assert memory.ranges(t) == [(128, 256)]
memory.update(t, [])
assert memory.ranges(t) is None
u = torch.zeros(8)
memory.update(u, [(0, 16)], create=True)  # a launch left part of a written tensor undefined
assert memory.ranges(u) == [(0, 16)]
memory.forget(u)
assert memory.ranges(u) is None
print("empty_uninitialized: ok (torch.empty's memory recorded until written, views and launches included)")

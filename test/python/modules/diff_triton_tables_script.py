"""A grouped kernel over pointer tables, as --diff triton runs it (diff_triton_tables.py, over the
stand-in package): each program scales one group's source into its destination, both reached
through tables of data_ptr() values; the stand-in's "GPU" gets group 1's element 3 wrong."""
import torch

import triton
import triton.language as tl


@triton.jit
def grouped_scale(src_ptrs, dst_ptrs, sizes, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    src = tl.load(src_ptrs + g).to(tl.pointer_type(tl.float32))
    dst = tl.load(dst_ptrs + g).to(tl.pointer_type(tl.float32))
    n = tl.load(sizes + g)
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n) * 2, mask=offs < n)


sizes = [5, 16, 9]
srcs = [torch.randn(n) for n in sizes]
dsts = [torch.zeros(n) for n in sizes]
src_ptrs = torch.tensor([s.data_ptr() for s in srcs], dtype=torch.int64)
dst_ptrs = torch.tensor([d.data_ptr() for d in dsts], dtype=torch.int64)
grouped_scale[(len(sizes),)](src_ptrs, dst_ptrs, torch.tensor(sizes, dtype=torch.int32), BLOCK=16)  # LAUNCH
print("script done")

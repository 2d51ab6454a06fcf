# Vector add, as Triton's tutorial 01 writes it (torch CPU tensors).
import torch
import triton
import triton.language as tl

from common import LAUNCHES, launch, report, torch_seconds


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


size = 98432 * 4
x, y = torch.rand(size), torch.rand(size)
out = torch.empty_like(x)
grid = lambda meta: (triton.cdiv(size, meta["BLOCK_SIZE"]),)
for _ in range(LAUNCHES):
    launch(add_kernel, grid, x, y, out, size, BLOCK_SIZE=1024)
torch.testing.assert_close(out, x + y)
report("vector_add", LAUNCHES, torch_seconds(lambda: torch.add(x, y, out=out)))

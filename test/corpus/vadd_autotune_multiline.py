# Vector add in the style of Triton's tutorial 01, with an autotune decorator whose configs
# span many lines, and a signature and calls split across lines.
import torch  # host-only imports are never resolved unless a kernel uses them

import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 128}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 256}, num_warps=8),  # trailing comment
    ],
    key=["n_elements"],
)
@triton.jit
def add_kernel(x_ptr,  # *Pointer* to first input vector.
               y_ptr,  # *Pointer* to second input vector.
               output_ptr,
               n_elements,
               BLOCK_SIZE: tl.constexpr,
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0,
                                      BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets,
                mask=mask)
    y = tl.load(
        y_ptr + offsets, mask=mask
    )
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor):
    output = torch.empty_like(
        x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements)
    return output

# RUN: -k add_kernel -D BLOCK_SIZE=128 --grid 8
# ARGS: x_ptr=randn:f32:1000 y_ptr=randn:f32:1000 output_ptr=empty:f32:1000 n_elements=1000
# REF: output_ptr = x_ptr + y_ptr
# EXPECT: output_ptr

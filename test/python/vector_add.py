# Vector add in the style of Triton's tutorial 01, on NumPy arrays, checked with assert_close.
import numpy as np

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x, y):
    output = np.empty_like(x)
    n_elements = output.size
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


rng = np.random.default_rng()
size = 98432
x = rng.random(size, dtype=np.float32)
y = rng.random(size, dtype=np.float32)
output_triton = add(x, y)
output_ref = x.astype(np.float64) + y
triton.testing.assert_close(output_triton, output_ref, atol=1e-6, rtol=1e-6)
# A slice is passed by pointer into its array (no copy): the kernel sees the view's elements.
half = add(x[1000:3000], y[1000:3000])
triton.testing.assert_close(half, output_ref[1000:3000], atol=1e-6, rtol=1e-6)
# tilevm.last_launch describes that launch: 2000 elements in blocks of 1024; the interpreter
# copies nothing (the GPU engine copies CPU tensors in and out).
import tilevm
on_cpu = tilevm.options["device"] == "cpu"
assert tilevm.last_launch["programs"] == 2 and (tilevm.last_launch["copied_bytes"] == 0) == on_cpu, tilevm.last_launch
print("vector_add: ok")

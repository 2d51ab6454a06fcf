"""A Triton script as --diff triton runs it (diff_triton_cli.py, over the stand-in package in
modules/fake_triton): an add kernel launched three times, the third with one element wrong on
the "GPU", a warmup and a launch under the autotuner's benchmarking, which are not compared,
and a launch of the kernel the warmup compiled."""
import torch

import triton
import triton.language as tl
from triton.runtime.autotuner import Autotuner


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


wrong = {"on": False}


def device(x, y, out, n, BLOCK):
    out.copy_((x.double() + y.double()).float())
    if wrong["on"]:
        out[37] += 1
    return "launched"


add.device = device
n = 100
x, y, out = torch.randn(n), torch.randn(n), torch.zeros(n)
compiled = add.warmup(x, y, out, n, BLOCK=32, grid=(4,))
for i in range(3):
    wrong["on"] = i == 2
    add[lambda meta: ((meta["n"] + meta["BLOCK"] - 1) // meta["BLOCK"],)](x, y, out, n, BLOCK=32, num_warps=4)  # LAUNCH
wrong["on"] = False
Autotuner()._bench(add, x, y, out, n, config={"BLOCK": 32})
compiled[(4, 1, 1)](x, y, out, n, 32)  # COMPILED: every argument, the constexpr too
print("script done")

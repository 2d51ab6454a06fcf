# RUN: %tilevm compile %s -k main_kernel --signature 'x: *fp32, n: i32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm compile %s --list | FileCheck %s --check-prefix=LIST
# A real module: host code, classes, comprehensions, autotune configs and a __main__ block are
# skipped; only @triton.jit functions are lowered, helpers inlined with their constexprs.
import math
import torch
import triton
import triton.language as tl
from triton.language import math as tlmath

CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 128) for w in (4, 8)]


class Launcher:
    def __init__(self, n):
        self.grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)


@triton.jit
def scaled(v, FACTOR: tl.constexpr):
    if FACTOR == 1:
        return v
    return v * FACTOR


@triton.jit
def square_root(v):
    return tlmath.sqrt(v)


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def main_kernel(x, n, BLOCK: tl.constexpr = 32):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    w = scaled(v, 1) + scaled(v, FACTOR=3)
    tl.store(x + offs, square_root(w), mask=m)


def host(x):
    out = {k: v for k, v in enumerate(x)}
    return [math.sqrt(i) for i in out]


if __name__ == "__main__":
    main_kernel[(1,)](torch.ones(8), 8)

# CHECK-LABEL: kernel @main_kernel(%x: ptr<f32>, %n: i32)
# CHECK: arange {end = 32, start = 0}
# CHECK: [[V:%[0-9]+]] = load
# CHECK-NEXT: [[THREE:%[0-9]+]] = constant {value = 3.0} : f32
# CHECK-NEXT: [[SPLAT:%[0-9]+]] = splat [[THREE]] : tile<32xf32>
# CHECK-NEXT: [[V3:%[0-9]+]] = mulf [[V]], [[SPLAT]] : tile<32xf32>
# CHECK-NEXT: [[W:%[0-9]+]] = addf [[V]], [[V3]] : tile<32xf32>
# CHECK: sqrt [[W]] : tile<32xf32>
# LIST: scaled
# LIST-NEXT: square_root
# LIST-NEXT: main_kernel

# RUN: %tilevm compile %s -k flips --signature 'x: *fp32, y: *fp32' -D BM=4 -D BN=8 --emit tile --no-locations | FileCheck %s
# RUN: not %tilevm compile %s -k bad_dim --signature 'x: *fp32' --emit tile 2>&1 | FileCheck %s --check-prefix=DIM
# RUN: not %tilevm compile %s -k scalar --signature 'x: *fp32' --emit tile 2>&1 | FileCheck %s --check-prefix=SCALAR
# tl.flip(x, dim=None) and x.flip(dim): the `flip` op; dim None is the last dim, negative dims
# count from the end (Triton's standard.flip).
import triton
import triton.language as tl


@triton.jit
def flips(x, y, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    t = tl.load(x + offs)
    a = tl.flip(t)
    b = tl.flip(t, 0)
    c = t.flip(dim=-2)
    d = tl.flip(tl.arange(0, BN))
    tl.store(y + offs, a + b + c + d[None, :])

# CHECK: [[T:%[0-9]+]] = load {{%[0-9]+}} : tile<4x8xf32>
# CHECK: flip [[T]] {dim = 1} : tile<4x8xf32>
# CHECK: flip [[T]] {dim = 0} : tile<4x8xf32>
# CHECK: flip [[T]] {dim = 0} : tile<4x8xf32>
# CHECK: [[R:%[0-9]+]] = arange {end = 8, start = 0} : tile<8xi32>
# CHECK: flip [[R]] {dim = 0} : tile<8xi32>


@triton.jit
def bad_dim(x):
    t = tl.load(x + tl.arange(0, 16))
    tl.store(x + tl.arange(0, 16), tl.flip(t, 1))

# DIM: flip.py:[[@LINE-2]]:{{[0-9]+}}: error: flip() dim 1 is out of range for a 1-D tile


@triton.jit
def scalar(x):
    tl.store(x, tl.flip(tl.load(x)))

# SCALAR: flip.py:[[@LINE-2]]:{{[0-9]+}}: error: flip() needs a tile, got

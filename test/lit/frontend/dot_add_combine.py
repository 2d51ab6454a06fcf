# RUN: %tilevm compile %s -k accumulate --signature 'a: *fp16, c: *fp32, n: i32' --emit tile --no-locations | FileCheck %s --check-prefix=ACC
# RUN: %tilevm compile %s -k left_int --signature 'a: *i8, c: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=INT
# RUN: %tilevm compile %s -k two_uses --signature 'a: *fp16, c: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=TWO
# RUN: %tilevm compile %s -k nonzero --signature 'a: *fp16, c: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=NONZERO
# RUN: %tilevm run %s -k accumulate --arg a=randn:f16:256 c=zeros:f32:256 n=4 -q
# Triton's combine (Combine.cpp's CombineDotAddPattern): `d + dot(a, b)` whose dot has no
# other use is `dot(a, b, d)`, the sum's place taken by the dot, so `acc += tl.dot(a, b)`
# accumulates on the tensor cores as `tl.dot(a, b, acc)`; either side, floats and ints. A dot
# read twice, or with an accumulator other than zero, stays a dot and an add.
import triton
import triton.language as tl


@triton.jit
def accumulate(a, c, n):
    r = tl.arange(0, 16)
    acc = tl.zeros((16, 16), dtype=tl.float32)
    for i in range(n):
        x = tl.load(a + r[:, None] * 16 + r[None, :])
        acc += tl.dot(x, x)
    tl.store(c + r[:, None] * 16 + r[None, :], acc)
# ACC: for {{.*}}(%[[IV:[0-9]+]]: i32, %[[ACC:[0-9]+]]: tile<16x16xf32>)
# ACC-NOT: constant {value = 0.0}
# ACC: %[[DOT:[0-9]+]] = dot %{{[0-9]+}}, %{{[0-9]+}}, %[[ACC]] : tile<16x16xf32>
# ACC-NOT: addf
# ACC: yield %[[DOT]]


@triton.jit
def left_int(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    d = tl.full((16, 16), 3, tl.int32)
    tl.store(c + r[:, None] * 16 + r[None, :], tl.dot(x, x) + d)
# INT: %[[D:[0-9]+]] = constant {value = 3} : tile<16x16xi32>
# INT: dot %{{[0-9]+}}, %{{[0-9]+}}, %[[D]] : tile<16x16xi32>
# INT-NOT: addi


@triton.jit
def two_uses(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    p = tl.dot(x, x)
    tl.store(c + r[:, None] * 16 + r[None, :], p + 1.0)
    tl.store(c + 256 + r[:, None] * 16 + r[None, :], p)
# TWO: constant {value = 0.0}
# TWO: dot
# TWO: addf


@triton.jit
def nonzero(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    p = tl.dot(x, x, tl.full((16, 16), 1.0, tl.float32))
    tl.store(c + r[:, None] * 16 + r[None, :], p + 1.0)
# NONZERO: dot
# NONZERO: addf

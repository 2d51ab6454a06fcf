# tl.map_elementwise in the style of Triton's test_core (test_map_elementwise*) and of its
# docstring's selu: a scalar @triton.jit function with control flow, mapped over tiles, with
# several results, with pack=2 (consecutive elements per call), and with a broadcast scalar.
# Checked against NumPy on fresh random inputs.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def compare_kernel(X, Y, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    z = tl.map_elementwise(compare, x, y)
    tl.store(Z + tl.arange(0, BLOCK), z)


@triton.jit
def divmod_scalar(a, b):
    return a // b, a % b


@triton.jit
def divmod_pair(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def divmod_kernel(A, B, C, D, BLOCK: tl.constexpr, PACK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    if PACK == 2:
        c, d = tl.map_elementwise(divmod_pair, a, b, pack=2)
    else:
        c, d = tl.map_elementwise(divmod_scalar, a, b)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@triton.jit
def selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def selu_kernel(X, Y, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    y = tl.map_elementwise(selu_scalar, x, alpha)
    tl.store(Y + offs, y, mask=offs < n)


@triton.jit
def first_swap(a0, a1):
    # The pair's order matters: element 2i and 2i+1 are one call's a0 and a1.
    return a1, a0


@triton.jit
def swap_kernel(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.store(Y + tl.arange(0, BLOCK), tl.map_elementwise(first_swap, x, pack=2))


rng = np.random.default_rng()
x = rng.integers(-4, 4, 128).astype(np.int32)
y = rng.integers(-4, 4, 128).astype(np.int32)
z = np.zeros(128, np.int32)
compare_kernel[(1, )](x, y, z, BLOCK=128)
np.testing.assert_equal(z, (x > y).astype(np.int32) - (y > x).astype(np.int32))

for pack in (1, 2):
    a = rng.integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(1, 2**32, 512, dtype=np.uint64).astype(np.uint32)
    b[:64] = rng.integers(1, 100, 64).astype(np.uint32)
    c, d = np.zeros_like(a), np.zeros_like(a)
    divmod_kernel[(1, )](a, b, c, d, BLOCK=512, PACK=pack)
    np.testing.assert_equal(c, a // b)
    np.testing.assert_equal(d, a % b)

n = 1000
xs = rng.standard_normal(n).astype(np.float32)
ys = np.zeros(n, np.float32)
alpha = 1.6732632
selu_kernel[(triton.cdiv(n, 256), )](xs, ys, n, alpha, BLOCK=256)
ref = np.where(xs > 0, xs.astype(np.float64), alpha * np.expm1(xs.astype(np.float64)))
np.testing.assert_allclose(ys, ref, rtol=1e-5, atol=1e-6)

xv = rng.standard_normal(256).astype(np.float32)
yv = np.zeros_like(xv)
swap_kernel[(1, )](xv, yv, BLOCK=256)
np.testing.assert_equal(yv, xv.reshape(-1, 2)[:, ::-1].reshape(-1))
print("map_elementwise: compare, divmod (pack 1 and 2), selu, pair swap agree with NumPy")

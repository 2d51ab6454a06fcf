# Tuples (and lists) given to tl.constexpr parameters, as Triton's test_reshape passes shapes:
# the kernel sees a constexpr tuple; a tuple for a runtime parameter is a tuple argument.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def reshape_kernel(Z, X, N: tl.constexpr, out_shape: tl.constexpr, names: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    z = tl.reshape(x, out_shape)
    tl.static_assert(len(names) == 2 and names[1] == "b" and names[0][1] == 7)
    tl.store(Z + tl.arange(0, N), tl.ravel(z * 2))


@triton.jit
def runtime_param(Z, t):
    tl.store(Z, 1)


rng = np.random.default_rng()
checked = 0
for shape in [(8, 4), [2, 16], (32,), (2, 2, 8)]:
    x = rng.integers(-100, 100, 32).astype(np.int32)
    z = np.zeros(32, np.int32)
    reshape_kernel[(1,)](z, x, 32, shape, (("a", 7), "b"))
    assert np.array_equal(z, x * 2), (shape, z)
    checked += 1
z = np.zeros(1, np.int32)
runtime_param[(1,)](z, (1, 2))  # a tuple for a runtime parameter is a tuple argument (tuple_args.py)
assert z[0] == 1
print(f"tuple_constexpr: {checked} tuple constexprs reach the kernel; a runtime tuple is a tuple argument")

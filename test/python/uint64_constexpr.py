# Python integers from 2^63 to 2^64 - 1 as Triton's uint64 constexprs, from every place Python
# hands them over: a tl.constexpr argument, a module constant, a @triton.constexpr_function's
# result and argument. Hashes against Python's own integers; then the located errors Triton
# gives: such a number meeting an int64 tensor, and a constexpr past 64 bits.
import numpy as np

import triton
import triton.language as tl

GOLDEN = 0x9E3779B97F4A7C15  # past INT64_MAX: uint64
M = 2**64


@triton.constexpr_function
def rotate_constant(bits):
    return ((GOLDEN << bits) | (GOLDEN >> (64 - bits))) % M


@triton.constexpr_function
def halve(x):
    return x // 2


@triton.jit
def mix(x_ptr, out_ptr, SEED: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs).to(tl.uint64)
    h = (x ^ SEED) * GOLDEN
    h = h ^ (h >> 29)
    h = h * rotate_constant(17)
    tl.static_assert(halve(SEED) == SEED // 2)
    tl.store(out_ptr + offs, h.to(tl.int64, bitcast=True))


def reference(x, seed):
    rot = ((GOLDEN << 17) | (GOLDEN >> 47)) % M
    out = []
    for v in x.tolist():
        h = ((v % M) ^ seed) * GOLDEN % M
        h ^= h >> 29
        h = h * rot % M
        out.append(h - M if h >= 2**63 else h)
    return out


N = 64
x = np.random.default_rng().integers(-2**62, 2**62, N, dtype=np.int64)
out = np.zeros(N, np.int64)
for seed in (1 << 63, M - 1, 12345):
    mix[(1,)](x, out, SEED=seed, N=N)
    assert out.tolist() == reference(x, seed), seed


@triton.jit
def signed_meets(x_ptr, C: tl.constexpr):
    tl.store(x_ptr, tl.load(x_ptr) + C)


def compile_error(*args, **kwargs):
    try:
        signed_meets[(1,)](*args, **kwargs)
    except triton.CompilationError as e:
        return str(e)
    raise AssertionError("no CompilationError")


one = np.zeros(1, np.int64)
e = compile_error(one, C=1 << 63)
assert "Scalar 9223372036854775808 is out of range for type int64" in e, e
e = compile_error(one, C=1 << 64)
assert "does not fit in 64 bits" in e, e
print("uint64_constexpr: ok (constexpr argument, module constant, constexpr_function; int64 tensors refuse them)")

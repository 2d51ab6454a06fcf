# tl.randint and friends with 64-bit offsets, as Triton defines them: 32-bit Philox (10 rounds)
# whose first two counters are the offset's low and high words, checked against a NumPy Philox;
# tl.random.* spellings, rand4x/randn4x, and uint_to_uniform_float's limits.
import numpy as np

import triton
import triton.language as tl

M32 = 0xFFFFFFFF


def philox4x32(c0, c1, seed, rounds=10):
    """Philox4x32 on counters (c0, c1, 0, 0) with key (seed_lo, seed_hi); uint64 arrays in, uint32 words out."""
    c = [c0.astype(np.uint64), c1.astype(np.uint64), np.zeros_like(c0, np.uint64), np.zeros_like(c0, np.uint64)]
    k0, k1 = np.uint64(seed & M32), np.uint64((seed >> 32) & M32)
    ra, rb = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    for _ in range(rounds):
        pa, pb = c[0] * ra, c[2] * rb  # exact: 32 x 32 bits fit in 64
        c = [((pb >> np.uint64(32)) ^ c[1] ^ k0) & np.uint64(M32), pb & np.uint64(M32),
             ((pa >> np.uint64(32)) ^ c[3] ^ k1) & np.uint64(M32), pa & np.uint64(M32)]
        k0, k1 = (k0 + np.uint64(0x9E3779B9)) & np.uint64(M32), (k1 + np.uint64(0xBB67AE85)) & np.uint64(M32)
    return [w.astype(np.uint32) for w in c]


@triton.jit
def randint_k(out0, out1, base, seed, BLOCK: tl.constexpr):
    offs = base + tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.random.randint4x(seed, offs)
    tl.store(out0 + tl.arange(0, BLOCK) + tl.program_id(0) * BLOCK, r0)
    tl.store(out1 + tl.arange(0, BLOCK) + tl.program_id(0) * BLOCK, tl.randint(seed, offs))


@triton.jit
def rand4x_k(u, n, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b, c, d = tl.rand4x(seed, offs)
    e, f, g, h = tl.randn4x(seed, offs)
    tl.store(u + offs, a)
    tl.store(u + BLOCK + offs, d)
    tl.store(n + offs, e)
    tl.store(n + BLOCK + offs, h)


@triton.jit
def limits_k(x, y, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(y + i, tl.random.uint_to_uniform_float(tl.load(x + i)))


BLOCK = 256
for base in (0, 2**32 - 100, 3 * 2**40 + 7):
    seed = int(np.random.default_rng().integers(0, 2**40))
    o0 = np.empty(4 * BLOCK, np.int32)
    o1 = np.empty(4 * BLOCK, np.int32)
    randint_k[(4, )](o0, o1, base, seed, BLOCK=BLOCK)
    offs = np.arange(4 * BLOCK, dtype=np.uint64) + np.uint64(base)
    want = philox4x32(offs & np.uint64(M32), offs >> np.uint64(32), seed)[0]
    assert np.array_equal(o0.view(np.uint32), want), f"randint4x at base {base}: {o0.view(np.uint32)[:4]} != {want[:4]}"
    assert np.array_equal(o1, o0), "randint is randint4x's first word"

u = np.empty(2 * BLOCK, np.float32)
n = np.empty(2 * BLOCK, np.float32)
rand4x_k[(1, )](u, n, 7, BLOCK=BLOCK)
w = philox4x32(np.arange(BLOCK, dtype=np.uint64), np.zeros(BLOCK, np.uint64), 7)


def uniform(x):  # Triton's uint_to_uniform_float on 32-bit words
    s = x.view(np.int32).astype(np.int64)
    return (np.where(s < 0, -s - 1, s) * np.float32(4.6566127342e-10)).astype(np.float32)


assert np.allclose(u[:BLOCK], uniform(w[0]), rtol=0, atol=1e-7) and np.allclose(u[BLOCK:], uniform(w[3]), rtol=0, atol=1e-7)
u1, u2 = np.maximum(1e-7, uniform(w[0]).astype(np.float64)), uniform(w[1]).astype(np.float64)
assert np.allclose(n[:BLOCK], np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2), atol=1e-4)

for dt in (np.int32, np.int64):
    info = np.iinfo(dt)
    y = np.empty(2, np.float32)
    limits_k[(1, )](np.array([info.min, info.max], dt), y, N=2)
    assert y[0] == y[1] and 1 - np.finfo(np.float32).eps <= y[0] < 1, (dt, y)
print("random_offsets: 64-bit offsets give Triton's 32-bit Philox streams; rand4x, randn4x and limits agree")

# Triton's fp8 dtypes as kernel arguments: NumPy uint8 arrays through triton.reinterpret(x,
# tl.float8e5 / tl.float8e4nv) (as torch tensors over the same memory: Triton reinterprets
# tensors only; torch 2's float8_e5m2 / float8_e4m3fn tensors where torch has
# them), loads and stores of 1-byte elements, bitcasts from uint8, conversions to and from f32
# (round to nearest even, saturating) and tl.dot with fp8 operands, each checked against a
# float64 NumPy reference written here.
import numpy as np
import torch

import triton
import triton.language as tl

FORMATS = {"float8e5": (5, 2, 15, True), "float8e4nv": (4, 3, 7, False)}  # exp bits, man bits, bias, IEEE inf


def decode(bits, name):
    """The float64 value of each byte (NumPy, the textbook formula)."""
    e, m, bias, ieee = FORMATS[name]
    b = bits.astype(np.int64)
    sign = np.where(b >> 7, -1.0, 1.0)
    E, M = (b >> m) & ((1 << e) - 1), b & ((1 << m) - 1)
    val = np.where(E == 0, 2.0**(1 - bias) * M / 2**m, 2.0**(E - bias) * (1 + M / 2**m)) * sign
    top = E == (1 << e) - 1
    if ieee:
        val = np.where(top & (M == 0), sign * np.inf, np.where(top, np.nan, val))
    else:
        val = np.where(top & (M == (1 << m) - 1), np.nan, val)
    return val


def encode(x, name):
    """The byte nearest each value (ties to even), saturating at the largest finite value."""
    e, m, bias, ieee = FORMATS[name]
    table = decode(np.arange(256, dtype=np.uint8), name)
    finite = np.isfinite(table)
    out = np.empty(x.shape, dtype=np.uint8)
    for i, v in enumerate(np.asarray(x, dtype=np.float64).ravel()):
        if np.isnan(v):
            out.flat[i] = 0x7F
            continue
        big = table[finite].max()
        v = min(max(v, -big), big)
        err = np.where(finite, np.abs(table - v), np.inf)
        err[(table == 0) & (np.signbit(table) != np.signbit(v))] = np.inf
        best = np.flatnonzero(err == err.min())
        out.flat[i] = best[(best & 1) == 0][0] if len(best) > 1 else best[0]
    return out


@triton.jit
def widen(src, dst, bits_out, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(src + offs)
    tl.store(dst + offs, x.to(tl.float32))
    tl.store(bits_out + offs, x.to(tl.uint8, bitcast=True))


@triton.jit
def narrow(src, dst, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(dst + offs, tl.load(src + offs).to(dst.dtype.element_ty))


@triton.jit
def from_bits(src, dst, N: tl.constexpr, FP8: tl.constexpr):
    offs = tl.arange(0, N)
    b = tl.load(src + offs)
    tl.store(dst + offs, b.to(FP8, bitcast=True).to(tl.float16))


@triton.jit
def fp8_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))


def as_fp8(a, dt):
    return triton.reinterpret(torch.from_numpy(a), dt)  # the NumPy array's memory, in place


rng = np.random.default_rng(8)
every = np.arange(256, dtype=np.uint8)
for name in FORMATS:
    dt = getattr(tl, name)
    want = decode(every, name)
    got = np.zeros(256, dtype=np.float32)
    bits = np.zeros(256, dtype=np.uint8)
    widen[(1, )](as_fp8(every, dt), got, bits, N=256)
    assert np.array_equal(got.astype(np.float64), want, equal_nan=True), (name, got, want)
    assert np.array_equal(bits, every), name
    half = np.zeros(256, dtype=np.float16)
    from_bits[(1, )](every, half, N=256, FP8=dt)
    assert np.array_equal(half.astype(np.float64), want, equal_nan=True), name

    # Fresh f32 values across the whole range, beyond the largest finite one and the ties.
    big = np.nanmax(np.where(np.isfinite(want), want, np.nan))
    x = (np.exp2(rng.uniform(np.log2(big) - 24, np.log2(big) + 2, 1024)) * rng.choice([-1, 1], 1024)).astype(np.float32)
    x[:4] = [np.inf, -np.inf, 0.0, -0.0]
    mids = (want[:-1] + want[1:]) / 2
    mids = mids[np.isfinite(mids) & (want[:-1] >= 0) & (want[1:] > want[:-1])][:100].astype(np.float32)
    x[4:4 + len(mids)] = mids
    out = np.zeros(1024, dtype=np.uint8)
    narrow[(1, )](x, as_fp8(out, dt), N=1024)
    ref = encode(x, name)
    bad = np.flatnonzero(out != ref)
    assert len(bad) == 0, (name, x[bad[:5]], out[bad[:5]], ref[bad[:5]])

    # dot: exact products, f32 accumulation (the reference in float64, values small enough
    # that the f32 sums are exact).
    M = N = K = 16
    a8 = encode(rng.integers(-8, 9, (M, K)) / 4.0, name)
    b8 = encode(rng.integers(-8, 9, (K, N)) / 4.0, name)
    c = np.zeros((M, N), dtype=np.float32)
    fp8_dot[(1, )](as_fp8(a8, dt), as_fp8(b8, dt), c, M=M, N=N, K=K)
    assert np.array_equal(c.astype(np.float64), decode(a8, name) @ decode(b8, name)), name

# Triton's promotion and the ops that take fp8 values: a masked load's `other`, fp8 + fp16 in
# fp16, maximum and where exactly, tl.full of an fp8 dtype, tl.max of fp8 in f32.
@triton.jit
def mixed(x_ptr, h_ptr, o_ptr, m_ptr, c_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs, mask=offs < N - 2, other=1.5)
    tl.store(o_ptr + offs, x + tl.load(h_ptr + offs))
    tl.store(m_ptr + offs, tl.maximum(x, -x).to(tl.float32))
    tl.store(c_ptr + offs, tl.where(x > 0.25, x, tl.zeros_like(x)).to(tl.float32))
    tl.store(c_ptr + N + offs, tl.full((N, ), 3.0, tl.float8e5).to(tl.float32) + tl.max(x, axis=0))


x8 = np.array([0x38, 0xb8, 0x30, 0x7e, 0x01, 0x00, 0x11, 0x22], dtype=np.uint8)  # 1, -1, 0.5, 448, 2^-9, 0
xv = np.append(decode(x8, "float8e4nv")[:6], [1.5, 1.5])
o16, mo, co = np.zeros(8, dtype=np.float16), np.zeros(8, dtype=np.float32), np.zeros(16, dtype=np.float32)
mixed[(1, )](as_fp8(x8, tl.float8e4nv), np.ones(8, dtype=np.float16), o16, mo, co, N=8)
assert np.array_equal(o16, (xv + 1).astype(np.float16)), o16
assert np.array_equal(mo, np.abs(xv)) and np.array_equal(co[:8], np.where(xv > 0.25, xv, 0)), (mo, co)
assert np.all(co[8:] == 451.0), co


@triton.jit
def atomic_fp8(x_ptr):
    tl.atomic_add(x_ptr, 1.0)


try:
    atomic_fp8[(1, )](as_fp8(np.zeros(1, dtype=np.uint8), tl.float8e4nv))
    raise AssertionError("an fp8 atomic compiled")
except Exception as e:
    assert "atomic_add() does not support fp8e4nv" in str(e), e


# An operator whose computation type is an fp8 dtype: a located error (convert first).
@triton.jit
def add_fp8(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x + x)


try:
    add_fp8[(1, )](as_fp8(np.zeros(4, dtype=np.uint8), tl.float8e5), N=4)
    raise AssertionError("fp8 arithmetic compiled")
except Exception as e:  # a CompilationError naming the line
    assert "would compute in fp8e5" in str(e), e

if hasattr(torch, "float8_e5m2"):  # torch 2.1 and newer: fp8 tensors directly
    t = torch.tensor([1.0, -2.0, 448.0, 0.5]).to(torch.float8_e4m3fn)
    f = torch.zeros(4)
    widen[(1, )](t, f, torch.zeros(4, dtype=torch.uint8), N=4)
    assert f.tolist() == [1.0, -2.0, 448.0, 0.5], f
print("fp8 dtypes: ok")

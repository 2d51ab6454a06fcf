# tl.dot_scaled on fresh random inputs against a NumPy float64 reference that decodes every
# format from its definition (OCP MX: e2m1, e4m3fn, e5m2; e8m0 scales) and scales in Triton's
# compute dtype (bf16, fp16 when an operand is fp16): every code of each format decoded
# exactly, every pair of formats with and without scales, e2m1 packed along K and along M/N,
# 3-D operands, an accumulator, and the NaN scale.
import numpy as np

import triton
import triton.language as tl


def decode_table(fmt):
    """The value of each code of an MX element format, from its sign, exponent and mantissa."""
    ebits, mbits, bias = {"e2m1": (2, 1, 1), "e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}[fmt]
    out = []
    for c in range(1 << (1 + ebits + mbits)):
        s = -1.0 if c >> (ebits + mbits) else 1.0
        e = (c >> mbits) & ((1 << ebits) - 1)
        m = c & ((1 << mbits) - 1)
        if fmt == "e4m3" and e == 15 and m == 7:
            v = float("nan")
        elif fmt == "e5m2" and e == 31:
            v = float("inf") if m == 0 else float("nan")
        elif e == 0:
            v = m / (1 << mbits) * 2.0**(1 - bias)
        else:
            v = (1 + m / (1 << mbits)) * 2.0**(e - bias)
        out.append(s * v)
    return np.array(out, dtype=np.float64)


TABLES = {f: decode_table(f) for f in ("e2m1", "e4m3", "e5m2")}
assert list(TABLES["e2m1"][:8]) == [0, 0.5, 1, 1.5, 2, 3, 4, 6] and TABLES["e4m3"][0x7E] == 448
assert TABLES["e5m2"][0x7B] == 57344 and TABLES["e4m3"][1] == 2.0**-9 and TABLES["e5m2"][1] == 2.0**-16


def bf16_to_f64(u16):
    return (u16.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def to_bf16(x):
    """float64 values rounded to bfloat16 (nearest, ties to even; subnormals kept), as float64."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = np.where(np.isnan(x), 0x7FC00000, (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000)
    return u.astype(np.uint32).view(np.float32).astype(np.float64)


def reference(data, scale, fmt, k_pack, is_rhs, comp):
    """The operand as float64 ([..., M, K] for lhs, [..., K, N] for rhs), in Triton's compute
    dtype `comp` ("bf16" or "fp16"): scaled there, each product rounded to it."""
    rnd = to_bf16 if comp == "bf16" else (lambda x: x.astype(np.float16).astype(np.float64))
    if fmt == "e2m1":
        lo, hi = TABLES["e2m1"][data & 15], TABLES["e2m1"][data >> 4]
        axis = data.ndim - 1 if k_pack != is_rhs else data.ndim - 2
        v = np.stack([lo, hi], axis=axis + 1)
        shape = list(data.shape)
        shape[axis] *= 2
        v = v.reshape(shape)
    elif fmt in ("e4m3", "e5m2"):
        v = TABLES[fmt][data]
    elif fmt == "fp16":
        v = data.astype(np.float64)
    else:
        v = bf16_to_f64(data)
    v = rnd(v)
    if scale is not None:
        f = np.where(scale == 0, 0.0, 2.0**(scale.astype(np.float64) - 127))
        f = to_bf16(f) if comp == "bf16" else f.astype(np.float32).astype(np.float16).astype(np.float64)
        f = np.repeat(f, 32, axis=-1)
        nan = np.repeat(scale == 255, 32, axis=-1)
        if is_rhs:
            f, nan = np.swapaxes(f, -1, -2), np.swapaxes(nan, -1, -2)
        with np.errstate(invalid="ignore", over="ignore"):
            v = np.where(nan, np.nan, rnd(v * f))
    return v


def compute_dtype(fa, fb):
    return "fp16" if "fp16" in (fa, fb) else "bf16"


@triton.jit
def mx_kernel(A, SA, B, SB, C, Acc, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, AR: tl.constexpr,
              AC: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr, fa: tl.constexpr, fb: tl.constexpr,
              ka: tl.constexpr, kb: tl.constexpr, FM: tl.constexpr = False):
    a = tl.load(A + tl.arange(0, AR)[:, None] * AC + tl.arange(0, AC)[None, :])
    b = tl.load(B + tl.arange(0, BR)[:, None] * BC + tl.arange(0, BC)[None, :])
    if SA is not None:
        SA = tl.load(SA + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    if SB is not None:
        SB = tl.load(SB + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    if Acc is not None:
        c = tl.dot_scaled(a, SA, fa, b, SB, fb, acc=tl.load(Acc + offs), lhs_k_pack=ka, rhs_k_pack=kb, fast_math=FM)
    else:
        c = tl.dot_scaled(a, SA, fa, b, SB, fb, lhs_k_pack=ka, rhs_k_pack=kb, fast_math=FM)
    tl.store(C + offs, c)


@triton.jit
def mx_kernel_3d(A, SA, B, SB, C, Bt: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                 KA: tl.constexpr, fa: tl.constexpr, fb: tl.constexpr):
    i = tl.arange(0, Bt)[:, None, None]
    a = tl.load(A + i * (M * KA) + tl.arange(0, M)[None, :, None] * KA + tl.arange(0, KA)[None, None, :])
    b = tl.load(B + i * (K * N) + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    G: tl.constexpr = K // 32
    sa = tl.load(SA + i * (M * G) + tl.arange(0, M)[None, :, None] * G + tl.arange(0, G)[None, None, :])
    sb = tl.load(SB + i * (N * G) + tl.arange(0, N)[None, :, None] * G + tl.arange(0, G)[None, None, :])
    c = tl.dot_scaled(a, sa, fa, b, sb, fb)
    tl.store(C + i * (M * N) + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)


rng = np.random.default_rng()


def operand(fmt, rows, cols, finite=True):
    if fmt == "fp16":
        return rng.standard_normal((rows, cols)).astype(np.float16)
    if fmt == "bf16":
        return (rng.standard_normal((rows, cols)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    x = rng.integers(0, 256, (rows, cols), dtype=np.uint8)
    if finite and fmt != "e2m1":
        bad = np.isnan(TABLES[fmt][x]) | np.isinf(TABLES[fmt][x])
        x[bad] &= 0xF0  # a finite code with the same sign
    return x


def check(z, ref, absref, what):
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(z), nan), (what, "NaN positions differ")
    inf = np.isinf(ref)  # an operand overflowed the compute dtype (fp16 at large scales)
    assert np.array_equal(z[inf], ref[inf]), (what, "infinities differ")
    fin = ~nan & ~inf
    err = np.abs(z[fin] - ref[fin])
    bound = 2e-5 * absref[fin] + 1e-30
    assert (err <= bound).all(), (what, float((err / bound).max()))


def run(M, N, K, fa, fb, scaled_a, scaled_b, ka=True, kb=True, acc=False):
    pa = 2 if fa == "e2m1" else 1
    pb = 2 if fb == "e2m1" else 1
    AR, AC = (M, K // pa) if ka else (M // pa, K)
    BR, BC = (K // pb, N) if kb else (K, N // pb)
    a, b = operand(fa, AR, AC), operand(fb, BR, BC)
    sa = rng.integers(118, 136, (M, K // 32), dtype=np.uint8) if scaled_a else None
    sb = rng.integers(118, 136, (N, K // 32), dtype=np.uint8) if scaled_b else None
    c0 = rng.standard_normal((M, N)).astype(np.float32) if acc else None
    z = np.empty((M, N), dtype=np.float32)
    mx_kernel[(1,)](a, sa, b, sb, z, c0, M, N, K, AR, AC, BR, BC, fa, fb, ka, kb)
    comp = compute_dtype(fa, fb)
    ra, rb = reference(a, sa, fa, ka, False, comp), reference(b, sb, fb, kb, True, comp)
    with np.errstate(invalid="ignore"):  # inf * 0 where an operand overflowed
        ref, absref = ra @ rb, np.abs(ra) @ np.abs(rb)
    if acc:
        ref, absref = ref + c0, absref + np.abs(c0)
    check(z, ref, absref, (M, N, K, fa, fb, scaled_a, scaled_b, ka, kb, acc))


FORMATS = ["e2m1", "e4m3", "e5m2", "bf16", "fp16"]
cases = 0
for fa in FORMATS:
    for fb in FORMATS:
        for scaled_a, scaled_b in [(True, True), (True, False), (False, True), (False, False)]:
            M, N, K = [(32, 32, 64), (16, 64, 128), (64, 16, 32)][cases % 3]
            run(M, N, K, fa, fb, scaled_a, scaled_b)
            cases += 1
# e2m1 packed along M (lhs) and N (rhs), with an accumulator.
for ka, kb in [(False, True), (True, False), (False, False)]:
    run(32, 32, 64, "e2m1", "e2m1", True, True, ka, kb, acc=True)
    run(32, 64, 64, "e2m1", "fp16", True, False, ka, True)
    run(64, 32, 64, "e4m3", "e2m1", True, True, True, kb)
    cases += 3
run(32, 32, 64, "e4m3", "e5m2", True, True, acc=True)
cases += 1

# Every code of each format, decoded alone: row i of the lhs holds code i at k = j0 (the rest
# zeros); the rhs has ones in row j0, so row i of the product is the code's value (NaN and inf
# kept: nothing else is added to them but zeros; a dot's sum cannot show -0.0).
for fmt in ("e2m1", "e4m3", "e5m2"):
    n = 16 if fmt == "e2m1" else 256
    for j0 in ((0, 1) if fmt == "e2m1" else (5,)):
        if fmt == "e2m1":
            a = np.zeros((n, 16), dtype=np.uint8)
            a[:, j0 // 2] = np.arange(n, dtype=np.uint8) << (4 * (j0 % 2))
        else:
            a = np.zeros((n, 32), dtype=np.uint8)
            a[:, j0] = np.arange(n, dtype=np.uint8)
        b = np.zeros((32, 16), dtype=np.float16)
        b[j0, :] = 1
        sa = np.full((n, 1), 127, dtype=np.uint8)
        z = np.empty((n, 16), dtype=np.float32)
        mx_kernel[(1,)](a, sa, b, None, z, None, n, 16, 32, a.shape[0], a.shape[1], 32, 16, fmt, "fp16", True, True)
        want = TABLES[fmt][:n]
        got = z[:, 3].astype(np.float64)
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        assert same.all(), (fmt, j0, np.nonzero(~same)[0][:8], got[~same][:8], want[~same][:8])
        cases += 1

# Scales: 0xFF is NaN for its 32 elements, 0 reads as 0, 254 is 2^127.
a = np.full((16, 32), 0x38, dtype=np.uint8)  # e4m3 1.0
sa = np.array([[255], [0], [254], [127]] * 4, dtype=np.uint8)
b = np.ones((32, 16), dtype=np.float16)
z = np.empty((16, 16), dtype=np.float32)
mx_kernel[(1,)](a, sa, b, None, z, None, 16, 16, 32, 16, 32, 32, 16, "e4m3", "fp16", True, True)
assert np.isnan(z[0::4]).all() and (z[1::4] == 0).all() and (z[3::4] == 32).all()
assert (z[2::4] == np.float32(np.inf)).all()  # 2^127 overflows fp16, the compute dtype here
cases += 1
# With fast_math the code 0xFF is not masked: Triton's scale bits make it +inf (bf16 bits
# 0xFF << 7; for fp16 the f32 bits 0xFF << 23), so the products are inf, not NaN.
for fb, ones in (("bf16", np.full((32, 16), 0x3F80, np.uint16)), ("fp16", np.ones((32, 16), np.float16))):
    mx_kernel[(1,)](a, sa, ones, None, z, None, 16, 16, 32, 16, 32, 32, 16, "e4m3", fb, True, True, True)
    assert (z[0::4] == np.inf).all() and (z[1::4] == 0).all() and (z[3::4] == 32).all(), (fb, z[0::4])
    assert (z[2::4] == np.inf).all(), (fb, z[2::4])
    cases += 1

# 3-D operands: one microscaled product per leading index.
for fa, fb in [("e2m1", "e4m3"), ("e5m2", "bf16")]:
    Bt, M, N, K = 2, 16, 32, 64
    KA = K // 2 if fa == "e2m1" else K
    a = np.stack([operand(fa, M, KA) for _ in range(Bt)])
    b = np.stack([operand(fb, K, N) for _ in range(Bt)])
    sa = rng.integers(120, 134, (Bt, M, K // 32), dtype=np.uint8)
    sb = rng.integers(120, 134, (Bt, N, K // 32), dtype=np.uint8)
    z = np.empty((Bt, M, N), dtype=np.float32)
    mx_kernel_3d[(1,)](a, sa, b, sb, z, Bt, M, N, K, KA, fa, fb)
    comp = compute_dtype(fa, fb)
    ra, rb = reference(a, sa, fa, True, False, comp), reference(b, sb, fb, True, True, comp)
    check(z, ra @ rb, np.abs(ra) @ np.abs(rb), ("3-D", fa, fb))
    cases += 1
print(f"dot_scaled: {cases} cases agree with the float64 reference (every e2m1, e4m3 and e5m2 code decoded)")

# libdevice's math beyond tl.math's, called the three ways kernels spell it (the module, a
# renamed import, the cuda module): the transcendentals, rounding, predicates and bit functions,
# on fp32 and fp64 inputs, against NumPy in float64.
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda.libdevice import atan2 as my_atan2
from triton.language.extra.libdevice import log1p


@triton.jit
def libdevice_float_kernel(x, y, out, N: tl.constexpr):
    i = tl.arange(0, N)
    u = tl.load(x + i)  # in [0, 1)
    v = tl.load(y + i)  # normal
    row = out + i
    tl.store(row + 0 * N, libdevice.trunc(v * 4))
    tl.store(row + 1 * N, libdevice.round(v * 4))
    tl.store(row + 2 * N, libdevice.rint(v * 4))
    tl.store(row + 3 * N, libdevice.log10(u + 0.5))
    tl.store(row + 4 * N, log1p(u))
    tl.store(row + 5 * N, libdevice.expm1(v))
    tl.store(row + 6 * N, libdevice.sinh(v))
    tl.store(row + 7 * N, libdevice.cosh(v))
    tl.store(row + 8 * N, libdevice.tan(v))
    tl.store(row + 9 * N, libdevice.asin(u))
    tl.store(row + 10 * N, libdevice.acos(u))
    tl.store(row + 11 * N, libdevice.atan(v))
    tl.store(row + 12 * N, libdevice.asinh(v))
    tl.store(row + 13 * N, libdevice.acosh(u + 1))
    tl.store(row + 14 * N, libdevice.atanh(u * 0.9))
    tl.store(row + 15 * N, libdevice.erfc(v))
    tl.store(row + 16 * N, libdevice.cbrt(v))
    tl.store(row + 17 * N, libdevice.exp10(v))
    tl.store(row + 18 * N, my_atan2(v, u - 0.5))
    tl.store(row + 19 * N, libdevice.hypot(v, u))
    tl.store(row + 20 * N, libdevice.copysign(u, v))
    tl.store(row + 21 * N, libdevice.isnan(tl.where(v > 0, v, float("nan"))).to(x.dtype.element_ty))
    tl.store(row + 22 * N, libdevice.isinf(tl.where(v > 1, float("-inf"), v)).to(x.dtype.element_ty))
    tl.store(row + 23 * N, libdevice.signbit(v).to(x.dtype.element_ty))
    tl.store(row + 24 * N, libdevice.llrint(v * 4).to(x.dtype.element_ty))
    tl.store(row + 25 * N, libdevice.fmod(v * 4, u + 0.5))
    tl.store(row + 26 * N, libdevice.rcp_rn(u + 0.5))
    tl.store(row + 27 * N, libdevice.erfinv(u * 2 - 1))
    tl.store(row + 28 * N, libdevice.erfcinv(u * 2))
    tl.store(row + 29 * N, libdevice.normcdf(v * 3))
    tl.store(row + 30 * N, libdevice.normcdfinv(u))
    tl.store(row + 31 * N, libdevice.rcbrt(v))
    tl.store(row + 32 * N, libdevice.rhypot(v, u))
    tl.store(row + 33 * N, libdevice.fdim(v * 4, u))


@triton.jit
def libdevice_bits_kernel(x, out, N: tl.constexpr, HALF: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(x + i)
    r = libdevice.brev(a)
    tl.store(out + i, libdevice.clz(a).to(a.dtype))
    tl.store(out + N + i, libdevice.popc(a).to(a.dtype))
    tl.store(out + 2 * N + i, (r >> HALF) & ((1 << HALF) - 1))  # the halves: exact in float64
    tl.store(out + 3 * N + i, r & ((1 << HALF) - 1))

@triton.jit
def libdevice_int_kernel(x, y, out, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(x + i) * 21474836  # spread over all 32 bits
    b = tl.load(y + i) * 21474831 + 7
    tl.store(out + i, libdevice.mulhi(a, b))
    tl.store(out + N + i, libdevice.mul24(a, b))
    tl.store(out + 2 * N + i, libdevice.hadd(a, b))
    tl.store(out + 3 * N + i, libdevice.rhadd(a, b))
    tl.store(out + 4 * N + i, libdevice.ffs(a))
    tl.store(out + 5 * N + i, libdevice.ffs(a.to(tl.int64) << 20))

# RUN: -k libdevice_float_kernel -D N=128
# ARGS: x=rand:f32:128 y=randn:f32:128 out=empty:f32:34x128
# REF: u, v = x, y; f = lambda t: t.astype(np.float32).astype(np.float64)  # the kernel sums in fp32
# REF: out = np.stack([np.trunc(v * 4), np.where(np.abs(v * 4 - np.trunc(v * 4)) == 0.5, np.trunc(v * 4) + np.sign(v), np.round(v * 4)),
# REF:     np.rint(v * 4), np.log10(f(u + 0.5)), np.log1p(u), np.expm1(v), np.sinh(v), np.cosh(v), np.tan(v), np.arcsin(u), np.arccos(u),
# REF:     np.arctan(v), np.arcsinh(v), np.arccosh(f(u + 1)), np.arctanh(u * 0.9), np.array([__import__("math").erfc(t) for t in v]),
# REF:     np.cbrt(v), 10.0 ** v, np.arctan2(v, f(u - 0.5)), np.hypot(v, u), np.copysign(u, v), (v <= 0) * 1.0, (v > 1) * 1.0,
# REF:     np.signbit(v) * 1.0, np.rint(v * 4), np.fmod(v * 4, f(u + 0.5)), 1 / f(u + 0.5)]
# REF:     + [[D.inv_cdf((t + 1) / 2) / 2 ** 0.5 for t in f(u * 2 - 1)] for D in [__import__("statistics").NormalDist()]]
# REF:     + [[-D.inv_cdf(t) / 2 ** 0.5 for t in u] for D in [__import__("statistics").NormalDist()]]
# REF:     + [[0.5 * __import__("math").erfc(-t * 3 / 2 ** 0.5) for t in v]]
# REF:     + [[D.inv_cdf(t) for t in u] for D in [__import__("statistics").NormalDist()]]
# REF:     + [1 / np.cbrt(v), 1 / np.hypot(v, u), np.where(v * 4 > u, v * 4 - u, 0.0)])
# EXPECT: out
# TOL: 1e-5 1e-6
# RUN: -k libdevice_float_kernel -D N=64
# ARGS: x=rand:f64:64 y=randn:f64:64 out=empty:f64:34x64
# REF: u, v = x, y
# REF: out = np.stack([np.trunc(v * 4), np.where(np.abs(v * 4 - np.trunc(v * 4)) == 0.5, np.trunc(v * 4) + np.sign(v), np.round(v * 4)),
# REF:     np.rint(v * 4), np.log10(u + 0.5), np.log1p(u), np.expm1(v), np.sinh(v), np.cosh(v), np.tan(v), np.arcsin(u), np.arccos(u),
# REF:     np.arctan(v), np.arcsinh(v), np.arccosh(u + 1), np.arctanh(u * 0.9), np.array([__import__("math").erfc(t) for t in v]),
# REF:     np.cbrt(v), 10.0 ** v, np.arctan2(v, u - 0.5), np.hypot(v, u), np.copysign(u, v), (v <= 0) * 1.0, (v > 1) * 1.0,
# REF:     np.signbit(v) * 1.0, np.rint(v * 4), np.fmod(v * 4, u + 0.5), 1 / (u + 0.5)]
# REF:     + [[D.inv_cdf(t) / 2 ** 0.5 for t in u] for D in [__import__("statistics").NormalDist()]]
# REF:     + [[-D.inv_cdf(t) / 2 ** 0.5 for t in u] for D in [__import__("statistics").NormalDist()]]
# REF:     + [[0.5 * __import__("math").erfc(-t * 3 / 2 ** 0.5) for t in v]]
# REF:     + [[D.inv_cdf(t) for t in u] for D in [__import__("statistics").NormalDist()]]
# REF:     + [1 / np.cbrt(v), 1 / np.hypot(v, u), np.where(v * 4 > u, v * 4 - u, 0.0)])
# EXPECT: out
# TOL: 1e-12 1e-13
# RUN: -k libdevice_bits_kernel -D N=64 -D HALF=16
# ARGS: x=randint:i32:64 out=empty:i32:4x64
# REF: b = [int(t) & 0xFFFFFFFF for t in x.astype(np.int64)]
# REF: brev = [int(format(t, "032b")[::-1], 2) for t in b]
# REF: out = np.array([[32 - t.bit_length() for t in b], [bin(t).count("1") for t in b], [t >> 16 for t in brev],
# REF:                 [t & 0xFFFF for t in brev]], dtype=np.float64)
# EXPECT: out
# TOL: 0 0
# RUN: -k libdevice_bits_kernel -D N=32 -D HALF=32
# ARGS: x=randint:i64:32 out=empty:i64:4x32
# REF: b = [int(t) & 0xFFFFFFFFFFFFFFFF for t in x.astype(np.int64)]
# REF: brev = [int(format(t, "064b")[::-1], 2) for t in b]
# REF: out = np.array([[64 - t.bit_length() for t in b], [bin(t).count("1") for t in b], [t >> 32 for t in brev],
# REF:                 [t & 0xFFFFFFFF for t in brev]], dtype=np.float64)
# EXPECT: out
# TOL: 0 0
# RUN: -k libdevice_int_kernel -D N=64
# ARGS: x=randint:i32:64 y=randint:i32:64 out=empty:i32:6x64
# REF: w = lambda t: (int(t) + (1 << 31)) % (1 << 32) - (1 << 31)  # int32 wrap
# REF: a = [w(int(t) * 21474836) for t in x]; b = [w(int(t) * 21474831 + 7) for t in y]
# REF: s24 = lambda t: ((t & 0xFFFFFF) ^ 0x800000) - 0x800000
# REF: ffs = lambda t: (t & -t).bit_length()
# REF: out = np.array([[(p * q) >> 32 for p, q in zip(a, b)], [w(s24(p) * s24(q)) for p, q in zip(a, b)],
# REF:                 [(p + q) >> 1 for p, q in zip(a, b)], [(p + q + 1) >> 1 for p, q in zip(a, b)],
# REF:                 [ffs(p) for p in a], [ffs(p << 20) for p in a]], dtype=np.float64)
# EXPECT: out
# TOL: 0 0

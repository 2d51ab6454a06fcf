# 64-bit hashing as kernels write it: splitmix64 and FNV-1a, whose constants lie past INT64_MAX
# (Triton types such literals and module constants uint64), wrapping uint64 multiplies,
# logical shifts, tl.umulhi on uint64 and unsigned comparisons with 2^63.
import triton
import triton.language as tl

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


@triton.jit
def splitmix64(x):
    z = x + 0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)


@triton.jit
def hash64_kernel(x_ptr, mix_ptr, fnv_ptr, hi_ptr, top_ptr, n, SEED: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0).to(tl.uint64)
    h = splitmix64(x ^ SEED)
    tl.store(mix_ptr + offs, h.to(tl.int64, bitcast=True), mask=m)
    f = tl.full((BLOCK,), FNV_OFFSET, tl.uint64)
    for i in tl.static_range(4):
        f = (f ^ ((x >> (8 * i)) & 0xFF)) * FNV_PRIME
    tl.store(fnv_ptr + offs, f.to(tl.int64, bitcast=True), mask=m)
    tl.store(hi_ptr + offs, tl.umulhi(h, 0xD6E8FEB86659FD93).to(tl.int64, bitcast=True), mask=m)
    tl.store(top_ptr + offs, (h >= (1 << 63)).to(tl.int32), mask=m)

# RUN: -k hash64_kernel -D SEED=0xF0E1D2C3B4A59687 -D BLOCK=64 --grid 2
# ARGS: x_ptr=randint:i32:100 mix_ptr=empty:i64:100 fnv_ptr=empty:i64:100 hi_ptr=empty:i64:100 top_ptr=empty:i32:100 n=100
# REF: M = 2 ** 64; signed = lambda v: v - M if v >= 2 ** 63 else v
# REF: def mix(z):
# REF:     z = (z + 0x9E3779B97F4A7C15) % M
# REF:     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M
# REF:     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M
# REF:     return z ^ (z >> 31)
# REF: def fnv(x):
# REF:     f = 0xCBF29CE484222325
# REF:     for i in range(4): f = ((f ^ ((x >> (8 * i)) & 0xFF)) * 0x100000001B3) % M
# REF:     return f
# REF: xs = [int(v) % M for v in x_ptr]; hs = [mix(v ^ 0xF0E1D2C3B4A59687) for v in xs]
# REF: assert got["mix_ptr"].tolist() == [signed(h) for h in hs], "splitmix64 differs"
# REF: assert got["fnv_ptr"].tolist() == [signed(fnv(v)) for v in xs], "fnv-1a differs"
# REF: assert got["hi_ptr"].tolist() == [signed(h * 0xD6E8FEB86659FD93 >> 64) for h in hs], "umulhi differs"
# REF: top_ptr = np.array([h >= 2 ** 63 for h in hs])
# EXPECT: top_ptr
# TOL: 0 0

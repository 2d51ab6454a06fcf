# tl.inline_asm_elementwise in the style of Triton's test_core (test_inline_asm*): PTX per
# element (a funnel shift), four 8-bit elements packed into one register, PTX that loads and
# stores through pointers, several outputs, packed several outputs, f32 registers ("f"), a
# tile smaller than the program's threads, and PTX without operands (Triton's
# tl.extra.cuda.globaltimer, given to the kernel as an argument, and smid: test_globaltimer,
# test_smid). The GPU engine only (run_scripts.sh runs this folder
# with TILEVM_TEST_GPU=1); checked against NumPy on fresh random inputs.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def funnel_shift(X, Y, Z, n: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    s = tl.full([BLOCK], n, tl.int32)
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r, r, r", [x, y, s], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(Z + tl.arange(0, BLOCK), z)


@triton.jit
def shift_bytes(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(Y + tl.arange(0, BLOCK), y)


@triton.jit
def through_pointers(X, Y, BLOCK: tl.constexpr):
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;", "=r,l,l",
                              [X + tl.arange(0, BLOCK), Y + tl.arange(0, BLOCK)], dtype=tl.int8, is_pure=False,
                              pack=1)


@triton.jit
def differences(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    c, d = tl.inline_asm_elementwise("sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;", "=r,=r,r,r", [a, b],
                                     dtype=(tl.uint32, tl.uint32), is_pure=True, pack=1)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@triton.jit
def widen_and_max(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    c, d = tl.inline_asm_elementwise(
        """
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """, "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", [a, b], dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@triton.jit
def fma_f32(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise("fma.rn.f32 $0, $1, $1, $2;", "=f,f,f", [x, 1.0], dtype=tl.float32, is_pure=True,
                                  pack=1)
    tl.store(Y + offs, y)



@triton.jit
def timed(Out1, Out2, func: tl.constexpr):
    start = func()
    off = tl.arange(0, 128)
    for i in range(1000):
        tl.store(Out1 + off, tl.load(Out1 + off) + 1)
    end = func()
    tl.store(Out2, start)
    tl.store(Out2 + 1, end)


@triton.jit
def sm_ids(Out):
    tl.store(Out + tl.program_id(0), tl.extra.cuda.smid())

rs = np.random.default_rng()
x = rs.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
y = rs.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
z = np.zeros(128, np.uint32)
funnel_shift[(1, )](x, y, z, 17, BLOCK=128)
np.testing.assert_equal(z, (y << 17) | (x >> 15))

x8 = rs.integers(0, 256, 512).astype(np.uint8)
y8 = np.zeros_like(x8)
shift_bytes[(1, )](x8, y8, BLOCK=512)
np.testing.assert_equal(y8, (x8 & 0x1F) << 3)

y8 = np.zeros_like(x8)
through_pointers[(1, )](x8, y8, BLOCK=512)
np.testing.assert_equal(y8, (x8 << 3).astype(np.uint8))

a = rs.integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
b = rs.integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
c, d = np.zeros_like(a), np.zeros_like(a)
differences[(1, )](a, b, c, d, BLOCK=512)
np.testing.assert_equal(c, a - b)
np.testing.assert_equal(d, b - a)

a8 = rs.integers(0, 256, 512).astype(np.uint8)
bf = (rs.standard_normal(512) * 200).astype(np.float32)
ci, df = np.zeros(512, np.int32), np.zeros(512, np.float32)
widen_and_max[(1, )](a8, bf, ci, df, BLOCK=512)
np.testing.assert_equal(ci, a8.astype(np.int32))
np.testing.assert_equal(df, np.maximum(a8.astype(np.float32), bf))

for block in (64, 1024):  # 64: fewer elements than threads, each group guarded
    xf = rs.standard_normal(block).astype(np.float32)
    yf = np.zeros_like(xf)
    fma_f32[(1, )](xf, yf, BLOCK=block)
    np.testing.assert_allclose(yf, xf.astype(np.float64)**2 + 1, rtol=1e-6)
o1, o2 = np.zeros(128, np.int64), np.zeros(2, np.int64)
h = timed[(1, )](o1, o2, tl.extra.cuda.globaltimer)
np.testing.assert_equal(o1, np.full(128, 1000))
assert o2[1] - o2[0] > 0, o2  # nanoseconds passed
assert h.asm["ptx"].count("%globaltimer") == 2  # not pure: each read is its own

ids = np.full(1024, -1, np.int32)
h = sm_ids[(ids.size, )](ids)
assert ids.min() >= 0 and len(np.unique(ids)) > 1, np.unique(ids)
assert h.asm["ptx"].count("%smid") == 1
print("inline_asm: funnel shift, packed bytes, pointers, two outputs, packed outputs, f32 registers agree with NumPy;"
      " globaltimer advances, smid names several multiprocessors")

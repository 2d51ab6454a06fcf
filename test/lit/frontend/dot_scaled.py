# RUN: %tilevm compile %s -k mx -D FA=e2m1 -D FB='"bf16"' --signature 'a: *u8, sa: *u8, b: *u16, sb: *u8, c: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=FP4
# RUN: %tilevm compile %s -k mx -D FA=e5m2 -D FB='"fp16"' --signature 'a: *u8, sa: *u8, b: *fp16, sb: *u8, c: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=FP8
# RUN: not %tilevm compile %s -k mx -D FA=e3m2 -D FB='"fp16"' --signature 'a: *u8, sa: *u8, b: *fp16, sb: *u8, c: *fp32' 2>&1 | FileCheck %s --check-prefix=FORMAT
# RUN: not %tilevm compile %s -k mx -D FA=e4m3 -D FB='"bf16"' --signature 'a: *u8, sa: *u8, b: *fp16, sb: *u8, c: *fp32' 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not %tilevm compile %s -k bad_scale --signature 'a: *u8, sa: *u8, b: *fp16, c: *fp32' 2>&1 | FileCheck %s --check-prefix=SCALE
# RUN: not %tilevm compile %s -k bad_out --signature 'a: *u8, b: *fp16, c: *fp32' 2>&1 | FileCheck %s --check-prefix=OUT
# RUN: not %tilevm compile %s -k bad_pack --signature 'a: *u8, b: *fp16, c: *fp32' 2>&1 | FileCheck %s --check-prefix=PACK
# RUN: not %tilevm compile %s -k bad_k --signature 'a: *u8, b: *fp16, c: *fp32' 2>&1 | FileCheck %s --check-prefix=KDIM
# RUN: not %tilevm compile %s -k bad_batch --signature 'a: *u8, sa: *u8, b: *fp16, c: *fp32' 2>&1 | FileCheck %s --check-prefix=BATCH
# tl.dot_scaled is the prelude's, as Triton decomposes it: each format decoded by integer ops
# and bitcasts into the compute dtype (bf16; fp16 when an operand is fp16), the e8m0 scales
# broadcast over their 32 elements and multiplied in there (code 0xFF: NaN), one 16-bit dot
# into f32. What Triton refuses is a located error at the call.
import triton
import triton.language as tl


@triton.jit
def mx(a, sa, b, sb, c, FA: tl.constexpr, FB: tl.constexpr):
    PA: tl.constexpr = 32 if FA == "e2m1" else 64
    x = tl.load(a + tl.arange(0, 16)[:, None] * PA + tl.arange(0, PA)[None, :])
    y = tl.load(b + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    xs = tl.load(sa + tl.arange(0, 16)[:, None] * 2 + tl.arange(0, 2)[None, :])
    ys = tl.load(sb + tl.arange(0, 16)[:, None] * 2 + tl.arange(0, 2)[None, :])
    tl.store(c + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.dot_scaled(x, xs, FA, y, ys, FB))
# FP4-LABEL: kernel @mx(
# FP4: join {{.*}} : tile<16x32x2xf32>
# FP4: reshape {{.*}} : tile<16x64xf32>
# FP4: truncf {{.*}} : tile<16x64xbf16>
# FP4: broadcast {{.*}} : tile<16x2x32xi32>
# FP4: [[FACTOR:%[0-9]+]] = bitcast {{.*}} : tile<16x64xbf16>
# FP4: mulf {{%[0-9]+}}, [[FACTOR]] : tile<16x64xbf16>
# FP4: select {{.*}} : tile<16x64xbf16>
# FP4: permute {{.*}} : tile<64x16xi32>
# FP4: [[A:%[0-9]+]] = select {{.*}} : tile<64x16xbf16>
# FP4: dot {{%[0-9]+}}, [[A]], {{%[0-9]+}} : tile<16x16xf32>
# FP8-LABEL: kernel @mx(
# FP8: truncf {{.*}} : tile<16x64xf16>
# FP8: [[S32:%[0-9]+]] = bitcast {{.*}} : tile<16x64xf32>
# FP8: [[S16:%[0-9]+]] = truncf [[S32]] : tile<16x64xf16>
# FP8: mulf {{%[0-9]+}}, [[S16]] : tile<16x64xf16>
# FP8: dot {{.*}} : tile<16x16xf32>
# FORMAT: dot_scaled.py:[[#@LINE-18]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: dot_scaled: the formats are 'e2m1', 'e4m3', 'e5m2', 'bf16' and 'fp16'
# DTYPE: dot_scaled.py:[[#@LINE-19]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: dot_scaled: bf16 operands must be bfloat16 (or uint16)


@triton.jit
def bad_scale(a, sa, b, c):
    x = tl.load(a + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :])
    y = tl.load(b + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    xs = tl.load(sa + tl.arange(0, 16)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.store(c + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.dot_scaled(x, xs, "e4m3", y, None, "fp16"))
# SCALE: dot_scaled.py:[[#@LINE-1]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: dot_scaled: a scale tensor must be [M, K // 32] for lhs and [N, K // 32] for rhs (one e8m0 per 32 elements along K)


@triton.jit
def bad_out(a, b, c):
    x = tl.load(a + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :])
    y = tl.load(b + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.store(c + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.dot_scaled(x, None, "e4m3", y, None, "fp16", out_dtype=tl.float16))
# OUT: dot_scaled.py:[[#@LINE-1]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: Only float32 is supported for out_dtype at the moment


@triton.jit
def bad_pack(a, b, c):
    x = tl.load(a + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :])
    y = tl.load(b + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.store(c + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.dot_scaled(x, None, "e4m3", y, None, "fp16", lhs_k_pack=False))
# PACK: dot_scaled.py:[[#@LINE-1]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: dot_scaled: only mxfp4 inputs can be packed along a dimension different than K


@triton.jit
def bad_k(a, b, c):
    x = tl.load(a + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :])
    y = tl.load(b + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.store(c + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.dot_scaled(x, None, "e2m1", y, None, "fp16"))
# KDIM: dot_scaled.py:[[#@LINE-1]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: dot_scaled: the reduction dimension should pack the same number of elements


@triton.jit
def bad_batch(a, sa, b, c):
    i = tl.arange(0, 2)[:, None, None]
    x = tl.load(a + i * 1024 + tl.arange(0, 16)[None, :, None] * 64 + tl.arange(0, 64)[None, None, :])
    y = tl.load(b + i * 1024 + tl.arange(0, 64)[None, :, None] * 16 + tl.arange(0, 16)[None, None, :])
    xs = tl.load(sa + tl.arange(0, 16)[None, :, None] * 2 + tl.arange(0, 2)[None, None, :])  # batch 1, not 2
    z = tl.dot_scaled(x, xs, "e4m3", y, None, "fp16")
    tl.store(c + i * 256 + tl.arange(0, 16)[None, :, None] * 16 + tl.arange(0, 16)[None, None, :], z)
# BATCH: dot_scaled.py:[[#@LINE-2]]:{{[0-9]+}}: error: in dot_scaled(): static_assert failed: dot_scaled: a scale tensor must have the operand's rank and batch

# RUN: %tilevm compile %s -k bf16_any_out --signature 'a: *bf16, c: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=BF16
# RUN: not %tilevm compile %s -k uint8_dot --signature 'a: *u8, c: *i32' 2>&1 | FileCheck %s --check-prefix=UINT8
# RUN: not %tilevm compile %s -k bf16_out --signature 'a: *bf16, c: *fp32' 2>&1 | FileCheck %s --check-prefix=BF16OUT
# RUN: not %tilevm compile %s -k int8_acc --signature 'a: *i8, c: *i32' 2>&1 | FileCheck %s --check-prefix=ACC
# dot's result dtype as Triton's semantic.py gives it: bf16 (and fp32) operands give fp32 whatever
# out_dtype asks; uint8 has no dot ("only int8 supported!"); out_dtype=bfloat16 is refused; an
# accumulator must have out_dtype's dtype (an int32 one needs out_dtype=tl.int32).
import triton
import triton.language as tl


@triton.jit
def bf16_any_out(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    tl.store(c + r[:, None] * 16 + r[None, :], tl.dot(x, x, out_dtype=tl.float16))
# BF16: dot {{.*}} : tile<16x16xf32>


@triton.jit
def uint8_dot(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    tl.store(c + r[:, None] * 16 + r[None, :], tl.dot(x, x))
# UINT8: dot_out_dtype.py:[[#@LINE-1]]:{{[0-9]+}}: error: dot(): only int8 supported!, got uint8


@triton.jit
def bf16_out(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    tl.store(c + r[:, None] * 16 + r[None, :], tl.dot(x, x, out_dtype=tl.bfloat16).to(tl.float32))
# BF16OUT: dot_out_dtype.py:[[#@LINE-1]]:{{[0-9]+}}: error: out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`


@triton.jit
def int8_acc(a, c):
    r = tl.arange(0, 16)
    x = tl.load(a + r[:, None] * 16 + r[None, :])
    acc = tl.zeros((16, 16), dtype=tl.int32)
    acc = tl.dot(x, x, acc, out_dtype=tl.int32)
    acc = tl.dot(x, x, acc)
    tl.store(c + r[:, None] * 16 + r[None, :], acc)
# ACC: dot_out_dtype.py:[[#@LINE-2]]:{{[0-9]+}}: error: dot(): the accumulator is int32 but out_dtype is fp32 (the default): Triton requires them equal (pass out_dtype int32)

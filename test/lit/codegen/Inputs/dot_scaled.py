# Microscaled dots for the GPU code generator: the decode is integer and bitcast ops, then an
# f32 dot (tf32 where exact, ieee otherwise); 3-D operands stay on the interpreter.
import triton
import triton.language as tl


@triton.jit
def mx_dot(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
           fa: tl.constexpr, fb: tl.constexpr):
    PA: tl.constexpr = K // 2 if fa == "e2m1" else K
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * PA + tl.arange(0, PA)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    sa = tl.load(sa_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    if fb == "e5m2":
        sb = tl.load(sb_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
        c = tl.dot_scaled(a, sa, fa, b, sb, fb)
    else:
        c = tl.dot_scaled(a, sa, fa, b, None, fb)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


@triton.jit
def mx_dot_3d(a_ptr, sa_ptr, b_ptr, c_ptr):
    i = tl.arange(0, 2)[:, None, None]
    a = tl.load(a_ptr + i * 512 + tl.arange(0, 16)[None, :, None] * 32 + tl.arange(0, 32)[None, None, :])
    sa = tl.load(sa_ptr + i * 16 + tl.arange(0, 16)[None, :, None] + tl.arange(0, 1)[None, None, :])
    b = tl.load(b_ptr + i * 512 + tl.arange(0, 32)[None, :, None] * 16 + tl.arange(0, 16)[None, None, :])
    c = tl.dot_scaled(a, sa, "e4m3", b, None, "fp16")
    tl.store(c_ptr + i * 256 + tl.arange(0, 16)[None, :, None] * 16 + tl.arange(0, 16)[None, None, :], c)

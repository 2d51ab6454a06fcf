# f32 dots at Triton's split input precisions bf16x3, bf16x6 (each operand split into bf16
# parts) and tf32x3 (its tf32 rounding and the rest), as Triton's F32DotTC pass splits them, in
# the style of Triton's test_dot: fresh random inputs, against float64 references computed here
# from the same split, and against the exact product.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def matmul(X, Y, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PRECISION: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    x = tl.load(X + offs_m[:, None] * K + offs_k[None, :])
    y = tl.load(Y + offs_k[:, None] * N + offs_n[None, :])
    z = tl.load(Z + offs_m[:, None] * N + offs_n[None, :])
    z = tl.dot(x, y, z, input_precision=PRECISION)
    tl.store(Z + offs_m[:, None] * N + offs_n[None, :], z)


def bf16(a):
    """Rounds float32 to bfloat16 (nearest, ties to even), kept as float32."""
    u = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def tf32(a):
    """Rounds float32 to tf32 (nearest, ties away, as cvt.rna.tf32.f32), kept as float32."""
    u = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def parts(a, n):
    if n == 0:  # tf32x3: big, and the rest rounded to tf32 as its tf32 dot reads it
        big = tf32(a)
        return [big.astype(np.float64), tf32((a - big).astype(np.float32)).astype(np.float64)]
    out = []
    for i in range(n):
        p = bf16(a)
        a = (a - p).astype(np.float32)
        out.append(p.astype(np.float64))
    return out


rng = np.random.default_rng()
M, N, K = 32, 32, 64
x = rng.standard_normal((M, K)).astype(np.float32)
y = rng.standard_normal((K, N)).astype(np.float32)
acc = rng.standard_normal((M, N)).astype(np.float32)
exact = x.astype(np.float64) @ y.astype(np.float64) + acc
scale = np.abs(x.astype(np.float64)) @ np.abs(y.astype(np.float64)) + np.abs(acc)
for precision, n, pairs, bound in (("bf16x3", 2, ((0, 0), (0, 1), (1, 0)), 2.0**-15),
                                   ("bf16x6", 3, ((0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0)), 2.0**-21),
                                   ("tf32x3", 0, ((0, 0), (0, 1), (1, 0)), 2.0**-20)):
    z = acc.copy()
    matmul[(1, )](x, y, z, M=M, N=N, K=K, PRECISION=precision)
    xs, ys = parts(x, n), parts(y, n)
    split = sum(xs[i] @ ys[j] for i, j in pairs) + acc
    # What f32 accumulation of these terms may add, and what the dropped terms may leave.
    err_split = np.max(np.abs(z - split) / scale)
    assert err_split <= (K + 8) * 2.0**-24, f"{precision}: {err_split} from the split's products"
    err_exact = np.max(np.abs(z - exact) / scale)
    assert err_exact <= bound, f"{precision}: {err_exact} from the exact product"
    print(f"dot_precisions: {precision} within {err_split:.1e} of its split, {err_exact:.1e} of the exact product")

# An infinite input: its small parts are NaN (inf - inf), which the split replaces by zero, so
# the product is the infinity the hi parts give, as on Triton's GPU.
x[3, 5] = np.inf
y = (np.abs(y) + 0.5).astype(np.float32)
for precision in ("BF16X3", "bf16x6", "TF32x3"):  # Triton takes any case
    z = np.zeros((M, N), np.float32)
    matmul[(1, )](x, y, z, M=M, N=N, K=K, PRECISION=precision)
    assert np.all(np.isposinf(z[3])) and np.all(np.isfinite(np.delete(z, 3, axis=0))), (precision, z[3])
print("dot_precisions: an infinite input gives infinity, not NaN, at every split precision")

try:
    matmul[(1, )](x, y, z, M=M, N=N, K=K, PRECISION="bf16x9")
    raise SystemExit("bf16x9 was accepted")
except triton.CompilationError as e:
    assert "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got bf16x9" in str(e), e
print("dot_precisions: an unknown precision is refused in Triton's words")

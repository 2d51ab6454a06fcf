# Batched (3-D) and small dots in the style of Triton's test_dot3d, on fresh random inputs,
# against float64 references: f16 -> f32, f16 -> f16, f32 (ieee), f64 and int8 -> int32, batch
# sizes 1 to 8, and blocks smaller than 16. The GPU engine refuses them with a located error.
import numpy as np

import triton
import triton.language as tl

DEVICE = str(triton.runtime.driver.active.get_active_torch_device())


@triton.jit
def batched(q_ptr, k_ptr, o_ptr, stride_qb, stride_qm, stride_kb, stride_kk, stride_ob, stride_om,
            BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
            PRECISION: tl.constexpr, out_dtype: tl.constexpr):
    offs_b = tl.arange(0, BLOCK_B)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    q = tl.load(q_ptr + offs_b[:, None, None] * stride_qb + offs_m[None, :, None] * stride_qm + offs_k[None, None, :])
    k = tl.load(k_ptr + offs_b[:, None, None] * stride_kb + offs_k[None, :, None] * stride_kk + offs_n[None, None, :])
    qk = tl.dot(q, k, input_precision=PRECISION, out_dtype=out_dtype)
    tl.store(o_ptr + offs_b[:, None, None] * stride_ob + offs_m[None, :, None] * stride_om + offs_n[None, None, :], qk)


rng = np.random.default_rng()
cases = [  # B, M, N, K, BLOCK_M, BLOCK_N, input, output, tolerance relative to the sum of |products|
    (2, 64, 64, 64, 32, 32, "float16", "float32", 1e-6),
    (4, 32, 32, 32, 32, 32, "float16", "float16", 2e-3),
    (1, 32, 32, 32, 1, 32, "float32", "float32", 1e-6),
    (8, 32, 32, 32, 32, 2, "float32", "float32", 1e-6),
    (2, 32, 32, 32, 8, 8, "float64", "float64", 1e-15),
    (4, 64, 64, 64, 32, 32, "int8", "int32", 0),
]
refused = 0
for B, M, N, K, BM, BN, dt, out_dt, tol in cases:
    if dt == "int8":
        x = rng.integers(-128, 128, (B, M, K)).astype(np.int8)
        y = rng.integers(-128, 128, (B, K, N)).astype(np.int8)
    else:
        x = rng.standard_normal((B, M, K)).astype(dt)
        y = rng.standard_normal((B, K, N)).astype(dt)
    o = np.empty((B, M, N), dtype=out_dt)
    tl_out = {"float32": tl.float32, "float16": tl.float16, "float64": tl.float64, "int32": tl.int32}[out_dt]
    grid = (M // BM, N // BN)
    args = (x, y, o, x.strides[0] // x.itemsize, x.strides[1] // x.itemsize, y.strides[0] // y.itemsize,
            y.strides[1] // y.itemsize, o.strides[0] // o.itemsize, o.strides[1] // o.itemsize)
    meta = dict(BLOCK_B=B, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=K, PRECISION="ieee", out_dtype=tl_out)
    try:
        batched[grid](*args, **meta)
    except Exception as e:  # the GPU engine's located refusal (dims under 16), never a wrong result
        assert DEVICE != "cpu" and ("is not lowered to the GPU yet" in str(e) or "at least 16 on the GPU" in str(e)), e
        refused += 1
        continue
    ref = np.matmul(x.astype(np.float64), y.astype(np.float64))
    if dt == "int8":
        assert np.array_equal(o.astype(np.int64), ref.astype(np.int64)), "int8 dot differs from the exact product"
    else:
        scale = np.matmul(np.abs(x.astype(np.float64)), np.abs(y.astype(np.float64)))
        err = np.max(np.abs(o.astype(np.float64) - ref) / scale)
        assert err <= tol + np.finfo(out_dt).eps, f"{dt}->{out_dt} B={B} blocks {BM}x{BN}: relative error {err}"
print(f"dot3d: {len(cases) - refused} batched dots agree with float64, {refused} refused by the GPU engine with a located error")


# More leading dimensions: flattened into one batch, the result shaped back (Triton's
# test_dot_multidim builds these shapes with [2] * (RANK - 2)); acc positional and by keyword.
@triton.jit
def multidim(X, Y, Z, RANK: tl.constexpr):
    offs = tl.arange(0, 256 << RANK)
    shape: tl.constexpr = [2] * (RANK - 2) + [32, 32]
    x = tl.load(X + offs).reshape(shape)
    y = tl.load(Y + offs).reshape(shape)
    z = tl.dot(x, y, input_precision="ieee")
    z = tl.dot(x, y, z, "ieee")
    z = tl.dot(x, y, acc=z, input_precision="ieee")
    tl.store(Z + offs, z.reshape([256 << RANK]))


for rank in (4, 5):
    shape = [2] * (rank - 2) + [32, 32]
    x = rng.standard_normal(256 << rank).astype(np.float32)
    y = rng.standard_normal(256 << rank).astype(np.float32)
    z = np.zeros_like(x)
    multidim[(1, )](x, y, z, RANK=rank)
    ref = 3 * np.matmul(x.reshape(shape).astype(np.float64), y.reshape(shape).astype(np.float64))
    np.testing.assert_allclose(z.reshape(shape), ref, rtol=1e-4, atol=1e-4)
print("dot3d: 4-D and 5-D dots agree with float64")


# tl.trans without dims swaps the last two axes (a batched transpose), as Triton's.
@triton.jit
def batched_trans(X, Z):
    offs = tl.arange(0, 2 * 2 * 16 * 32)
    x = tl.load(X + offs).reshape(2, 2, 16, 32)
    tl.store(Z + offs, tl.trans(x).reshape(2 * 2 * 16 * 32))


x = rng.standard_normal(2 * 2 * 16 * 32).astype(np.float32)
z = np.zeros_like(x)
batched_trans[(1, )](x, z)
assert np.array_equal(z, x.reshape(2, 2, 16, 32).swapaxes(-1, -2).reshape(-1))
print("dot3d: tl.trans swaps the last two axes of a 4-D tile")

# Row-wise fp8 scaling in the style of torchao's float8 kernels: per row the absolute maximum,
# the scale float8_max / amax, x * scale clamped to +-448 and cast to float8e4nv (round to
# nearest even), then dequantized with the reciprocal scale. The reference quantizes in NumPy
# (f32 scale and product as the kernel computes them, rounding in float64).
import triton
import triton.language as tl

FP8_MAX: tl.constexpr = 448.0


@triton.jit
def rowwise_quantize(x_ptr, q_ptr, inv_scale_ptr, deq_ptr, N, BLOCK_N: tl.constexpr, EPS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
    amax = tl.max(tl.abs(x), axis=0)
    scale = FP8_MAX / tl.maximum(amax, EPS)
    y = tl.minimum(tl.maximum(x * scale, -FP8_MAX), FP8_MAX)
    q = y.to(tl.float8e4nv)
    tl.store(q_ptr + row * N + cols, q, mask=mask)
    tl.store(inv_scale_ptr + row, 1.0 / scale)
    tl.store(deq_ptr + row * N + cols, q.to(tl.float32) * (1.0 / scale), mask=mask)


# RUN: -k rowwise_quantize -D BLOCK_N=128 -D EPS=1e-12 --grid 6
# ARGS: x_ptr=randn:f32:6x100 q_ptr=empty:fp8e4nv:6x100 inv_scale_ptr=empty:f32:6 deq_ptr=empty:f32:6x100 N=100
# REF: x = x_ptr.astype(np.float32); amax = np.abs(x).max(axis=1)
# REF: scale = np.float32(448.0) / np.maximum(amax, np.float32(1e-12)); inv = np.float32(1.0) / scale
# REF: y = np.clip(x * scale[:, None], -448.0, 448.0).astype(np.float64)
# REF: e = np.maximum(np.floor(np.log2(np.maximum(np.abs(y), 2.0**-30))), -6); ulp = 2.0 ** (e - 3)
# REF: r = np.clip(np.round(y / ulp) * ulp, -448.0, 448.0)
# REF: ar = np.abs(r); sub = ar < 2.0**-6; E = np.where(sub, 0, np.floor(np.log2(np.where(sub, 1.0, ar))) + 7)
# REF: Mb = np.where(sub, ar / 2.0**-9, (ar / 2.0 ** (E - 7) - 1) * 8)
# REF: q_ptr = (np.signbit(r) * 128 + E * 8 + Mb).astype(np.uint8)
# REF: inv_scale_ptr = inv; deq_ptr = (r.astype(np.float32) * inv[:, None]).astype(np.float64)
# EXPECT: q_ptr inv_scale_ptr deq_ptr
# TOL: 0 0

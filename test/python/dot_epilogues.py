# A dot's result stored where Triton's test_dot stores it: row-major, and transposed (Z's
# strides (1, M), its 'trans' epilogue), in f32 and f16, from f16 and f32 (tf32 and ieee)
# inputs, 32 to 128 square, on 4 and 8 warps, and a masked transposed store that leaves the rows
# past m_valid alone. On the GPU engine a transposed result goes through shared memory and out
# 16 bytes down each column; checked against float64 NumPy on fresh random inputs.
import numpy as np

import triton
import triton.language as tl


@triton.jit
def dot_store(X, Y, Z, stride_zm, stride_zn, m_valid, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              PRECISION: tl.constexpr, MASKED: tl.constexpr):
    off_m = tl.arange(0, M)
    off_n = tl.arange(0, N)
    off_k = tl.arange(0, K)
    x = tl.load(X + off_m[:, None] * K + off_k[None, :])
    y = tl.load(Y + off_k[:, None] * N + off_n[None, :])
    z = tl.dot(x, y, input_precision=PRECISION).to(Z.dtype.element_ty)
    zs = Z + off_m[:, None] * stride_zm + off_n[None, :] * stride_zn
    if MASKED:
        tl.store(zs, z, mask=off_m[:, None] < m_valid)
    else:
        tl.store(zs, z)


rng = np.random.default_rng()
cases = 0
for size in (32, 64, 128):
    for in_dtype, precision in ((np.float16, "ieee"), (np.float32, "ieee"), (np.float32, "tf32")):
        for out_dtype in (np.float32, np.float16):
            for trans in (False, True):
                for num_warps in (4, 8):
                    masked = trans and size == 64
                    x = rng.standard_normal((size, size)).astype(in_dtype)
                    y = rng.standard_normal((size, size)).astype(in_dtype)
                    ref = (x.astype(np.float64) @ y.astype(np.float64)).astype(out_dtype)
                    sentinel = np.float32(-7.0).astype(out_dtype)
                    store = np.full((size, size), sentinel, out_dtype)  # Z as memory; a transposed view of it
                    z = store.T if trans else store
                    m_valid = size - 5
                    strides = (1, size) if trans else (size, 1)
                    dot_store[(1,)](x, y, store, *strides, m_valid, size, size, size, precision, masked, num_warps=num_warps)
                    want = ref.copy()
                    if masked:
                        want[m_valid:, :] = sentinel
                    tol = 1e-2 if precision == "tf32" or in_dtype == np.float16 or out_dtype == np.float16 else 1e-4
                    np.testing.assert_allclose(z.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol * size ** 0.5,
                                               err_msg=f"{size} {in_dtype.__name__} {precision} -> {out_dtype.__name__}, trans={trans}, "
                                                       f"masked={masked}, {num_warps} warps")
                    cases += 1
print(f"dot_epilogues: {cases} row-major and transposed results agree with float64 NumPy")

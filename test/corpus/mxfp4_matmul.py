# A matmul with MXFP4 weights, as low-precision serving kernels write it: fp16 activations times
# e2m1 weights packed two per byte along K with one e8m0 scale per 32 weights, tl.dot_scaled in
# a K loop with an accumulator, masked edges; and an e4m3 x e5m2 variant with both sides scaled.
import triton
import triton.language as tl


@triton.jit
def mxfp4_matmul_kernel(x_ptr, w_ptr, w_scale_ptr, out_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        offs_kp = k0 // 2 + tl.arange(0, BLOCK_K // 2)
        offs_ks = k0 // 32 + tl.arange(0, BLOCK_K // 32)
        x = tl.load(x_ptr + offs_m[:, None] * K + offs_k[None, :], mask=offs_m[:, None] < M, other=0.0)
        # w is stored [K // 2, N]: byte (k, n) holds weights 2k (low nibble) and 2k + 1.
        w = tl.load(w_ptr + offs_kp[:, None] * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0)
        w_scale = tl.load(w_scale_ptr + offs_n[:, None] * (K // 32) + offs_ks[None, :], mask=offs_n[:, None] < N,
                          other=127)
        acc = tl.dot_scaled(x, None, "fp16", w, w_scale, "e2m1", acc=acc)
    tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def mxfp8_matmul_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                        K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    c = tl.dot_scaled(a, a_scale, "e4m3", b, b_scale, "e5m2")
    tl.store(out_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)

# RUN: -k mxfp4_matmul_kernel -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=64 --grid 2,3
# ARGS: x_ptr=randn:f16:40x128 w_ptr=arange:u8:64x80 out_ptr=empty:f32:40x80 M=40 N=80 K=128
# ARGS: w_scale_ptr=list:u8:124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124,124
# REF: lut = np.array([0, .5, 1, 1.5, 2, 3, 4, 6, -0., -.5, -1, -1.5, -2, -3, -4, -6])
# REF: p = w_ptr.astype(np.int64); w = np.stack([lut[p & 15], lut[p >> 4]], axis=1).reshape(128, 80)
# REF: scale = np.repeat(2.0 ** (w_scale_ptr.reshape(80, 4) - 127), 32, axis=1).T
# REF: out_ptr = x_ptr @ (w * scale)
# EXPECT: out_ptr
# TOL: 1e-5 1e-5
# RUN: -k mxfp8_matmul_kernel -D M=32 -D N=32 -D K=64
# ARGS: a_ptr=randint:u8:32x64 b_ptr=randint:u8:64x32 out_ptr=empty:f32:32x32
# ARGS: a_scale_ptr=list:u8:122,127,132,126,131,125,130,124,129,123,128,122,127,132,126,131,125,130,124,129,123,128,122,127,132,126,131,125,130,124,129,123,128,122,127,132,126,131,125,130,124,129,123,128,122,127,132,126,131,125,130,124,129,123,128,122,127,132,126,131,125,130,124,129 b_scale_ptr=list:u8:121,124,127,130,133,123,126,129,132,122,125,128,131,121,124,127,130,133,123,126,129,132,122,125,128,131,121,124,127,130,133,123,126,129,132,122,125,128,131,121,124,127,130,133,123,126,129,132,122,125,128,131,121,124,127,130,133,123,126,129,132,122,125,128
# REF: def fp8(c, eb, mb, bias):
# REF:     c = c.astype(np.int64); e = (c >> mb) & ((1 << eb) - 1); m = c & ((1 << mb) - 1)
# REF:     v = np.where(e == 0, m / 2.0 ** mb * 2.0 ** (1 - bias), (1 + m / 2.0 ** mb) * 2.0 ** (e - bias))
# REF:     return np.where(c >> (eb + mb), -v, v)
# REF: a = fp8(a_ptr, 4, 3, 7) * np.repeat(2.0 ** (a_scale_ptr.reshape(32, 2) - 127), 32, axis=1)
# REF: b = fp8(b_ptr, 5, 2, 15) * np.repeat(2.0 ** (b_scale_ptr.reshape(32, 2) - 127), 32, axis=1).T
# REF: out_ptr = a @ b
# EXPECT: out_ptr
# TOL: 1e-5 1e-5

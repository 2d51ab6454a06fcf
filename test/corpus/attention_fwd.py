# Flash attention forward (online softmax over K/V blocks) in the style of Triton's fused
# attention tutorial, with a causal variant chosen by a constexpr and a scale from the host.
import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, start_m, qk_scale, N_CTX,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K_ptrs + (start_n + offs_n)[None, :] * HEAD_DIM)
        qk = tl.dot(q, k, input_precision="ieee")
        if CAUSAL:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V_ptrs + (start_n + offs_n)[:, None] * HEAD_DIM)
        acc = tl.dot(p, v, acc, input_precision="ieee")
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, Out, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    K_ptrs = K + base + offs_d[:, None]
    V_ptrs = V + base + offs_d[None, :]
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, start_m, qk_scale, N_CTX,
                                    BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL)
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc)

# RUN: -k _attn_fwd -D HEAD_DIM=16 -D BLOCK_M=16 -D BLOCK_N=16 -D CAUSAL=False --grid 4,2
# ARGS: Q=randn:f32:2x64x16 K=randn:f32:2x64x16 V=randn:f32:2x64x16 sm_scale=0.25 Out=empty:f32:2x64x16 N_CTX=64
# REF: s = np.einsum("hmd,hnd->hmn", Q, K) * 0.25; s -= s.max(-1, keepdims=True); p = np.exp(s)
# REF: Out = np.einsum("hmn,hnd->hmd", p / p.sum(-1, keepdims=True), V)
# EXPECT: Out
# TOL: 1e-4 1e-4
# RUN: -k _attn_fwd -D HEAD_DIM=16 -D BLOCK_M=16 -D BLOCK_N=16 -D CAUSAL=True --grid 4,2
# ARGS: Q=randn:f32:2x64x16 K=randn:f32:2x64x16 V=randn:f32:2x64x16 sm_scale=0.25 Out=empty:f32:2x64x16 N_CTX=64
# REF: s = np.einsum("hmd,hnd->hmn", Q, K) * 0.25
# REF: s = np.where(np.tril(np.ones((64, 64), bool)), s, -np.inf); s -= s.max(-1, keepdims=True); p = np.exp(s)
# REF: Out = np.einsum("hmn,hnd->hmd", p / p.sum(-1, keepdims=True), V)
# EXPECT: Out
# TOL: 1e-4 1e-4

# Flash attention forward (online softmax over key blocks), in the style of Triton's tutorial
# 06, for several heads, causal and not.
import math

import numpy as np

import triton
import triton.language as tl


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, Out, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, k, input_precision="ieee") * qk_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + (start_n + offs_n)[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p, v, acc * alpha[:, None], input_precision="ieee")
        m_i = m_ij
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc / l_i[:, None])


rng = np.random.default_rng()
Z_H, N_CTX, D = 4, 128, 32
q, k, v = (rng.standard_normal((Z_H, N_CTX, D)).astype(np.float32) for _ in range(3))
for causal in (False, True):
    out = np.empty_like(q)
    _attn_fwd[(N_CTX // 32, Z_H)](q, k, v, 1 / math.sqrt(D), out, N_CTX, HEAD_DIM=D, BLOCK_M=32, BLOCK_N=32,
                                  CAUSAL=causal)
    s = np.einsum("hmd,hnd->hmn", q.astype(np.float64), k) / math.sqrt(D)
    if causal:
        s = np.where(np.tril(np.ones((N_CTX, N_CTX), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    triton.testing.assert_close(out, np.einsum("hmn,hnd->hmd", p / p.sum(-1, keepdims=True), v), atol=1e-4, rtol=1e-4)
print("attention_fwd: ok (causal and not)")

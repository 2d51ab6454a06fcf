# Flash attention's inner loop with k loaded row by row ([BN, HEAD]) and transposed in the dot,
# as Triton's tutorial writes it (`tl.dot(q, tl.trans(k))`): test/lit/codegen/wgmma.test.
import triton
import triton.language as tl


@triton.jit
def attn_trans(Q, K, V, O, sm_scale, N_CTX: tl.constexpr, HEAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    base = tl.program_id(1) * N_CTX * HEAD
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD)
    q = tl.load(Q + base + offs_m[:, None] * HEAD + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float('inf')
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, HEAD], dtype=tl.float32)
    for start_n in range(0, N_CTX, BN):
        k = tl.load(K + base + (start_n + offs_n)[:, None] * HEAD + offs_d[None, :])
        qk = tl.dot(q, tl.trans(k)) * (sm_scale * 1.44269504)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + (start_n + offs_n)[:, None] * HEAD + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_ij
    tl.store(O + base + offs_m[:, None] * HEAD + offs_d[None, :], (acc / l_i[:, None]).to(O.dtype.element_ty))

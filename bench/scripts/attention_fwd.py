# Flash attention forward (online softmax over key blocks), in the style of Triton's tutorial 06.
import torch
import triton
import triton.language as tl

from common import LAUNCHES, launch, report, torch_seconds, torch_seconds_any


@triton.jit
def attn_fwd(Q, K, V, O, sm_scale, N_CTX: tl.constexpr, HEAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * N_CTX * HEAD
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD)
    q = tl.load(Q + base + offs_m[:, None] * HEAD + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, HEAD], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BN):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * HEAD + offs_d[:, None])
        qk = tl.dot(q, k) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * HEAD + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * HEAD + offs_d[None, :], acc.to(O.dtype.element_ty))


BH, N, D = 4, 512, 64
q, k, v = (torch.randn(BH, N, D) for _ in range(3))
o = torch.empty_like(q)
for _ in range(LAUNCHES):
    launch(attn_fwd, (N // 64, BH), q, k, v, o, D ** -0.5, N, HEAD=D, BM=64, BN=64)
ref = torch.softmax((q @ k.transpose(1, 2)) * D ** -0.5, -1) @ v
torch.testing.assert_close(o, ref, atol=2e-2, rtol=1e-2)
report("attention_fwd", LAUNCHES, *torch_seconds_any(lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v),
                                              lambda: torch.softmax((q @ k.transpose(1, 2)) * D ** -0.5, -1) @ v,
                                              "softmax(q k^T) v (no SDPA in this torch)"))

# An fp8 attention step (Triton's fused-attention tutorial with FP8_OUTPUT, in miniature): the
# scores of fp8 queries and keys, scaled and rounded to e5m2, feed the second dot as its A. The
# reference rounds as the kernel does (to e5m2, nearest even, saturating); a score that lies on a
# rounding boundary may round the other way from its f32 sum, one ulp of p, hence the tolerance.
import triton
import triton.language as tl


@triton.jit
def fp8_attention_chain_kernel(Q, K, VT, O, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    q = tl.load(Q + rm[:, None] * D + rd[None, :]).to(tl.float8e5)
    k = tl.load(K + rn[:, None] * D + rd[None, :]).to(tl.float8e5)
    vt = tl.load(VT + rd[:, None] * N + rn[None, :]).to(tl.float8e5)
    s = tl.dot(q, tl.trans(k))
    p = (s * 0.0625).to(tl.float8e5)
    o = tl.dot(p, tl.trans(vt))
    tl.store(O + rm[:, None] * D + rd[None, :], o)

# RUN: -k fp8_attention_chain_kernel -D M=64 -D N=64 -D D=64 --grid 1
# ARGS: Q=randn:f16:64x64 K=randn:f16:64x64 VT=randn:f16:64x64 O=empty:f32:64x64
# REF: e5 = lambda x: np.sign(x) * np.minimum(57344.0, np.round(np.abs(x) / 2.0 ** (np.floor(np.log2(np.maximum(np.abs(x), 2.0 ** -14))) - 2)) * 2.0 ** (np.floor(np.log2(np.maximum(np.abs(x), 2.0 ** -14))) - 2))
# REF: p = e5((e5(Q) @ e5(K).T) * 0.0625); O = p @ e5(VT).T
# EXPECT: O
# TOL: 5e-2 1.5

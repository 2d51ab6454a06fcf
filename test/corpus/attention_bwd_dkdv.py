# Flash attention's backward for dK and dV (the loop of Triton's fused-attention tutorial, in our
# own words): a block of keys against every block of queries, P recomputed from the stored row
# statistics, four dots per iteration. Q^T is read transposed through a pointer the loop
# advances, Q^T and dO each feed two dots (one through tl.trans), and the per-query vectors m and
# Di are broadcast over the columns of the scores.
import triton
import triton.language as tl


@triton.jit
def attn_bwd_dkdv_kernel(Q, K, V, DO, M, Di, DK, DV, N_CTX,
                         HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, HEAD)
    offs_m = tl.arange(0, BLOCK_M)
    k = tl.load(K + offs_n[:, None] * HEAD + offs_k[None, :])
    v = tl.load(V + offs_n[:, None] * HEAD + offs_k[None, :])
    dk = tl.zeros([BLOCK_N, HEAD], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD], dtype=tl.float32)
    qT_ptrs = Q + offs_m[None, :] * HEAD + offs_k[:, None]
    do_ptrs = DO + offs_m[:, None] * HEAD + offs_k[None, :]
    curr_m = 0
    for _ in range(N_CTX // BLOCK_M):
        qT = tl.load(qT_ptrs)
        m = tl.load(M + curr_m + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) * 0.125 - m[None, :])
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        d = tl.load(Di + curr_m + offs_m)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - d[None, :])
        dk += tl.dot(dsT.to(tl.float16), tl.trans(qT))
        curr_m += BLOCK_M
        qT_ptrs += BLOCK_M * HEAD
        do_ptrs += BLOCK_M * HEAD
    tl.store(DK + offs_n[:, None] * HEAD + offs_k[None, :], dk)
    tl.store(DV + offs_n[:, None] * HEAD + offs_k[None, :], dv)

# RUN: -k attn_bwd_dkdv_kernel -D HEAD=64 -D BLOCK_M=32 -D BLOCK_N=128 --grid 2
# ARGS: Q=randn:f16:256x64 K=randn:f16:256x64 V=randn:f16:256x64 DO=randn:f16:256x64
# ARGS: M=randn:f32:256 Di=randn:f32:256 DK=empty:f32:256x64 DV=empty:f32:256x64 N_CTX=256
# REF: p = 2.0 ** ((K @ Q.T) * 0.125 - M[None, :]); p16 = p.astype(np.float16).astype(np.float64)
# REF: DV = p16 @ DO
# REF: ds = (p * (V @ DO.T - Di[None, :])).astype(np.float16).astype(np.float64); DK = ds @ Q
# EXPECT: DK DV
# TOL: 2e-2 1e-1

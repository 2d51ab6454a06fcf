# 2-D strided loads and a transposed store, with pointers advanced by augmented assignment and
# a tile transposed with .T and tl.trans.
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(src, dst, M, N, stride_sm, stride_sn, stride_dm, stride_dn,
                     BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    src += rm[:, None] * stride_sm
    src += rn[None, :] * stride_sn
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tile = tl.load(src, mask=mask, other=0.0)
    out = dst + rn[:, None] * stride_dm + rm[None, :] * stride_dn
    tl.store(out, tile.T, mask=mask.T)
    # the same through tl.trans, scaled, into the second half of dst
    tl.store(out + N * stride_dm, tl.trans(tile) * 2.0, mask=tl.trans(mask))

# RUN: -k transpose_kernel -D BM=16 -D BN=32 --grid 3,2
# ARGS: src=randn:f32:40x50 dst=empty:f32:100x40 M=40 N=50 stride_sm=50 stride_sn=1 stride_dm=40 stride_dn=1
# REF: dst = np.concatenate([src.T, 2 * src.T])
# EXPECT: dst

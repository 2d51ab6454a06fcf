# Grouped GEMM through descriptors made in the kernel over pointer tables (the form of tutorial
# 08's TMA kernel): each problem's sizes and leading dimensions are loaded, so K is data and not
# a multiple of the block; the last block's columns past K read zeros. Rows are padded to
# multiples of 16 bytes, as TMA requires of a descriptor's strides.
import triton
import triton.language as tl


@triton.jit
def grouped_desc_matmul_kernel(a_ptrs, b_ptrs, c_ptrs, sizes, lds,
                               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    g = tl.program_id(1)
    gm = tl.load(sizes + g * 3)
    gn = tl.load(sizes + g * 3 + 1)
    gk = tl.load(sizes + g * 3 + 2)
    tiles_n = tl.cdiv(gn, BN)
    if tile < tl.cdiv(gm, BM) * tiles_n:
        a = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
        b = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
        c = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float16))
        a_desc = tl.make_tensor_descriptor(a, shape=[gm, gk], strides=[tl.load(lds + g * 3), 1], block_shape=[BM, BK])
        b_desc = tl.make_tensor_descriptor(b, shape=[gn, gk], strides=[tl.load(lds + g * 3 + 1), 1], block_shape=[BN, BK])
        c_desc = tl.make_tensor_descriptor(c, shape=[gm, gn], strides=[tl.load(lds + g * 3 + 2), 1], block_shape=[BM, BN])
        off_m = (tile // tiles_n) * BM
        off_n = (tile % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kk in range(0, tl.cdiv(gk, BK)):
            x = a_desc.load([off_m, kk * BK])
            y = b_desc.load([off_n, kk * BK])
            acc += tl.dot(x, y.T)
        c_desc.store([off_m, off_n], acc.to(tl.float16))

# RUN: -k grouped_desc_matmul_kernel -D BM=64 -D BN=64 -D BK=32 --grid 2,2
# ARGS: a0=randn:f16:70x56 b0=randn:f16:60x56 c0=zeros:f16:70x64
# ARGS: a1=randn:f16:40x40 b1=randn:f16:90x40 c1=zeros:f16:40x96
# ARGS: a_ptrs=ptrs:a0,a1 b_ptrs=ptrs:b0,b1 c_ptrs=ptrs:c0,c1
# ARGS: sizes=list:i32:70,60,50,40,90,36 lds=list:i32:56,56,64,40,40,96
# REF: c0 = np.zeros((70, 64)); c0[:, :60] = a0[:, :50] @ b0[:, :50].T
# REF: c1 = np.zeros((40, 96)); c1[:, :90] = a1[:, :36] @ b1[:, :36].T
# EXPECT: c0 c1
# TOL: 1e-2 1e-2

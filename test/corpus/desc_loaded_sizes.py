# Descriptors made in the kernel over sizes it loads, some of them empty: a size of 0 or below
# masks every element off (the block reads zeros), a size that is not a multiple of the block
# masks the tail. On the GPU at 3 stages each program builds these descriptors' tensor maps.
import triton
import triton.language as tl


@triton.jit
def desc_loaded_sizes_kernel(a, b, c, sizes, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    g = tl.program_id(0)
    m = tl.load(sizes + 2 * g)
    k = tl.load(sizes + 2 * g + 1)
    a_desc = tl.make_tensor_descriptor(a, shape=[m, k], strides=[64, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b, shape=[BN, k], strides=[64, 1], block_shape=[BN, BK])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, 64, BK):
        acc += tl.dot(a_desc.load([0, kk]), b_desc.load([0, kk]).T)
    tl.store(c + g * BM * BN + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)

# RUN: -k desc_loaded_sizes_kernel -D BM=64 -D BN=64 -D BK=32 --grid 6 --num-stages 3
# ARGS: a=randn:f16:64x64 b=randn:f16:64x64 c=empty:f32:6x64x64
# ARGS: sizes=list:i32:64,64,0,64,40,0,-3,50,17,33,64,-1
# REF: s = [(64, 64), (0, 64), (40, 0), (-3, 50), (17, 33), (64, -1)]
# REF: c = np.zeros((6, 64, 64))
# REF: for g, (m, k) in enumerate(s):
# REF:     A = np.zeros((64, 64)); B = np.zeros((64, 64))
# REF:     if m > 0 and k > 0: A[:m, :k] = a[:m, :k]
# REF:     if k > 0: B[:, :k] = b[:, :k]
# REF:     c[g] = A @ B.T
# EXPECT: c
# TOL: 1e-2 1e-2

# A matmul in the style of a compiler-generated template (a PyTorch-Inductor-like mm kernel):
# grouped program ordering, sizes and strides as kernel arguments with tl.assume facts about
# them, contiguity hints chosen by a stride test, rm % M wrapped loads, EVEN_K specialization,
# an ACC_TYPE constexpr, and a flat-index masked store with broadcast_to.
import triton
import triton.language as tl


@triton.jit
def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                          GROUP_M: tl.constexpr, EVEN_K: tl.constexpr, ALLOW_TF32: tl.constexpr,
                          ACC_TYPE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr):
    A = arg_A
    B = arg_B
    tl.assume(M > 0)
    tl.assume(N > 0)
    tl.assume(K > 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_bn > 0)

    # re-order program ID for better L2 performance
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        rbn = rn % N
    rk = tl.arange(0, BLOCK_K)
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk

    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)

    # inductor generates a suffix
    xindex = idx_n + (N * idx_m)
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), acc, mask)

# RUN: -k triton_tem_fused_mm_0 -D GROUP_M=8 -D EVEN_K=False -D ALLOW_TF32=False -D ACC_TYPE=tl.float32 -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16 --grid 6
# ARGS: arg_A=randn:f32:70x50 arg_B=randn:f32:50x40 out_ptr0=empty:f32:70x40 M=70 N=40 K=50
# ARGS: stride_am=50 stride_ak=1 stride_bk=40 stride_bn=1
# REF: out_ptr0 = arg_A @ arg_B
# EXPECT: out_ptr0
# TOL: 1e-4 1e-4
# RUN: -k triton_tem_fused_mm_0 -D GROUP_M=8 -D EVEN_K=True -D ALLOW_TF32=False -D ACC_TYPE=tl.float32 -D BLOCK_M=16 -D BLOCK_N=32 -D BLOCK_K=16 --grid 8
# ARGS: arg_A=randn:f16:64x64 arg_B=randn:f16:64x48 out_ptr0=empty:f32:64x48 M=64 N=48 K=64
# ARGS: stride_am=1 stride_ak=64 stride_bk=48 stride_bn=1
# REF: a = arg_A.reshape(-1).reshape(64, 64).T  # the buffer read as a column-major 64x64 A
# REF: out_ptr0 = a @ arg_B
# EXPECT: out_ptr0
# TOL: 1e-3 1e-3

# Tutorial-style matmul: grouped program ordering, autotune + heuristics (EVEN_K), masks on K,
# a fused activation chosen by a string constexpr, fp16 inputs with fp32 accumulation.
import triton
import triton.language as tl


def get_configs():
    return [
        triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 2},
                      num_stages=3, num_warps=4),
    ]


@triton.autotune(configs=get_configs(), key=["M", "N", "K"])
@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_SIZE_K"] == 0})
@triton.jit
def matmul_kernel(
        a_ptr, b_ptr, c_ptr,
        M, N, K,
        stride_am, stride_ak,  #
        stride_bk, stride_bn,  #
        stride_cm, stride_cn,
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,  #
        GROUP_SIZE_M: tl.constexpr,  #
        EVEN_K: tl.constexpr,
        ACTIVATION: tl.constexpr,  #
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        if EVEN_K:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(tl.float16)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)

# RUN: -k matmul_kernel -D BLOCK_SIZE_M=32 -D BLOCK_SIZE_N=32 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=2 -D EVEN_K=False -D ACTIVATION=leaky_relu --grid 9
# ARGS: a_ptr=randn:f16:70x50 b_ptr=randn:f16:50x90 c_ptr=empty:f16:70x90 M=70 N=90 K=50
# ARGS: stride_am=50 stride_ak=1 stride_bk=90 stride_bn=1 stride_cm=90 stride_cn=1
# REF: c = a_ptr @ b_ptr; c_ptr = np.where(c >= 0, c, 0.01 * c)
# EXPECT: c_ptr
# TOL: 2e-2 2e-2
# RUN: -k matmul_kernel -D BLOCK_SIZE_M=32 -D BLOCK_SIZE_N=32 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=2 -D EVEN_K=True -D ACTIVATION=None --grid 4
# ARGS: a_ptr=randn:f16:64x64 b_ptr=randn:f16:64x64 c_ptr=empty:f16:64x64 M=64 N=64 K=64
# ARGS: stride_am=64 stride_ak=1 stride_bk=64 stride_bn=1 stride_cm=64 stride_cn=1
# REF: c_ptr = a_ptr @ b_ptr
# EXPECT: c_ptr
# TOL: 2e-2 2e-2

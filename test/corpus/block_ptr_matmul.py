# Matmul through block pointers (Triton's block-pointer tutorial style): make_block_ptr with
# keyword arguments, tl.advance in the K loop, boundary_check and padding_option on loads, a
# boundary-checked store; sizes that are not multiples of the blocks.
import triton
import triton.language as tl


@triton.jit
def matmul_block_ptr_kernel(
        a_ptr, b_ptr, c_ptr,
        M, N, K,
        stride_am, stride_ak,
        stride_bk, stride_bn,
        stride_cm, stride_cn,
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    a_block_ptr = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                                    offsets=(pid_m * BLOCK_SIZE_M, 0), block_shape=(BLOCK_SIZE_M, BLOCK_SIZE_K),
                                    order=(1, 0))
    b_block_ptr = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                                    offsets=(0, pid_n * BLOCK_SIZE_N), block_shape=(BLOCK_SIZE_K, BLOCK_SIZE_N),
                                    order=(1, 0))
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        a = tl.load(a_block_ptr, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block_ptr, boundary_check=(0, 1), padding_option="zero")
        accumulator = tl.dot(a, b, accumulator, input_precision="ieee")
        a_block_ptr = tl.advance(a_block_ptr, (0, BLOCK_SIZE_K))
        b_block_ptr = tl.advance(b_block_ptr, (BLOCK_SIZE_K, 0))
    c = accumulator.to(tl.float32)
    c_block_ptr = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                                    offsets=(pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N),
                                    block_shape=(BLOCK_SIZE_M, BLOCK_SIZE_N), order=(1, 0))
    tl.store(c_block_ptr, c, boundary_check=(0, 1))


@triton.jit
def rows_block_ptr_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # A 2-D block checked along the rows only (columns fit), padded with NaN, and rows summed.
    pid = tl.program_id(0)
    x_bp = tl.make_block_ptr(x_ptr, (n_rows, n_cols), (n_cols, 1), (pid * BLOCK_R, 0), (BLOCK_R, BLOCK_C), (1, 0))
    x = tl.load(x_bp, boundary_check=(0,), padding_option="nan")
    s = tl.sum(tl.where(x == x, x, 0.0), axis=1)
    y_bp = tl.make_block_ptr(y_ptr, (n_rows,), (1,), (pid * BLOCK_R,), (BLOCK_R,), (0,))
    tl.store(y_bp, s, boundary_check=(0,))

# RUN: -k matmul_block_ptr_kernel -D BLOCK_SIZE_M=32 -D BLOCK_SIZE_N=32 -D BLOCK_SIZE_K=16 --grid 3,2
# ARGS: a_ptr=randn:f32:70x50 b_ptr=randn:f32:50x60 c_ptr=empty:f32:70x60 M=70 N=60 K=50
# ARGS: stride_am=50 stride_ak=1 stride_bk=60 stride_bn=1 stride_cm=60 stride_cn=1
# REF: c_ptr = a_ptr @ b_ptr
# EXPECT: c_ptr
# TOL: 1e-4 1e-4
# RUN: -k rows_block_ptr_kernel -D BLOCK_R=16 -D BLOCK_C=32 --grid 3
# ARGS: x_ptr=randn:f32:40x32 y_ptr=empty:f32:40 n_rows=40 n_cols=32
# REF: y_ptr = x_ptr.sum(axis=1)
# EXPECT: y_ptr
# TOL: 1e-5 1e-5

# Tensor descriptors: made in the kernel (tl.make_tensor_descriptor) and made on the host
# (a TensorDescriptor argument, given to tilevm as desc:ARRAY:BLOCK); loads past the edge read
# zeros and stores past it are dropped, as with TMA. Rows are multiples of 16 bytes, as TMA
# requires of a descriptor's strides (a kernel-made one that breaks it is a finding).
import triton
import triton.language as tl


@triton.jit
def desc_add_kernel(a_ptr, b_ptr, c_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    a = a_desc.load([off_m, off_n])
    b = b_desc.load([off_m, off_n])
    c_desc.store([off_m, off_n], a + 2.0 * b)


@triton.jit
def desc_matmul_kernel(a_desc, b_desc, c_desc, K,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc, input_precision="ieee")
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc)

# RUN: -k desc_add_kernel -D BLOCK_M=16 -D BLOCK_N=32 --grid 3,2
# ARGS: a_ptr=randn:f32:40x52 b_ptr=randn:f32:40x52 c_ptr=empty:f32:40x52 M=40 N=52
# REF: c_ptr = a_ptr + 2 * b_ptr
# EXPECT: c_ptr
# RUN: -k desc_matmul_kernel -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=16 --grid 2,2
# ARGS: a=randn:f32:50x40 b=randn:f32:40x60 c=empty:f32:50x60 K=40
# ARGS: a_desc=desc:a:32x16 b_desc=desc:b:16x32 c_desc=desc:c:32x32
# REF: c = a @ b
# EXPECT: c
# TOL: 1e-4 1e-4
# The same with f16 tiles (the tensor cores; on sm_90a with --num-stages 2 or more the TMA copies
# the blocks into the ring): K = 72 ends in a partial block, M and N in partial tiles.
# RUN: -k desc_matmul_kernel -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --grid 2,2
# ARGS: a=randn:f16:100x72 b=randn:f16:72x120 c=empty:f32:100x120 K=72
# ARGS: a_desc=desc:a:64x32 b_desc=desc:b:32x64 c_desc=desc:c:64x64
# REF: c = a @ b
# EXPECT: c
# TOL: 1e-3 1e-3


@triton.jit
def desc_matmul_nt_kernel(a_desc, b_desc, c_desc, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # B stored N x K and read transposed (Triton's persistent-matmul tutorial's descriptor form).
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([off_m, k * BLOCK_K])
        b = b_desc.load([off_n, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))

# RUN: -k desc_matmul_nt_kernel -D BLOCK_M=64 -D BLOCK_N=128 -D BLOCK_K=64 --grid 2,1
# ARGS: a=randn:f16:70x200 b=randn:f16:120x200 c=empty:f16:70x128 K=200
# ARGS: a_desc=desc:a:64x64 b_desc=desc:b:128x64 c_desc=desc:c:64x128
# REF: c = np.zeros((70, 128)); c[:, :120] = a @ b.T
# EXPECT: c
# TOL: 1e-2 1e-2


@triton.jit
def experimental_desc_kernel(a_desc_ptr, c_desc_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Triton 3.2's experimental host-made descriptors (create_2d_tma_descriptor on the host).
    pid = tl.program_id(0)
    a = tl._experimental_descriptor_load(a_desc_ptr, [pid * BLOCK_M, 0], [BLOCK_M, BLOCK_N], tl.float32)
    tl._experimental_descriptor_store(c_desc_ptr, a * a, [pid * BLOCK_M, 0])

# RUN: -k experimental_desc_kernel -D BLOCK_M=16 -D BLOCK_N=32 --grid 3
# ARGS: a=randn:f32:40x32 c=empty:f32:40x32 a_desc_ptr=desc:a:16x32 c_desc_ptr=desc:c:16x32
# REF: c = a * a
# EXPECT: c


@triton.jit
def _desc_or_make(desc_or_ptr, shape, strides, block_shape):
    # The attention tutorial's helper: a host-made descriptor is used as it is; a pointer gets
    # a descriptor made in the kernel (isinstance is decided at compile time).
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@triton.jit
def desc_or_ptr_kernel(x, y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    dx = _desc_or_make(x, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    dy = _desc_or_make(y, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    om = tl.program_id(0) * BLOCK_M
    on = tl.program_id(1) * BLOCK_N
    # .T of a loaded block, stored transposed back: the block as loaded, edges zero-padded.
    t = dx.load([om, on]).T
    dy.store([om, on], tl.trans(t) * 3.0 + 1.0)

# RUN: -k desc_or_ptr_kernel -D BLOCK_M=16 -D BLOCK_N=8 --grid 3,4
# ARGS: x=randn:f32:37x28 y=empty:f32:37x28 M=37 N=28
# REF: y = x * 3.0 + 1.0
# EXPECT: y
# RUN: -k desc_or_ptr_kernel -D BLOCK_M=16 -D BLOCK_N=8 --grid 3,4
# ARGS: a=randn:f32:37x32 b=empty:f32:37x32 M=37 N=32 x=desc:a:16x8 y=desc:b:16x8
# REF: b = a * 3.0 + 1.0
# EXPECT: b

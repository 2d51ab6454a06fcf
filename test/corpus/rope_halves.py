# Rotary embedding on the two halves of each head (Liger / unsloth style): tl.where on a
# constexpr condition, head and dim padding with masks, in-place update of q.
import triton
import triton.language as tl


@triton.jit
def rope_kernel(q_ptr, q_row_stride, cos, sin, cos_row_stride, sl,
                n_qh: tl.constexpr, hd: tl.constexpr, pad_n_qh: tl.constexpr, pad_hd: tl.constexpr,
                BACKWARD_PASS: tl.constexpr = False):
    pid = tl.program_id(0).to(tl.int64)
    q_ptr = q_ptr + pid * q_row_stride
    row = pid % sl
    cos = cos + row * cos_row_stride
    sin = sin + row * cos_row_stride
    half = tl.arange(0, pad_hd // 2)
    cmask = half < hd // 2
    c = tl.load(cos + half, mask=cmask, other=0)
    s = tl.load(sin + half, mask=cmask, other=0)
    if BACKWARD_PASS:
        s = -s
    offs1 = tl.arange(0, pad_n_qh)[:, None] * hd + half[None, :]
    m = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & cmask[None, :]
    q1 = tl.load(q_ptr + offs1, mask=m, other=0)
    q2 = tl.load(q_ptr + offs1 + hd // 2, mask=m, other=0)
    tl.store(q_ptr + offs1, q1 * c - q2 * s, mask=m)
    tl.store(q_ptr + offs1 + hd // 2, q2 * c + q1 * s, mask=m)

# RUN: -k rope_kernel -D n_qh=3 -D hd=12 -D pad_n_qh=4 -D pad_hd=16 --grid 10
# ARGS: q_ptr=randn:f32:10x3x12 q_row_stride=36 cos=rand:f32:5x6 sin=rand:f32:5x6 cos_row_stride=6 sl=5
# REF: q1 = q_ptr[..., :6]; q2 = q_ptr[..., 6:]; rows = np.arange(10) % 5
# REF: c = cos[rows][:, None, :]; s = sin[rows][:, None, :]
# REF: q_ptr = np.concatenate([q1 * c - q2 * s, q2 * c + q1 * s], axis=-1)
# EXPECT: q_ptr
# TOL: 1e-6 1e-6

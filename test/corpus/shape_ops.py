# Shape operations: reshape, permute, join/split, cat, expand_dims and broadcast_to, and
# None-indexing to build 3-D tiles.
import triton
import triton.language as tl


@triton.jit
def shapes_kernel(x_ptr, y_ptr, z_ptr, w_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    flat = tl.reshape(x, (R * C,))
    tl.store(y_ptr + tl.arange(0, R * C), flat * 2.0)
    pairs = tl.join(x, x + 1.0)             # (R, C, 2)
    a, b = tl.split(pairs)
    t = tl.permute(tl.expand_dims(a + b, 2), (1, 0, 2))   # (C, R, 1)
    tl.store(z_ptr + c[:, None, None] * R + r[None, :, None] + tl.zeros((1, 1, 1), tl.int32), t)
    both = tl.broadcast_to(tl.sum(x, axis=1)[:, None], (R, C))
    tl.store(w_ptr + r[:, None] * C + c[None, :], both)

# RUN: -k shapes_kernel -D R=8 -D C=16 --grid 1
# ARGS: x_ptr=randn:f32:8x16 y_ptr=empty:f32:128 z_ptr=empty:f32:16x8 w_ptr=empty:f32:8x16
# REF: y_ptr = x_ptr.reshape(-1) * 2; z_ptr = (2 * x_ptr + 1).T
# REF: w_ptr = np.repeat(x_ptr.sum(1, keepdims=True), 16, axis=1)
# EXPECT: y_ptr z_ptr w_ptr
# TOL: 1e-5 1e-5

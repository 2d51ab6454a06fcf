# Softmax over rows wider than one block (Liger style): a first pass keeps the running max and
# sum (online softmax), a second pass writes the normalized values; negative infinity padding.
import triton
import triton.language as tl


@triton.jit
def _softmax_multi_block(Y_ptr, Y_row_stride, X_ptr, X_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_id = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    m = tl.float32(-float("inf"))
    d = tl.float32(0.0)
    for start in tl.range(0, n_cols, BLOCK_SIZE):
        idx = start + offs
        mask = idx < n_cols
        xblk = tl.load(X_ptr + row_id * X_row_stride + idx, mask=mask, other=-float("inf"), cache_modifier=".ca")
        blk_max = tl.max(xblk, axis=0)
        new_m = tl.maximum(m, blk_max)
        d = d * tl.exp(m - new_m) + tl.sum(tl.exp(xblk - new_m), axis=0)
        m = new_m
    for start in tl.range(0, n_cols, BLOCK_SIZE):
        idx = start + offs
        mask = idx < n_cols
        xblk = tl.load(X_ptr + row_id * X_row_stride + idx, mask=mask, other=-float("inf"))
        tl.store(Y_ptr + row_id * Y_row_stride + idx, tl.exp(xblk - m) / d, mask=mask, cache_modifier=".cs")

# RUN: -k _softmax_multi_block -D BLOCK_SIZE=64 --grid 5
# ARGS: Y_ptr=empty:f32:5x300 Y_row_stride=300 X_ptr=randn:f32:5x300 X_row_stride=300 n_cols=300
# REF: e = np.exp(X_ptr - X_ptr.max(1, keepdims=True)); Y_ptr = e / e.sum(1, keepdims=True)
# EXPECT: Y_ptr
# TOL: 1e-5 1e-6

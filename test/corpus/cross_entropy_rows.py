# Cross entropy per row with an online softmax over column blocks (flash-attention / Liger
# style): numbers that become tensors in loops, int64 labels, ignore_index handled by runtime ifs
# that assign numbers in one branch and tensors in the other.
import triton
import triton.language as tl


@triton.heuristics({"HAS_SMOOTHING": lambda args: args["smoothing"] > 0.0})
@triton.jit
def ce_fwd_kernel(loss_ptr, logits_ptr, labels_ptr, smoothing, ignore_index, n_cols, row_stride,
                  BLOCK_SIZE: tl.constexpr, HAS_SMOOTHING: tl.constexpr):
    row = tl.program_id(0)
    logits_ptr = logits_ptr + row * row_stride.to(tl.int64)
    m_i = -float("inf")
    l_i = 0.0
    sum_logits = 0.0
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        z = tl.load(logits_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        if HAS_SMOOTHING:
            sum_logits += tl.sum(tl.where(cols < n_cols, z, 0.0))
        m_new = tl.maximum(m_i, tl.max(z))
        l_i = tl.exp(m_i - m_new) * l_i + tl.sum(tl.exp(z - m_new))
        m_i = m_new
    lse = tl.log(l_i) + m_i
    label = tl.load(labels_ptr + row)
    if label == ignore_index:
        loss = 0.0
    else:
        target = tl.load(logits_ptr + label)
        if HAS_SMOOTHING:
            loss = lse - smoothing * sum_logits / n_cols - (1 - smoothing) * target
        else:
            loss = lse - target
    tl.store(loss_ptr + row, loss)

# RUN: -k ce_fwd_kernel -D BLOCK_SIZE=64 -D HAS_SMOOTHING=True --grid 6
# ARGS: loss_ptr=empty:f32:6 logits_ptr=randn:f32:6x150 labels_ptr=list:i64:3,-100,149,0,77,12
# ARGS: smoothing=0.1 ignore_index=-100 n_cols=150 row_stride=150
# REF: lse = np.log(np.exp(logits_ptr).sum(1)); lab = labels_ptr.astype(int)
# REF: tgt = np.array([logits_ptr[i, l] if l >= 0 else 0 for i, l in enumerate(lab)])
# REF: loss_ptr = np.where(lab == -100, 0, lse - 0.1 * logits_ptr.mean(1) - 0.9 * tgt)
# EXPECT: loss_ptr
# TOL: 1e-5 1e-5

# Kernels whose masks an op regroups (a transpose, a join): each run's mask values differ, so
# no run may be one predicated vector access (test/lit/codegen/axes.test).
import triton
import triton.language as tl


@triton.jit
def trans_mask(x, y, BM: tl.constexpr, BN: tl.constexpr):
    om = tl.arange(0, BM)
    on = tl.arange(0, BN)
    m = tl.broadcast_to(om[:, None] < 5, (BM, BN))  # constant along each row
    offs = on[:, None] * BM + om[None, :]
    tl.store(y + offs, tl.load(x + offs, mask=tl.trans(m), other=0.0))  # varies along each row


@triton.jit
def join_mask(x, y, B: tl.constexpr):
    o = tl.arange(0, B)
    m = tl.join(o < 8, o < 0)  # [B, 2]: true, false, true, false, ...
    offs = tl.arange(0, B)[:, None] * 2 + tl.arange(0, 2)[None, :]
    tl.store(y + offs, tl.load(x + offs, mask=m, other=0.0))

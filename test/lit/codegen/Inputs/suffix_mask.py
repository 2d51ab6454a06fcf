# A dot whose operands are masked true on a suffix of each 16-byte run (`k >= lo`, lo not known
# to be a multiple of 8): a cp.async reads a prefix of its 16 bytes, so these stay out of the ring.
import triton
import triton.language as tl


@triton.jit
def suffix_mm(a, b, c, lo, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, 4):
        av = tl.load(a + rm[:, None] * 4 * BK + k * BK + rk[None, :], mask=k * BK + rk[None, :] >= lo, other=0.)
        bv = tl.load(b + (k * BK + rk[:, None]) * BN + rn[None, :], mask=rn[None, :] >= lo, other=0.)
        acc = tl.dot(av, bv, acc)
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)

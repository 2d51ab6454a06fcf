# Used by ptx.test: a transpose of a 128x128 f32 tile of loaded data, whose layout change needs
# 64 KiB of shared memory, past what the code generator uses (48 KiB of static shared memory).
import triton
import triton.language as tl


@triton.jit
def big_transpose(x, y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tile = tl.load(x + offs[:, None] * N + offs[None, :])
    tl.store(y + offs[:, None] * N + offs[None, :], tl.trans(tile))

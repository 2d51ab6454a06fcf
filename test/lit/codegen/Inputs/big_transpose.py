# Used by ptx.test: a transpose of an NxN f32 tile of loaded data, whose layout change needs
# N*N*4 bytes of shared memory: 64 KiB at N=128 (past 48 KiB: dynamic shared memory), 256 KiB at
# N=256 (past what one program may hold).
import triton
import triton.language as tl


@triton.jit
def big_transpose(x, y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tile = tl.load(x + offs[:, None] * N + offs[None, :])
    tl.store(y + offs[:, None] * N + offs[None, :], tl.trans(tile))

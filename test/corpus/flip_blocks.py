# Reversals with tl.flip (Triton's standard.flip): each row of a block reversed, as
# torch.flip(x, dims=[1]) for a power-of-two width, and the rows of each block in reverse order
# (flip along dim 0), scaled; the reversed column index is stored beside them.
import triton
import triton.language as tl


@triton.jit
def flip_blocks(X, Y, Z, IDX, stride, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(X + offs)
    tl.store(Y + offs, tl.flip(x))
    tl.store(Z + offs, x.flip(0) * 2.0)
    tl.store(IDX + pid * BN + cols, tl.flip(cols, dim=0))

# RUN: -k flip_blocks -D BM=4 -D BN=32 --grid 4
# ARGS: X=randn:f32:16x32 Y=empty:f32:16x32 Z=empty:f32:16x32 IDX=empty:i32:4x32 stride=32
# REF: Y = X[:, ::-1]
# REF: Z = 2 * X.reshape(4, 4, 32)[:, ::-1, :].reshape(16, 32)
# REF: IDX = np.tile(np.arange(31, -1, -1), (4, 1))
# EXPECT: Y Z IDX
# TOL: 0 0

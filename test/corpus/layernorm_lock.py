# Layer norm backward in the style of Triton's tutorial: partial weight gradients accumulated
# across programs under a spin lock built from atomic_cas / atomic_xchg, then reduced.
import triton
import triton.language as tl


@triton.jit
def _ln_bwd_dx_fused(DX, DY, DW, X, W, Mean, Rstd, Lock, stride, N,
                     GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.atomic_xchg(Lock, 0)

# RUN: -k _ln_bwd_dx_fused -D GROUP_SIZE_M=3 -D BLOCK_SIZE_N=64 --grid 12
# ARGS: DX=empty:f32:12x50 DY=randn:f32:12x50 DW=zeros:f32:3x50 X=randn:f32:12x50 W=randn:f32:50
# ARGS: Mean=randn:f32:12 Rstd=rand:f32:12 Lock=zeros:i32:6 stride=50 N=50
# REF: xh = (X - Mean[:, None]) * Rstd[:, None]; wdy = W * DY
# REF: c1 = (xh * wdy).mean(axis=1, keepdims=True); c2 = wdy.mean(axis=1, keepdims=True)
# REF: DX = (wdy - (xh * c1 + c2)) * Rstd[:, None]
# REF: DW = np.stack([(DY * xh)[g::3].sum(axis=0) for g in range(3)])
# EXPECT: DX DW
# TOL: 1e-4 1e-5

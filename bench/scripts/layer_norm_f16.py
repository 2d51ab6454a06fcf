# Layer norm forward in half precision, in the style of Triton's tutorial 05 (one row per
# program, statistics in f32).
import torch
import triton
import triton.language as tl

from common import LAUNCHES, launch, report, torch_seconds, torch_seconds_any


@triton.jit
def _layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(mask, x - mean, 0.)
    var = tl.sum(xbar * xbar, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    y = xbar * rstd * w + b
    tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=mask)


M, N = 1151, 8192
dtype = torch.float16
x = torch.randn(M, N).to(dtype)
w, b = torch.rand(N).to(dtype), torch.rand(N).to(dtype)
y = torch.empty_like(x)
mean, rstd = torch.empty(M), torch.empty(M)
for _ in range(LAUNCHES):
    launch(_layer_norm_fwd, (M,), x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK_SIZE=8192)
ref = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5).to(dtype)
torch.testing.assert_close(y, ref, atol=1e-2, rtol=0)
xf, wf, bf = x.float(), w.float(), b.float()
report("layer_norm_f16", LAUNCHES, *torch_seconds_any(lambda: torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5),
                                                   lambda: torch.nn.functional.layer_norm(xf, (N,), wf, bf, 1e-5)))

# RMS norm: helpers through a relative import of a sibling package, a module alias, and
# constants defined in another file.
import triton
import triton.language as tl

from ..common import helpers as h
from ..common.constants import EPS_DEFAULT, ROW_BLOCK
from . import activations


@triton.jit
def rmsnorm_kernel(X, Y, W, stride, N, eps=EPS_DEFAULT, BLOCK: tl.constexpr = ROW_BLOCK):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    ms = h.row_mean(x * x, N)
    rstd = h.rsqrt_eps(ms, eps)
    w = tl.load(W + cols, mask=mask)
    tl.store(Y + row * stride + cols, x * rstd * w, mask=mask)


@triton.jit
def rmsnorm_gelu_kernel(X, Y, W, stride, N, BLOCK: tl.constexpr = ROW_BLOCK):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
    rstd = h.rsqrt_eps(h.row_mean(x * x, N), EPS_DEFAULT)
    w = tl.load(W + cols, mask=mask)
    tl.store(Y + row * stride + cols, activations.gelu_tanh(x * rstd * w), mask=mask)

# RUN: -k rmsnorm_kernel --grid 16
# ARGS: X=randn:f32:16x200 Y=empty:f32:16x200 W=randn:f32:200 stride=200 N=200
# REF: Y = X / np.sqrt((X * X).mean(axis=1, keepdims=True) + 1e-6) * W
# EXPECT: Y
# RUN: -k rmsnorm_gelu_kernel --grid 16
# ARGS: X=randn:f32:16x200 Y=empty:f32:16x200 W=randn:f32:200 stride=200 N=200
# REF: z = X / np.sqrt((X * X).mean(axis=1, keepdims=True) + 1e-6) * W
# REF: Y = 0.5 * z * (1 + np.tanh(0.7978845608028654 * (z + 0.044715 * z ** 3)))
# EXPECT: Y
# TOL: 1e-4 1e-5

# String constexprs: a default value, compared with ==, chosen on the command line with -D,
# passed through a helper; and a tl.constexpr axis that arrives through a parameter.
import triton
import triton.language as tl


@triton.jit
def apply_activation(x, ACTIVATION: tl.constexpr):
    if ACTIVATION == "leaky_relu":
        return tl.where(x >= 0, x, 0.01 * x)
    elif ACTIVATION == "relu":
        return tl.maximum(x, 0.0)
    elif ACTIVATION in ("none", ""):
        return x
    else:
        tl.static_assert(False, "unknown activation")


@triton.jit
def act_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, ACTIVATION: tl.constexpr = "leaky_relu"):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    y = apply_activation(tl.load(x_ptr + offs, mask=m), ACTIVATION)
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit
def _reduce(x, axis: tl.constexpr, KIND: tl.constexpr):
    if KIND == "max":
        return tl.max(x, axis)
    return tl.sum(x, axis=axis)


@triton.jit
def reduce_axis_kernel(x_ptr, y_ptr, N: tl.constexpr, AXIS: tl.constexpr, KIND: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + r[None, :])
    tl.store(y_ptr + r, _reduce(x, AXIS, KIND))

# RUN: -k act_kernel -D BLOCK=128 --grid 2
# ARGS: x_ptr=randn:f32:200 y_ptr=empty:f32:200 n=200
# REF: y_ptr = np.where(x_ptr >= 0, x_ptr, 0.01 * x_ptr)
# EXPECT: y_ptr
# RUN: -k act_kernel -D BLOCK=128 -D ACTIVATION=relu --grid 2
# ARGS: x_ptr=randn:f32:200 y_ptr=empty:f32:200 n=200
# REF: y_ptr = np.maximum(x_ptr, 0)
# EXPECT: y_ptr
# RUN: -k act_kernel -D BLOCK=128 -D ACTIVATION='none' --grid 2
# ARGS: x_ptr=randn:f32:200 y_ptr=empty:f32:200 n=200
# REF: y_ptr = x_ptr
# EXPECT: y_ptr
# RUN: -k reduce_axis_kernel -D N=16 -D AXIS=0 -D KIND=sum --grid 1
# ARGS: x_ptr=randn:f32:16x16 y_ptr=empty:f32:16
# REF: y_ptr = x_ptr.sum(axis=0)
# EXPECT: y_ptr
# RUN: -k reduce_axis_kernel -D N=16 -D AXIS=1 -D KIND=max --grid 1
# ARGS: x_ptr=randn:f32:16x16 y_ptr=empty:f32:16
# REF: y_ptr = x_ptr.max(axis=1)
# EXPECT: y_ptr

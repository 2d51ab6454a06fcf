# A helper module found through -I (like a PYTHONPATH entry), and a conditional import of it.
import triton
import triton.language as tl

try:
    from shared_math import SCALE, silu
except ImportError:  # without the path entry: a local fallback
    SCALE = 1.0

    @triton.jit
    def silu(x):
        return x


@triton.jit
def silu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, silu(x) * SCALE, mask=m)

# RUN: -k silu_kernel -D BLOCK=128 --grid 2 -I {dir}/lib_dir
# ARGS: x_ptr=randn:f32:250 y_ptr=empty:f32:250 n=250
# REF: y_ptr = x_ptr / (1 + np.exp(-x_ptr)) * 0.5
# EXPECT: y_ptr
# TOL: 1e-5 1e-6
# RUN: -k silu_kernel -D BLOCK=128 --grid 2
# ARGS: x_ptr=randn:f32:250 y_ptr=empty:f32:250 n=250
# REF: y_ptr = x_ptr
# EXPECT: y_ptr

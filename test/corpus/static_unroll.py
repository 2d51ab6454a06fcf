# tl.static_range unrolled with tuple unpacking and constexpr arithmetic, tl.static_assert,
# and a tuple of per-stage scales indexed by the unrolled variable.
import triton
import triton.language as tl

SCALES = (1.0, 0.5, 0.25, 0.125)


@triton.jit
def poly_kernel(x_ptr, y_ptr, n, DEGREE: tl.constexpr, BLOCK: tl.constexpr):
    tl.static_assert(DEGREE <= len(SCALES), "DEGREE too large")
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    acc, power = tl.zeros([BLOCK], dtype=tl.float32), 1.0
    for d in tl.static_range(DEGREE):
        acc, power = acc + SCALES[d] * power, power * x
    tl.store(y_ptr + offs, acc, mask=m)

# RUN: -k poly_kernel -D DEGREE=4 -D BLOCK=64 --grid 2
# ARGS: x_ptr=randn:f32:100 y_ptr=empty:f32:100 n=100
# REF: y_ptr = 1 + 0.5 * x_ptr + 0.25 * x_ptr ** 2 + 0.125 * x_ptr ** 3
# EXPECT: y_ptr

# Fuzz seed: one array seen as f32 and, through a pointer cast, as f16. Program 0 updates the
# f32 elements; program 1 writes f16 values over the upper half of the same bytes: a race the
# checker sees only if f32 and f16 accesses index one shadow in the same units (bytes).
import triton
import triton.language as tl


@triton.jit
def cast_view_race(X, BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    H = X.to(tl.pointer_type(tl.float16))
    if pid == 0:
        tl.store(X + offs, tl.load(X + offs) + 1.0)
    elif pid == 1:
        tl.store(H + BLOCK + offs, offs.to(tl.float16) + 0.5)
# fuzz-bind: 0

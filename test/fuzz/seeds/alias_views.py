# Fuzz seed: in-place updates through two parameters the fuzzer may bind to one array, or to
# views of it at byte offsets with other element types (an i8 or f16 view of f32 data).
import triton
import triton.language as tl


@triton.jit
def alias_views(A, B, C, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(A + offs, mask=mask, other=0)
    tl.store(B + offs, x + 1, mask=mask)
    tl.store(C + offs, x * 2, mask=mask)
    y = tl.load(B + offs + BLOCK, mask=mask)
    tl.store(A + offs, y, mask=mask)

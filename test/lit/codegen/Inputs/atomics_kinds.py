# Every kind of atomic with a sem and scope (test/lit/codegen/ops.test: the PTX Triton emits).
import triton
import triton.language as tl

@triton.jit
def atomics_kinds(f32, f16, bf16, i64, u32, i32, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.atomic_add(f32 + offs, 1.0, mask=m)
    tl.atomic_add(f16 + offs, 1.0, mask=m, sem="relaxed")
    tl.atomic_add(bf16 + offs, 1.0, mask=m, sem="release", scope="cta")
    tl.atomic_max(i64 + offs, 3, mask=m, sem="acquire", scope="sys")
    tl.atomic_min(u32 + offs, 3, mask=m)
    tl.atomic_xchg(i32 + offs, 5, mask=m)
    tl.atomic_or(i32 + offs, 6, mask=m)
    tl.atomic_cas(i32, 0, 1)
    v = tl.load(f32 + offs, mask=m, other=0.0)
    tl.atomic_max(f32 + offs, v, mask=m)
    tl.atomic_min(f32 + offs, v, mask=m, sem="relaxed", scope="cta")

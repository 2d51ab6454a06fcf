# Cache modifiers and eviction policies on loads and stores (test/lit/codegen/ops.test).
import triton
import triton.language as tl

@triton.jit
def cache_hints(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src + offs, cache_modifier=".cg")
    y = tl.load(src + offs + 1, mask=offs < n, cache_modifier=".ca")
    z = tl.load(src + offs, eviction_policy="evict_last")
    tl.store(dst + offs, x, cache_modifier=".cs")
    tl.store(dst + offs + 1, y, mask=offs < n, cache_modifier=".wt")
    tl.store(dst + offs, z, eviction_policy="evict_first")

# Fuzz seed: an array written whole through one element type and read back through a narrower
# pointer cast of it (bytes of f32 read as i8): reads of written bytes are defined.
import triton
import triton.language as tl


@triton.jit
def byte_view(X, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, offs.to(tl.float32))
    B = X.to(tl.pointer_type(tl.int8))
    b = tl.load(B + tl.arange(0, 4 * BLOCK))
    tl.store(Out + tl.arange(0, 4 * BLOCK), b.to(tl.float32))

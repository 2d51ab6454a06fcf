# Used by run.test: prints each program's slice of x.
import triton
import triton.language as tl


@triton.jit
def printer(x, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.device_print("x = ", tl.load(x + offs))

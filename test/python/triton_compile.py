# triton.compile(triton.compiler.ASTSource(fn, signature, constexprs)), as Triton's tests of its
# compile errors call it: a kernel compiled from its parameter types alone (its tile IR in
# asm["ttir"]), constexprs by name or by Triton's (index,) key, Triton's error classes from
# triton.compiler.errors (a failed static_assert is CompileTimeAssertionFailure, with no cause;
# other errors are CompilationError with a ValueError cause), and a parameter with neither a
# type nor a value refused.
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError, CompileTimeAssertionFailure


@triton.jit
def scale(x_ptr, n, FACTOR: tl.constexpr, BLOCK: tl.constexpr = 32):
    tl.static_assert(BLOCK % 16 == 0)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * FACTOR, mask=offs < n)


k = triton.compile(triton.compiler.ASTSource(fn=scale, signature={"x_ptr": "*fp32", "n": "i32", "FACTOR": "constexpr"},
                                             constexprs={"FACTOR": 3}))
assert k.name == "scale" and "mulf" in k.asm["ttir"] and "ptr<f32>" in k.asm["ttir"], k.asm["ttir"]
k = triton.compile(triton.compiler.ASTSource(fn=scale, signature={"x_ptr": "*fp16", "n": "i32"},
                                             constexprs={(2,): 2.0, (3,): 64}))
assert "f16" in k.asm["ttir"] and "64xi32" in k.asm["ttir"], k.asm["ttir"]

try:
    triton.compile(triton.compiler.ASTSource(fn=scale, signature={"x_ptr": "*fp32", "n": "i32"},
                                             constexprs={"FACTOR": 3, "BLOCK": 24}))
    raise AssertionError("no CompileTimeAssertionFailure")
except CompileTimeAssertionFailure as e:
    assert isinstance(e, CompilationError) and isinstance(e, triton.CompilationError) and e.__cause__ is None
    assert "static_assert failed" in str(e) and "triton_compile.py:" in str(e), str(e)


@triton.jit
def bad(x_ptr):
    tl.store(x_ptr, 0 + "a")


try:
    triton.compile(triton.compiler.ASTSource(fn=bad, signature={"x_ptr": "*fp32"}, constexprs={}))
    raise AssertionError("no CompilationError")
except CompilationError as e:
    assert not isinstance(e, CompileTimeAssertionFailure) and isinstance(e.__cause__, ValueError), type(e)
    assert "operator '+' is not supported" in str(e), str(e)

try:
    triton.compile(triton.compiler.ASTSource(fn=scale, signature={"x_ptr": "*fp32"}, constexprs={"FACTOR": 1}))
    raise AssertionError("no TypeError")
except TypeError as e:
    assert "parameter 'n' of scale has no type" in str(e), str(e)
print("triton_compile: ok (ASTSource compiled by types; Triton's error classes)")

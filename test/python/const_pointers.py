# `tl.const` parameters, as Triton's test_const writes them: a pointer the kernel only reads.
# Storing through it is a CompilationError, and so is merging it with a writable pointer where
# the choice is made at run time (an if, a conditional expression, a helper's return), each in
# Triton's words; chosen at compile time, the writable side stores as usual.
# One tensor is passed as two arguments (out, c_out), as the test does: on the GPU engine it is
# one device copy, so the stores come back.
import torch

import triton
import triton.language as tl


@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a


@triton.jit
def kernel(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems: tl.int32, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    PICK
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit
def kernel_constexpr(in_ptr: tl.const, out, c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                     BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    PICK
    tl.store(final_out + offsets, val, mask=mask)


def make(mode, constexpr, choose_const):
    """A template with its PICK line rewritten, as Triton's patch_kernel rewrites a
    JITFunction's source."""
    pick = {"direct": "final_out = c_out" if choose_const else "final_out = out",  # chosen on the host
            "call": "final_out = pass_const(out, c_out, choose_const)",
            "ternary": "final_out = c_out if choose_const else out",
            "if": "if choose_const:\n        final_out = c_out\n    else:\n        final_out = out"}[mode]
    k = triton.JITFunction((kernel_constexpr if constexpr else kernel).fn)
    k._unsafe_update_src(k.src.replace("PICK", pick))
    return k


x = torch.randn(128)
runs = 0
for mode in ("direct", "call", "ternary", "if"):
    for constexpr in (True, False):
        for choose_const in (True, False):
            out = torch.zeros(128)
            k = make(mode, constexpr, choose_const)
            # A runtime choice merges the two pointer types; a direct choice of c_out stores to it.
            expect = None
            if choose_const and (constexpr or mode == "direct"):
                expect = "Cannot store to a constant pointer"
            elif not constexpr and mode != "direct":
                expect = {"call": "Return type mismatch: ", "if": "Mismatched type for final_out",
                          "ternary": "Ternary expression with dynamic condition has inconsistent type"}[mode]
            try:
                k[(1, )](x, out, out, choose_const, 128, BLOCK_SIZE=128)
            except triton.CompilationError as e:
                assert expect, f"{mode} constexpr={constexpr} choose={choose_const}: refused: {e}"
                assert expect in str(e), f"{mode}: {e}"
                continue
            assert expect is None, f"{mode} constexpr={constexpr} choose={choose_const}: accepted, expected {expect!r}"
            assert torch.equal(out, x)
            runs += 1
print(f"const pointers: {runs} kernels stored through the writable pointer, the others refused in Triton's words")

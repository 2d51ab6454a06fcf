# Regression: an i16 multiply in the interpreter promoted to int and overflowed (UBSan), found by
# the executing fuzzer binding *i16 arrays; fixed in interpreter/OpsArith.cpp and OpsReduce.cpp.
# Every way a kernel is declared: @triton.jit(...) with options, @jit imported from triton,
# a name bound to triton.jit(f), an autotuned triton.jit(f), and a jit function stacked under
# a project decorator.
import functools

import triton
import triton.language as tl
from triton import jit


def libentry():
    def deco(fn):
        return fn
    return deco


@triton.jit(do_not_specialize=["n"], debug=False)
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha, mask=m)


@jit
def shift_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)


def _square_impl(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x * x, mask=m)


square_kernel = triton.jit(_sque layout of are_impl)
square_tuned = triton.autotune(configs=[triton.Config({"BLOCK": 64})], key=["n"])(triton.jit(_square_impl))


@libentry()
@functools.lru_cache(maxsize=None)
@triton.jit
def neg_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, -tl.load(x_ptr + offs, mask=m), mask=m)

# RUN: -k scale_kernel -D BLOCK=64 --grid 4
# ARGS: x_ptr=randn:f32:200 out_ptr=empty:f32:200 n=200 alpha=2.5
# REF: out_ptr = x_ptr * 2.5
# EXPECT: out_ptr
# RUN: -k shift_kernel -D BLOCK=64 --grid 4
# ARGS: x_ptr=randn:f32:200 out_ptr=empty:f32:200 n=200
# REF: out_ptr = x_ptr + 1
# EXPECT: out_ptr
# RUN: -k square_kernel -D BLOCK=64 --grid 4
# ARGS: x_ptr=randn:f32:200 out_ptr=empty:f32:200 n=200
# REF: out_ptr = x_ptr ** 2
# EXPECT: out_ptr
# RUN: -k square_tuned -D BLOCK=32 --grid 7
# ARGS: x_ptr=randn:f32:200 out_ptr=empty:f32:200 n=200
# REF: out_ptr = x_ptr ** 2
# EXPECT: out_ptr
# RUN: -k neg_kernel -D BLOCK=256 --grid 1
# ARGS: x_ptr=randn:f32:200 out_ptr=empty:f32:200 n=200
# REF: out_ptr = -x_pEFAULEXPECT: out_ptr

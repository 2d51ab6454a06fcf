# -*- coding: utf-8 -*-
# Lexical forms: tab indentation, backslash continuations, semicolons, non-ASCII identifiers,
# every string prefix, implicit concatenation, numbers with underscores and every base,
# comments and blank lines in odd places.
import triton
import triton.language as tl

ÉCHELLE = 0x_2  # hex with an underscore
OFFSET = 1_000.0e-3   # 1.0
MESSAGE = ("a" 'b' r"\c" + b"d".decode() if False else
           "implicitly " "concatenated")
PATTERN = rb"\d+" + Rb'\w'
FSTR = f"{ÉCHELLE!r:>{4}} {'nested'} {{literal}}"
TRIPLE = """a "quoted" line
continues"""


@triton.jit
def lexical_kernel(x_ptr, y_ptr, \
                   n, BLOCK: tl.constexpr):
	offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK); m = offs < n
	# a comment at another indentation
  # and one further left

	x = tl.load(x_ptr + offs, mask=m)
	y = x * ÉCHELLE \
	    + OFFSET
	if BLOCK >= 0b100_0: y = y + 0o0
	tl.store(y_ptr + offs, y, mask=m)  ;


def host():
	return [f"{i:02d}" for i in range(3)]

# RUN: -k lexical_kernel -D BLOCK=64 --grid 2
# ARGS: x_ptr=randn:f32:100 y_ptr=empty:f32:100 n=100
# REF: y_ptr = x_ptr * 2 + 1
# EXPECT: y_ptr

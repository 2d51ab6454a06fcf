# Host-side pieces of Triton's JITFunction that programs and Triton's tests use: pre-run hooks
# (run before each launch with its arguments), run(warmup=True) (compiles, does not launch),
# rewrite() with `rewriter`'s def line, and an autotuner's `fn` being the kernel it wraps.
import inspect

import numpy as np

import triton
import triton.language as tl


@triton.jit
def add_two(a_ptr, n: tl.constexpr):
    offs = tl.arange(0, n)
    tl.store(a_ptr + offs, tl.load(a_ptr + offs) + 2)


@triton.autotune(configs=[triton.Config({}, num_warps=1)], key=[])
@triton.jit
def tuned(a_ptr, n: tl.constexpr):
    offs = tl.arange(0, n)
    tl.store(a_ptr + offs, tl.load(a_ptr + offs) * 3)


seen = []
add_two.add_pre_run_hook(lambda *args, **kwargs: (seen.append((len(args), sorted(kwargs))), args[0].fill(0)))
a = np.ones(4, np.int32)
add_two[(1, )](a, 4)
assert (a == 2).all() and seen == [(2, [])], (a, seen)
a = np.ones(4, np.int32)
add_two.run(a, n=4, grid=(1, ), warmup=False)
assert (a == 2).all() and seen[-1] == (1, ["n"]), (a, seen)

b = np.ones(4, np.int32)
compiled = add_two.run(b, 4, grid=(1, ), warmup=True)
assert (b == 1).all(), "run(warmup=True) must not launch"
assert compiled is not None and hasattr(compiled, "metadata")

fn = add_two.rewrite()
assert fn is add_two.fn
lines, first = inspect.getsourcelines(add_two.fn)
def_line = first + next(i for i, line in enumerate(lines) if line.lstrip().startswith("def "))
assert add_two.rewriter.def_file_lineno == def_line, (add_two.rewriter.def_file_lineno, def_line)
assert add_two.rewriter.filename == __file__

assert isinstance(tuned.fn, triton.JITFunction), type(tuned.fn)
tuned.fn.rewrite()
c = np.ones(4, np.int32)
tuned[(1, )](c, n=4)
assert (c == 3).all()
print("jit_host_api: pre-run hooks, run(warmup=True), rewrite() and autotuner.fn as Triton's")

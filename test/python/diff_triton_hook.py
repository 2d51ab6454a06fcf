"""--diff triton's hooks without Triton: a stand-in `triton` namespace whose JITFunction.run
"launches" by computing the result in Python (the GPU's part), and whose Autotuner._bench
launches while timing. Checks what the hook does at each launch: arguments bound by the
signature (launch options apart), a callable grid given the bound arguments, the call site,
--diff-every, --diff-kernels, --diff-budget, benchmarking launches left alone, the script's
do_bench launches counted as skipped."""
import io
import os
import sys
import types

import torch

import tilevm
from modules import diff_triton_kernels as K
from tilevm import diff_hook as hook, diff_snapshot as snapshot

rows, cols = 5, 12
planted = {"on": False}
launched = []


def device(jit, args, grid, kwargs):
    """The GPU's part: out = 2x + y in float64, rounded once (one element off when planted)."""
    launched.append((jit.fn.__name__, grid, dict(kwargs)))
    x, y, out = args[:3]
    out.copy_((2 * x.double() + y.double()).float())
    if planted["on"]:
        out[3, 11] += 1.0
    return "launched"


K.JITFunction.device = device


class Autotuner:
    def _bench(self, kernel, *args, config, **meta):
        return kernel.run(*args, grid=(rows,), warmup=False, **config, **meta)


def do_bench(fn, warmup=25, rep=100):
    for _ in range(3):
        fn()
    return 0.5


triton = types.SimpleNamespace(runtime=types.SimpleNamespace(jit=types.SimpleNamespace(JITFunction=K.JITFunction),
                                                             autotuner=types.SimpleNamespace(Autotuner=Autotuner)),
                               testing=types.SimpleNamespace(do_bench=do_bench))
out_text = io.StringIO()
session = hook.Session(every=1, out=out_text, skip_paths=(K.__file__, tilevm.__file__), sync=lambda: None)
assert hook.install(triton, session)

x, y = torch.randn(rows, cols), torch.randn(rows, cols)
out = torch.zeros(rows, cols)
seen = {}


def grid(meta):
    seen.update(meta)
    return (rows,)


# A launch as a script writes it: constexpr by keyword, a launch option, a callable grid.
assert K.axpy2d[grid](x, y, out, cols, cols, BLOCK=16, num_warps=8) == "launched"; line = sys._getframe().f_lineno
assert launched[-1][2] == {"BLOCK": 16, "num_warps": 8}, launched  # Triton's run got its own arguments
assert seen == {"x_ptr": x, "y_ptr": y, "out_ptr": out, "n_cols": cols, "stride": cols, "BLOCK": 16}, seen.keys()
assert torch.equal(out, (2 * x.double() + y.double()).float()), "the script sees the GPU's result"
row = session.summary.rows["axpy2d"]
assert (row["launches"], row["compared"], row["agreed"]) == (1, 1, 1), session.summary.text()
assert out_text.getvalue() == "", out_text.getvalue()

# A wrong element: reported with the script's line as the call site.
planted["on"] = True
K.axpy2d[(rows,)](x, y, out, cols, cols, BLOCK=16); line = sys._getframe().f_lineno
text = out_text.getvalue()
assert f"at {os.path.abspath(__file__)}:{line}: DIVERGED" in text or f"at {__file__}:{line}: DIVERGED" in text, text
assert "first divergent element: out_ptr(3, 11)" in text and "program (3, 0, 0)" in text, text
planted["on"] = False

# Launches while the autotuner times configurations are Triton's alone.
before = dict(row)
Autotuner()._bench(K.axpy2d, x, y, out, cols, cols, config={"BLOCK": 16})
assert launched[-1][0] == "axpy2d" and session.summary.rows["axpy2d"] == before, session.summary.text()

# --diff-every 2: the 1st and 3rd launch of each kernel compared, the 2nd counted as skipped.
every = hook.Session(every=2, out=io.StringIO(), sync=lambda: None)
hook.install(triton, every)
for _ in range(3):
    K.axpy2d[(rows,)](x, y, out, cols, cols, BLOCK=16)
r = every.summary.rows["axpy2d"]
assert (r["launches"], r["compared"], r["skipped"]) == (3, 2, {"every": 1}), every.summary.text()

# --diff-kernels: other kernels run untouched and uncounted.
only = hook.Session(kernels={"mad_int"}, out=io.StringIO(), sync=lambda: None)
hook.install(triton, only)
n = len(launched)
K.axpy2d[(rows,)](x, y, out, cols, cols, BLOCK=16)
assert len(launched) == n + 1 and not only.summary.rows, only.summary.text()

# --diff-budget: a launch with more elements is run, not compared, and counted as skipped.
small = hook.Session(budget=3 * rows * cols - 1, out=io.StringIO(), sync=lambda: None)
hook.install(triton, small)
K.axpy2d[(rows,)](x, y, out, cols, cols, BLOCK=16)
r = small.summary.rows["axpy2d"]
assert (r["launches"], r["compared"], r["skipped"]) == (1, 0, {"budget": 1}), small.summary.text()
assert "1 (budget 1)" in small.summary.text()
# The budget counts what is copied: a storage once however many arguments view it, and whole.
assert snapshot.element_count({"a": x, "b": x[1:], "c": y}) == 2 * rows * cols
assert snapshot.element_count({"row": torch.zeros(1000, 10)[3]}) == 10000
# Launch options past what tilevm's checker takes (the interpreter uses neither) still compare.
opts = hook.Session(out=io.StringIO(), sync=lambda: None)
hook.install(triton, opts)
K.axpy2d[(rows,)](x, y, out, cols, cols, BLOCK=16, num_warps=64, num_stages=0)
r = opts.summary.rows["axpy2d"]
assert (r["compared"], r["agreed"]) == (1, 1), (opts.summary.text(), opts.out.getvalue())

# Launches under the script's triton.testing.do_bench are counted as skipped (timing).
timed = hook.Session(out=io.StringIO(), sync=lambda: None)
hook.install(triton, timed)
assert triton.testing.do_bench(lambda: K.axpy2d[(rows,)](x, y, out, cols, cols, BLOCK=16)) == 0.5
r = timed.summary.rows["axpy2d"]
assert (r["launches"], r["compared"], r["skipped"]) == (3, 0, {"timing": 3}), timed.summary.text()

# A grid the hook cannot evaluate: the launch runs, is said not compared, and counted.
odd = hook.Session(out=io.StringIO(), sync=lambda: None)
hook.install(triton, odd)
n = len(launched)
K.axpy2d[lambda meta: ("many",)](x, y, out, cols, cols, BLOCK=16)
assert len(launched) == n + 1 and odd.summary.rows["axpy2d"]["skipped"] == {"error": 1}, odd.summary.text()
assert "kernel axpy2d, at " in odd.out.getvalue() and "not compared: ValueError" in odd.out.getvalue(), odd.out.getvalue()
print("diff_triton_hook: binding, callable grid, call site, autotuner benchmarking, every, kernels, budget, timing: ok")

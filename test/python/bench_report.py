# triton.testing.do_bench and perf_report with Triton's arguments and meanings: warmup and rep are
# milliseconds of running (the number of calls follows from an estimate), quantiles and
# return_mode summarize per-call times, grad_to_none clears gradients before each timed call;
# perf_report prints Triton's table and writes its CSV (plots only where matplotlib is).
import contextlib
import csv
import io
import os
import tempfile
import time

import numpy as np

import triton
import triton.language as tl
from triton.testing import do_bench, perf_report, Benchmark


class Clock:
    """A function that takes `ms` milliseconds per call, counting its calls."""

    def __init__(self, ms):
        self.ms, self.calls = ms, 0

    def __call__(self):
        self.calls += 1
        end = time.perf_counter() + self.ms / 1e3
        while time.perf_counter() < end:
            pass


# 4 ms per call, warmup 12 ms, rep 40 ms: one first call, 3 estimate calls (they fill the
# warmup), no more warmup, then rep / estimate = 10 timed calls (fewer when this shared machine
# stretches a call).
f = Clock(4.0)
times = do_bench(f, warmup=12, rep=40, return_mode="all")
assert 5 <= len(times) <= 10, len(times)
assert 1 + 3 + len(times) <= f.calls <= 1 + 5 + 1 + len(times), f.calls
assert all(3.9 <= t < 40.0 for t in times), times
# A longer rep means more calls, not longer ones.
g = Clock(4.0)
assert len(times) < len(do_bench(g, warmup=4, rep=80, return_mode="all")) <= 20
# The summaries.
for mode, lo, hi in (("mean", 3.9, 40), ("median", 3.9, 40), ("min", 3.9, 40), ("max", 3.9, 80)):
    v = do_bench(Clock(4.0), warmup=8, rep=20, return_mode=mode)
    assert isinstance(v, float) and lo <= v <= hi, (mode, v)
q = do_bench(Clock(4.0), warmup=8, rep=20, quantiles=[0.5, 0.2, 0.8])
assert len(q) == 3 and q[1] <= q[0] <= q[2], q
assert isinstance(do_bench(Clock(1.0), warmup=2, rep=4, quantiles=[0.5]), float)
try:
    do_bench(Clock(0.1), return_mode="average")
except AssertionError:
    pass
else:
    raise AssertionError("return_mode='average' was accepted")


class Grad:
    grad = "accumulated"


# grad_to_none: each timed call starts with the gradient cleared.
w = Grad()
seen = []


def step():
    seen.append(w.grad)
    w.grad = "accumulated"


do_bench(step, warmup=1, rep=1, grad_to_none=[w], return_mode="all")
assert seen[-1] is None, seen


# A kernel timed through perf_report, its table as Triton prints it.
@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def scale(x):
    y = np.empty_like(x)
    scale_kernel[(triton.cdiv(x.size, 256), )](x, y, x.size, BLOCK=256)
    return y


calls = []


@perf_report(
    Benchmark(x_names=["size"], x_vals=[1024, 4096], line_arg="provider", line_vals=["tilevm", "numpy"],
              line_names=["tilevm", "NumPy"], styles=[("blue", "-"), ("green", "-")], ylabel="GB/s",
              plot_name="scale-performance", args={"factor": 2}))
def bench(size, provider, factor):
    calls.append((size, provider, factor))
    x = np.arange(size, dtype=np.float32)
    fn = (lambda: scale(x)) if provider == "tilevm" else (lambda: x * factor)
    ms, lo, hi = do_bench(fn, warmup=1, rep=5, quantiles=[0.5, 0.2, 0.8])
    gbps = lambda ms: 2 * x.nbytes * 1e-9 / (ms * 1e-3)
    return gbps(ms), gbps(hi), gbps(lo)


out, err = io.StringIO(), io.StringIO()
with tempfile.TemporaryDirectory() as d:
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        table = bench.run(print_data=True, save_path=d, return_df=True)
    with open(os.path.join(d, "scale-performance.csv")) as f:
        rows = list(csv.reader(f))
    assert os.path.exists(os.path.join(d, "results.html"))
    has_mpl = True
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        has_mpl = False
    assert os.path.exists(os.path.join(d, "scale-performance.png")) == has_mpl
assert calls == [(1024, "tilevm", 2), (1024, "numpy", 2), (4096, "tilevm", 2), (4096, "numpy", 2)], calls
lines = out.getvalue().splitlines()
assert lines[0] == "scale-performance:", lines
assert lines[1].startswith("# tilevm interpreter: wall clock"), lines[1]
# pandas' layout: a left-aligned index, right-aligned columns two spaces apart, x as floats.
header, row0, row1 = lines[2], lines[3], lines[4]
assert header.split() == ["size", "tilevm", "(GB/s)", "NumPy", "(GB/s)"], header
assert row0.startswith("0  1024.0  ") and row1.startswith("1  4096.0  "), (row0, row1)
assert len(header) == len(row0) == len(row1), (header, row0)
assert rows[0] == ["size", "tilevm (GB/s)", "NumPy (GB/s)"] and rows[1][0] == "1024.000000", rows
assert has_mpl or "matplotlib is not installed" in err.getvalue(), err.getvalue()
assert table.to_string() == "\n".join(lines[2:5]) if not hasattr(table, "iloc") else True
print("do_bench and perf_report as Triton's:", header.strip())

# triton.testing.do_bench and perf_report with Triton's arguments and meanings: warmup and rep are
# milliseconds of running (the number of calls follows from an estimate), quantiles and
# return_mode summarize per-call times, grad_to_none clears gradients before each timed call;
# perf_report prints Triton's table and writes its CSV (plots only where matplotlib is).
import contextlib
import csv
import io
import os
import tempfile
import numpy as np

import triton
import triton.language as tl
from triton.testing import do_bench, perf_report, Benchmark


def check_on_fake_clock():
    """do_bench's counts and summaries on a clock only the benchmarked calls move (the
    interpreter's wall-clock path; the GPU engine times with CUDA events, checked below)."""
    global fake, MS
    class FakeTime:
        """A clock that moves only when the benchmarked function says so: the counts below are exact
        whatever else this machine runs."""

        def __init__(self):
            self.now = 0.0

        def perf_counter(self):
            return self.now


    fake = FakeTime()
    real_time = triton.testing.time
    triton.testing.time = fake
    MS = 1000 * 2.0**-8  # 3.90625 ms: exact in binary, so the arithmetic below is too


    class Clock:
        """A function that takes `ms` milliseconds per call (on the fake clock), counting its calls."""

        def __init__(self, ms=MS):
            self.ms, self.calls = ms, 0

        def __call__(self):
            self.calls += 1
            fake.now += self.ms / 1e3


    # warmup = 3 calls' time, rep = 10 calls': one first call, 3 estimate calls (they fill the
    # warmup), no more warmup, then rep / estimate = 10 timed calls.
    f = Clock()
    times = do_bench(f, warmup=3 * MS, rep=10 * MS, return_mode="all")
    assert times == [MS] * 10, times
    assert f.calls == 1 + 3 + 10, f.calls
    # A warmup longer than the 5 estimate calls is run out; a longer rep means more calls.
    g = Clock()
    assert len(do_bench(g, warmup=8 * MS, rep=20 * MS, return_mode="all")) == 20
    assert g.calls == 1 + 5 + 3 + 20, g.calls
    # A call longer than warmup and rep: one estimate call, one timed call.
    h = Clock(50 * MS)
    assert do_bench(h, warmup=MS, rep=MS, return_mode="all") == [50 * MS] and h.calls == 3


    class Varying:
        """Calls of 1, 2, ..., 5 units, repeating."""

        def __init__(self):
            self.i = 0

        def __call__(self):
            self.i += 1
            fake.now += (self.i % 5 + 1) * MS / 1e3


    # The summaries over the timed calls (one estimate call of 3 units fills the warmup; 40 / 3 -> 13
    # timed calls).
    for mode, want in (("min", MS), ("max", 5 * MS), ("all", None)):
        v = do_bench(Varying(), warmup=1, rep=40 * MS, return_mode=mode)
        assert (len(v) == 13 and sorted(set(v)) == [MS * k for k in range(1, 6)]) if want is None else v == want, (mode, v)
    v = do_bench(Varying(), warmup=1, rep=40 * MS, return_mode="all")
    import statistics
    assert do_bench(Varying(), warmup=1, rep=40 * MS, return_mode="mean") == statistics.mean(v)
    assert do_bench(Varying(), warmup=1, rep=40 * MS, return_mode="median") == statistics.median(v)
    q = do_bench(Varying(), warmup=1, rep=40 * MS, quantiles=[0.5, 0.2, 0.8])
    s = sorted(v)
    lin = lambda p: (1 - (p * 12 - int(p * 12))) * s[int(p * 12)] + (p * 12 - int(p * 12)) * s[min(12, int(p * 12) + 1)]
    assert q == [lin(0.5), lin(0.2), lin(0.8)], (q, s)  # Triton's interpolation between ranks
    assert isinstance(do_bench(Clock(), warmup=1, rep=1, quantiles=[0.5]), float)
    try:
        do_bench(Clock(), return_mode="average")
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
        fake.now += MS / 1e3


    do_bench(step, warmup=1, rep=3 * MS, grad_to_none=[w], return_mode="all")
    assert seen[-3:] == [None, None, None] and seen[0] == "accumulated", seen
    triton.testing.time = real_time


import tilevm

if tilevm.options["device"] == "cpu":
    check_on_fake_clock()
else:  # CUDA events: per-call times of a real kernel, positive and as many as asked to summarize
    import torch
    x = torch.arange(1 << 22, dtype=torch.float32, device=triton.runtime.driver.active.get_active_torch_device())
    times = do_bench(lambda: x * 2, warmup=1, rep=5, return_mode="all")
    assert times and all(t > 0 for t in times), times


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
assert lines[1] == "# " + triton.testing.clock(), lines[1]  # the clock, labelled
assert str(triton.testing.clock()).startswith("tilevm GPU engine" if triton.runtime.driver.active.get_current_target().backend ==
                                              "cuda" else "tilevm interpreter: wall clock on this CPU")
# pandas' layout: a left-aligned index, right-aligned columns two spaces apart, x as floats.
header, row0, row1 = lines[2], lines[3], lines[4]
assert header.split() == ["size", "tilevm", "(GB/s)", "NumPy", "(GB/s)"], header
assert row0.startswith("0  1024.0  ") and row1.startswith("1  4096.0  "), (row0, row1)
assert len(header) == len(row0) == len(row1), (header, row0)
assert rows[0] == ["size", "tilevm (GB/s)", "NumPy (GB/s)"] and rows[1][0] == "1024.000000", rows
assert has_mpl or "matplotlib is not installed" in err.getvalue(), err.getvalue()
assert table.to_string() == "\n".join(lines[2:5]) if not hasattr(table, "iloc") else True
print("do_bench and perf_report as Triton's:", header.strip())

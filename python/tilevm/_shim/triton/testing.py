"""triton.testing for tilevm: assert_close, do_bench and perf_report/Benchmark with Triton's
arguments and meanings, timing what actually runs.

do_bench's clock: on the interpreter, wall time on this CPU (no CUDA events exist there); on the
GPU engine (`--device cuda`), torch.cuda events when torch has CUDA, else wall time after the
launch has finished (the engine's launches are synchronous). `CLOCK` says which. perf_report
prints Triton's table (`plot_name:` then the pandas-style frame of the x columns and one mean
column per line), labelled with that clock; it writes the CSV with the csv module, and plots
only where matplotlib is installed."""
import csv
import math
import os
import statistics
import sys
import time

import tilevm


def _np(x):
    import numpy as np
    if hasattr(x, "detach"):
        if str(getattr(x, "dtype", "")) == "torch.bfloat16":
            x = x.float()
        x = x.detach().cpu().numpy()
    return np.asarray(x)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Triton's: NumPy's assert_allclose (atol 1e-2, rtol 0 unless given; callables of the dtype)."""
    import numpy as np
    a, b = _np(x), _np(y)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    atol = atol(getattr(x, "dtype", None)) if callable(atol) else atol
    rtol = rtol(getattr(x, "dtype", None)) if callable(rtol) else rtol
    if a.size > 1 or b.size > 1:
        np.testing.assert_allclose(a, b, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)
        return
    if not np.allclose(a, b, atol=atol, rtol=rtol):
        raise AssertionError(f"{err_msg} {a} is not close to {b} (atol={atol}, rtol={rtol})")


# ---- timing --------------------------------------------------------------------------------

def _on_gpu():
    return str(tilevm.options.get("device", "cpu")).startswith("cuda")


def _torch_cuda():
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch
        except ImportError:
            return None
    return torch if torch.cuda.is_available() else None


def clock():
    """What do_bench measures with now, in words."""
    if not _on_gpu():
        return "tilevm interpreter: wall clock on this CPU (says nothing about a GPU)"
    if _torch_cuda() is not None:
        return "tilevm GPU engine: torch.cuda events"
    return "tilevm GPU engine: wall clock after each launch has finished"


class _WallTimer:
    def __init__(self, sync):
        self.sync = sync

    def start(self):
        self.sync()
        return time.perf_counter()

    def stop(self, t0):
        self.sync()
        return (time.perf_counter() - t0) * 1e3


class _EventTimer:
    def __init__(self, torch):
        self.torch = torch

    def start(self):
        e = self.torch.cuda.Event(enable_timing=True)
        e.record()
        return e

    def stop(self, e0):
        e1 = self.torch.cuda.Event(enable_timing=True)
        e1.record()
        self.torch.cuda.synchronize()
        return e0.elapsed_time(e1)


def _timer():
    torch = _torch_cuda() if _on_gpu() else None
    if torch is not None:
        return _EventTimer(torch), torch.cuda.synchronize
    return _WallTimer(lambda: None), (lambda: None)


_flush = {}


def _cache_buffer():
    """What Triton writes between timed calls to start each cold: 256 MiB on the GPU (its L2 and
    more) when torch has CUDA; on the CPU, a buffer twice this machine's last-level cache."""
    if "buf" in _flush:
        return _flush["buf"]
    torch = _torch_cuda() if _on_gpu() else None
    buf = None
    if torch is not None:
        buf = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
    elif not _on_gpu():
        import numpy as np
        buf = np.empty(2 * _llc_bytes(), dtype=np.int8)
    _flush["buf"] = buf
    return buf


def _llc_bytes():
    best = 32 * 2**20
    try:
        base = "/sys/devices/system/cpu/cpu0/cache"
        sizes = []
        for d in os.listdir(base):
            with open(os.path.join(base, d, "size")) as f:
                text = f.read().strip()
            mult = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1:], 1)
            sizes.append(int(text.rstrip("KMG")) * mult)
        best = max(sizes) if sizes else best
    except (OSError, ValueError):
        pass
    return best


def _clear_cache(buf):
    if buf is None:
        return
    if hasattr(buf, "zero_"):
        buf.zero_()
    else:
        buf.fill(0)


def _quantile(a, q):
    # Triton's: linear interpolation between the closest ranks.
    n = len(a)
    a = sorted(a)

    def one(q):
        if not (0 <= q <= 1):
            raise ValueError("Quantiles must be in the range [0, 1]")
        point = q * (n - 1)
        lower, upper = math.floor(point), math.ceil(point)
        t = point - lower
        return (1 - t) * a[lower] + t * a[upper]

    return [one(qi) for qi in q]


def _summarize_statistics(times, quantiles, return_mode):
    if quantiles is not None:
        ret = _quantile(times, quantiles)
        return ret[0] if len(ret) == 1 else ret
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "mean":
        return statistics.mean(times)
    return statistics.median(times)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Triton's do_bench: fn's time per call in milliseconds. `warmup` and `rep` are milliseconds
    of running: fn runs once, then its time per call is estimated (up to 5 calls, fewer when they
    already fill `warmup`: those calls count toward it), the rest of `warmup` is run, and then
    max(1, rep / estimate) calls are timed one by one, each after `grad_to_none`'s gradients are
    set to None and the cache is cleared. quantiles (linearly interpolated) or return_mode
    ("min", "max", "mean", "median", "all") summarize them. The clock: see clock()."""
    assert return_mode in ["min", "max", "mean", "median", "all"]
    timer, sync = _timer()
    fn()
    sync()
    buf = _cache_buffer()
    spent, estimate_calls = 0.0, 0
    while estimate_calls < 5 and (estimate_calls == 0 or spent < warmup):
        _clear_cache(buf)
        t = timer.start()
        fn()
        spent += timer.stop(t)
        estimate_calls += 1
    estimate_ms = spent / estimate_calls
    n_warmup = int(max(0.0, warmup - spent) / estimate_ms) if estimate_ms > 0 else 1000
    n_repeat = max(1, int(rep / estimate_ms)) if estimate_ms > 0 else 1000
    for _ in range(n_warmup):
        fn()
    sync()
    times = []
    for _ in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        _clear_cache(buf)
        t = timer.start()
        fn()
        times.append(timer.stop(t))
    return _summarize_statistics(times, quantiles, return_mode)


# ---- perf_report -------------------------------------------------------------------------

class Benchmark:
    """Triton's: the x axis (x_names, x_vals), the lines (line_arg, line_vals, line_names), the
    plot's name and labels, and fixed arguments (args)."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="",
                 x_log=False, y_log=False, styles=None):
        self.x_names, self.x_vals, self.x_log = x_names, x_vals, x_log
        self.line_arg, self.line_vals, self.line_names = line_arg, line_vals, line_names
        self.y_log, self.styles = y_log, styles
        self.xlabel, self.ylabel, self.plot_name, self.args = xlabel, ylabel, plot_name, args


class Table:
    """The results of one benchmark (what Triton keeps in a pandas DataFrame, for where pandas is
    not installed): `columns`, `rows`, to_string() as pandas prints a frame, to_csv(path)."""

    def __init__(self, columns, rows):
        self.columns, self.rows = list(columns), [list(r) for r in rows]

    def column(self, name):
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def to_string(self):
        cols = [_format_column(self.column(c)) for c in self.columns]
        index = [str(i) for i in range(len(self.rows))]
        iw = max([len(s) for s in index] + [0])
        widths = [max([len(h)] + [len(v) for v in col]) for h, col in zip(self.columns, cols)]
        lines = [" " * iw + "".join("  " + h.rjust(w) for h, w in zip(self.columns, widths))]
        for r, ix in enumerate(index):
            lines.append(ix.ljust(iw) + "".join("  " + col[r].rjust(w) for col, w in zip(cols, widths)))
        return "\n".join(lines)

    def to_csv(self, path, save_precision=6):
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(self.columns)
            for r in self.rows:
                w.writerow([f"{v:.{save_precision}f}" if isinstance(v, float) else ("" if v is None else v) for v in r])


def _format_column(values):
    # As pandas prints a float column: 6 decimals, trailing zeros trimmed alike (one kept);
    # scientific when a value is below 1e-6 or from 1e16 on.
    floats = [v for v in values if isinstance(v, float) and math.isfinite(v)]
    if not floats or len(floats) + sum(1 for v in values if isinstance(v, float) and not math.isfinite(v)) < len(values):
        return ["NaN" if isinstance(v, float) and math.isnan(v) else str(v) for v in values]
    if any(0 < abs(v) < 1e-6 or abs(v) >= 1e16 for v in floats):
        return [f"{v:.6e}" if math.isfinite(v) else ("NaN" if math.isnan(v) else str(v)) for v in values]
    texts = [f"{v:.6f}" for v in floats]
    while all(t.endswith("0") and not t.endswith(".0") for t in texts):
        texts = [t[:-1] for t in texts]
    it = iter(texts)
    return [next(it) if isinstance(v, float) and math.isfinite(v) else ("NaN" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
            for v in values]


def _cell(v):
    # pandas' frame holds numbers as floats (Triton's x values print as 256.0).
    if isinstance(v, bool) or v is None:
        return float("nan") if v is None else v
    if isinstance(v, (int, float)):
        return float(v)
    if hasattr(v, "item"):
        return float(v.item())
    return v


_noted = set()


def _note_once(what):
    if what not in _noted:
        _noted.add(what)
        print(f"triton.testing (tilevm): {what}", file=sys.stderr)


class Mark:
    """perf_report's result: run() measures every benchmark as Triton's Mark does."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, save_path, show_plots, print_data, diff_col=False, save_precision=6, **kwargs):
        y_mean = [f"{x} ({bench.ylabel})" for x in bench.line_names]
        x_names = list(bench.x_names)
        rows, mins, maxs = [], [], []
        for x in bench.x_vals:
            if not isinstance(x, (list, tuple)):
                x = [x for _ in x_names]
            if len(x) != len(x_names):
                raise ValueError(f"Expected {len(x_names)} values, got {x}")
            x_args = dict(zip(x_names, x))
            row_mean, row_min, row_max = [], [], []
            for y in bench.line_vals:
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args, **kwargs)
                try:
                    y_mean_v, y_min_v, y_max_v = ret
                except TypeError:
                    y_mean_v, y_min_v, y_max_v = ret, None, None
                row_mean.append(y_mean_v)
                row_min.append(y_min_v)
                row_max.append(y_max_v)
            rows.append([_cell(v) for v in list(x) + row_mean])
            mins.append(row_min)
            maxs.append(row_max)
        columns = x_names + y_mean
        if diff_col and len(columns) == 2:
            columns.append("Diff")
            rows = [r + [r[1] - r[0]] for r in rows]
        table = Table(columns, rows)
        if bench.plot_name and (show_plots or save_path):
            self._plot(bench, table, x_names, y_mean, mins, maxs, save_path, show_plots)
        if print_data:
            print(bench.plot_name + ":")
            print(f"# {clock()}")
            print(table.to_string())
        if save_path:
            table.to_csv(os.path.join(save_path, f"{bench.plot_name}.csv"), save_precision)
        return _as_frame(table)

    def _plot(self, bench, table, x_names, y_mean, mins, maxs, save_path, show_plots):
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            _note_once("matplotlib is not installed: no plots are drawn (the tables and CSV files are written)")
            return
        plt.figure()
        ax = plt.subplot()
        first_x = table.column(x_names[0])
        for i, label in enumerate(y_mean):
            col = bench.styles[i][0] if bench.styles else None
            sty = bench.styles[i][1] if bench.styles else None
            ax.plot(first_x, table.column(label), label=label, color=col, ls=sty)
            lo, hi = [m[i] for m in mins], [m[i] for m in maxs]
            if all(v is not None for v in lo + hi):
                ax.fill_between(first_x, [float(v) for v in lo], [float(v) for v in hi], alpha=0.15, color=col)
        ax.legend()
        ax.set_xlabel(bench.xlabel or x_names[0])
        ax.set_ylabel(bench.ylabel)
        ax.set_xscale("log" if bench.x_log else "linear")
        ax.set_yscale("log" if bench.y_log else "linear")
        if show_plots:
            plt.show()
        if save_path:
            plt.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = [self.benchmarks] if single else self.benchmarks
        results = []
        try:
            for bench in benchmarks:
                if save_path:
                    os.makedirs(save_path, exist_ok=True)
                results.append(self._run(bench, save_path, show_plots, print_data, **kwargs))
        finally:
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, "results.html"), "w") as html:
                    html.write("<html><body>\n")
                    for bench in benchmarks[:len(results)]:
                        html.write(f"<image src=\"{bench.plot_name}.png\"/>\n")
                    html.write("</body></html>\n")
        if return_df:
            return results[0] if single else results
        return None


def _as_frame(table):
    """A pandas DataFrame of the table where pandas is installed, else the Table."""
    try:
        import pandas as pd
    except ImportError:
        return table
    return pd.DataFrame(table.rows, columns=table.columns)


def perf_report(benchmarks):
    """Marks fn for benchmarking: `.run(show_plots, print_data, save_path, return_df)`."""
    return lambda fn: Mark(fn, benchmarks)

"""triton.testing on the CPU: assert_close, and do_bench / perf_report that time the
interpreter honestly (wall-clock on this CPU, labelled as such)."""
import time


def _np(x):
    import numpy as np
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    return np.asarray(x)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    import numpy as np
    a, b = _np(x).astype(np.float64), _np(y).astype(np.float64)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    if not np.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True):
        diff = np.abs(a - b)
        raise AssertionError(f"{err_msg} not close: max abs difference {np.nanmax(diff)} (atol={atol}, rtol={rtol})")


def do_bench(fn, warmup=1, rep=5, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Milliseconds per call on this CPU (tilevm's interpreter, not a GPU)."""
    fn()
    times = []
    for _ in range(max(1, int(rep))):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    if quantiles:
        return [times[min(len(times) - 1, int(q * len(times)))] for q in quantiles]
    return sum(times) / len(times)


class Benchmark:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


def perf_report(benchmarks):
    def deco(fn):
        class Runner:
            def run(self, show_plots=False, print_data=False, save_path=None, **kw):
                for b in benchmarks if isinstance(benchmarks, list) else [benchmarks]:
                    print(f"{getattr(b, 'plot_name', fn.__name__)} (tilevm interpreter on this CPU):")
                    for xv in b.x_vals:
                        for lv in b.line_vals:
                            args = dict(getattr(b, "args", {}))
                            for name in b.x_names:
                                args[name] = xv
                            args[b.line_arg] = lv
                            print(f"  {b.x_names}={xv} {lv}: {fn(**args)}")
        return Runner()
    return deco

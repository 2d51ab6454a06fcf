"""The hooks in real Triton (3.6): JITFunction.run, where kernel[grid](...), the autotuner and
heuristics all end, diffs each launch that runs for real (not warmups, not the autotuner's
benchmarking, which Autotuner._bench marks; launches under the script's triton.testing.do_bench
or do_bench_cudagraph, or while a CUDA graph is captured, are counted as skipped), and
CompiledKernel.__getitem__, the launch of a kernel compiled ahead by warmup(); Session does the
work of one launch."""
import inspect
import os
import sys
import threading

from . import diff_compare as compare
from . import diff_record as record
from . import diff_report as report
from . import diff_snapshot as snapshot
from . import diff_tables as tables
from . import fresh_memory


class DivergenceError(RuntimeError):
    """--diff-stop: the first launch whose GPU results differ from the interpreter's."""


# Launch options of Triton's JITFunction.run (keywords that are not kernel parameters).
_WARPS, _STAGES = "num_warps", "num_stages"


class Session:
    """The options of --diff triton and what they have counted.

    every: diff every Nth launch of each kernel; kernels: names to diff (None: all); budget: the
    most array elements a diffed launch may have (larger ones are skipped, counted so); stop:
    raise DivergenceError at the first divergence; programs: the most programs the interpreter
    runs of a launch (a larger grid runs a sample: compare.sample_programs; 0: every program);
    record_dir: a directory for fixtures (or
    None); out: where reports go; skip_paths: files whose directories hold no call site (the
    triton and tilevm packages); sync: waits for the GPU (torch.cuda.synchronize)."""

    def __init__(self, every=1, kernels=None, budget=64 << 20, stop=False, record_dir=None, out=None, skip_paths=(),
                 sync=None, programs=2048):
        self.every, self.kernels, self.budget, self.stop, self.programs = every, kernels, budget, stop, programs
        self.recorder = record.Recorder(record_dir) if record_dir else None
        self.out = out or sys.stderr
        self.summary = report.Summary()
        self.counts = {}
        self.skip_paths = tuple(os.path.dirname(os.path.abspath(p)) + os.sep for p in skip_paths)
        self._local = threading.local()
        self.sync = sync
        self.fresh = fresh_memory.memory  # torch.empty's memory not yet written (fresh_memory.install)

    # Autotuner._bench sets this while it times configurations.
    def benchmarking(self):
        return getattr(self._local, "bench", 0) > 0

    def _depth(self, delta):
        self._local.bench = getattr(self._local, "bench", 0) + delta

    # triton.testing.do_bench and do_bench_cudagraph, called by the script, set this.
    def timing(self):
        return getattr(self._local, "timing", 0) > 0

    def _timing(self, delta):
        self._local.timing = getattr(self._local, "timing", 0) + delta

    @staticmethod
    def capturing():
        """Whether the current CUDA stream is capturing a graph (copies and waits would break it)."""
        torch = sys.modules.get("torch")
        try:
            return bool(torch is not None and torch.cuda.is_current_stream_capturing())
        except Exception:  # a torch without CUDA
            return False

    def call_site(self):
        """file:line of the first frame outside Triton and tilevm (the script's launch)."""
        f = sys._getframe(1)
        while f is not None:
            path = os.path.abspath(f.f_code.co_filename)
            if not path.startswith(self.skip_paths) and not f.f_code.co_filename.startswith("<frozen"):
                return f"{f.f_code.co_filename}:{f.f_lineno}"
            f = f.f_back
        return ""

    def launch(self, jit, run, args, grid, kwargs):
        """One launch of `jit` through Triton's own `run`, diffed when the options say so."""
        params = inspect.signature(jit.fn).parameters

        def bind():
            bound = inspect.signature(jit.fn).bind(*args, **{k: v for k, v in kwargs.items() if k in params})
            bound.apply_defaults()
            return dict(bound.arguments)

        options = {k: v for k, v in kwargs.items() if k not in params}
        return self._launch(jit, bind, grid, options, lambda: run(jit, *args, grid=grid, warmup=False, **kwargs),
                            (*args, *kwargs.values()))

    def launch_compiled(self, compiled, jit, grid, args, call):
        """One launch of a kernel Triton compiled ahead (`jit.warmup(...)` gives a
        CompiledKernel, launched as compiled[grid](*every argument, constexprs too))."""
        metadata = getattr(compiled, "metadata", None)
        options = {k: getattr(metadata, k) for k in (_WARPS, _STAGES) if hasattr(metadata, k)}

        def bind():
            names = list(inspect.signature(jit.fn).parameters)
            if len(args) != len(names):
                raise TypeError(f"{len(args)} arguments for the {len(names)} parameters of {jit.fn.__name__}")
            return dict(zip(names, args))

        return self._launch(jit, bind, grid, options, call, args)

    def _unchecked(self, call, raw):
        """A launch not compared: the memory of its array arguments is no longer known undefined."""
        if self.fresh:
            for v in raw:
                for _, a, _ in snapshot.arrays_of("", v):
                    if snapshot.is_tensor(a):
                        self.fresh.forget(a)
        return call()

    def _launch(self, jit, bind, grid, options, call, raw):
        """The work of one launch: `bind()` gives {parameter: value}, `call()` launches it; `raw`
        are the arguments as given."""
        name = jit.fn.__name__
        if self.kernels is not None and name not in self.kernels:
            return self._unchecked(call, raw)
        self.summary.launched(name)
        if self.timing() or self.capturing():  # the script times the kernel, or captures a graph
            self.summary.skipped(name, "capture" if self.capturing() else "timing")
            return self._unchecked(call, raw)
        n = self.counts[name] = self.counts.get(name, 0) + 1
        if (n - 1) % self.every:
            self.summary.skipped(name, "every")
            return self._unchecked(call, raw)
        try:
            values = bind()
        except TypeError:  # Triton raises its own error for the call (if it does not: counted)
            self.summary.skipped(name, "error")
            return self._unchecked(call, raw)
        if snapshot.element_count(values) > self.budget:
            self.summary.skipped(name, "budget")
            return self._unchecked(call, raw)
        site = self.call_site()
        try:
            g = grid(dict(values)) if callable(grid) else grid
            g = tuple(int(x) for x in (g if isinstance(g, (tuple, list)) else (g,)))
            tensors = {buf: a for k, v in values.items() for buf, a, _ in snapshot.arrays_of(k, v) if snapshot.is_tensor(a)}
            undefined = {buf: r for buf, a in tensors.items() if (r := self.fresh.ranges(a))}
            inputs = snapshot.copy_values(values)
            pointees = tables.pointees(values)  # what pointer-table arguments point into
            pointed_before = tables.copies({p.label: p.tensor for p in pointees})
        except Exception as e:  # a grid or an argument the hook cannot take: said, and counted
            self._not_compared(name, site, e)
            return self._unchecked(call, raw)
        result = call()
        if self.sync is None:
            import torch
            self.sync = torch.cuda.synchronize
        self.sync()
        try:
            gpu = {k: v for k, v in snapshot.copy_values(values).items() if snapshot.arrays_of(k, v)}
            pointed = (pointees, pointed_before, tables.copies({p.label: p.tensor for p in pointees})) if pointees else None
        except Exception as e:
            self._not_compared(name, site, e)
            for a in tensors.values():
                self.fresh.forget(a)
            return result
        # The interpreter does not use them; values tilevm's checker refuses (it takes Triton's
        # usual ranges) are left at the defaults rather than failing the comparison.
        num_warps = _within(options.get(_WARPS), (1, 2, 4, 8, 16, 32), 4)
        num_stages = _within(options.get(_STAGES), range(1, 9), 1)
        d = self.check(jit, inputs, g, gpu, num_warps, num_stages, site, options, undefined, pointed)
        for buf, a in tensors.items():  # what the kernel's source left undefined, for later launches
            if d.undefined is None:
                self.fresh.forget(a)
            else:
                self.fresh.update(a, d.undefined.get(buf), create=True)
        return result

    def _not_compared(self, kernel, site, e):
        self.summary.skipped(kernel, "error")
        where = f", at {site}" if site else ""
        print(f"tilevm --diff: kernel {kernel}{where}: not compared: {type(e).__name__}: {e}", file=self.out, flush=True)

    def check(self, jit, inputs, grid, gpu, num_warps=4, num_stages=1, site="", options=None, undefined=None, pointed=None):
        """Compares one launch (inputs before it, gpu after it; `undefined`: {buffer: byte ranges}
        of storages that held no value; `pointed`: what pointer tables point into, diff_tables.py),
        records and reports it; a grid of more than `programs` programs on a sample of them."""
        g = tuple(int(x) for x in grid) + (1,) * (3 - len(grid))
        sample = ()
        if self.programs and g[0] * g[1] * g[2] > self.programs:
            sample = compare.sample_programs(g, self.programs)
        d = compare.diff_launch(jit, inputs, grid, gpu, num_warps=num_warps, num_stages=num_stages, site=site,
                                programs=sample, undefined=undefined, pointed=pointed)
        self.summary.add(d)
        if self.recorder is not None and pointed:
            print(f"tilevm --diff: kernel {d.kernel}: a launch over pointer tables is compared but not recorded", file=self.out)
        elif self.recorder is not None:
            self.recorder.save(jit, inputs, d.grid, gpu, options or {}, site, undefined)
        text = report.launch_text(d)
        if text:
            print(text, file=self.out, flush=True)
        if self.stop and d.diverged:
            raise DivergenceError(text)
        return d


def _within(v, allowed, default):
    try:
        return int(v) if v is not None and int(v) in allowed else default
    except (TypeError, ValueError):
        return default


def install(triton, session):
    """Wraps real Triton's JITFunction.run, CompiledKernel.__getitem__, Autotuner._bench and
    triton.testing's do_bench and do_bench_cudagraph for `session`."""
    jit_class = triton.runtime.jit.JITFunction
    original = jit_class.run

    def run(self, *args, grid, warmup, **kwargs):
        if warmup or session.benchmarking() or getattr(session._local, "inside", False):
            return original(self, *args, grid=grid, warmup=warmup, **kwargs)
        session._local.inside = True
        try:
            return session.launch(self, original, args, grid, kwargs)
        finally:
            session._local.inside = False

    run.__wrapped__ = original
    jit_class.run = run
    autotuner = getattr(getattr(triton.runtime, "autotuner", None), "Autotuner", None)
    bench = getattr(autotuner, "_bench", None)
    if bench is not None:
        def _bench(self, *args, **kwargs):
            session._depth(1)
            try:
                return bench(self, *args, **kwargs)
            finally:
                session._depth(-1)

        _bench.__wrapped__ = bench
        autotuner._bench = _bench
    compiled_class = getattr(getattr(getattr(triton, "compiler", None), "compiler", None), "CompiledKernel", None)
    getitem = getattr(compiled_class, "__getitem__", None)
    if getitem is not None:
        def __getitem__(self, grid):
            runner = getitem(self, grid)
            jit = getattr(getattr(self, "src", None), "fn", None)
            if jit is None or not hasattr(jit, "fn"):  # compiled from IR text, not a Python function
                return runner

            def launch(*args, **kwargs):
                if getattr(session._local, "inside", False) or session.benchmarking():
                    return runner(*args, **kwargs)
                session._local.inside = True
                try:
                    return session.launch_compiled(self, jit, grid, args, lambda: runner(*args, **kwargs))
                finally:
                    session._local.inside = False
            return launch

        __getitem__.__wrapped__ = getitem
        compiled_class.__getitem__ = __getitem__
    testing = getattr(triton, "testing", None)
    for fname in ("do_bench", "do_bench_cudagraph"):
        timed = getattr(testing, fname, None)
        if timed is not None:
            setattr(testing, fname, _timed(session, timed))
    return bench is not None


def _timed(session, fn):
    """triton.testing's benchmark `fn`, its launches counted as skipped (timing), not compared."""
    def timed(*args, **kwargs):
        session._timing(1)
        try:
            return fn(*args, **kwargs)
        finally:
            session._timing(-1)

    timed.__wrapped__ = fn
    timed.__name__, timed.__doc__ = fn.__name__, fn.__doc__
    return timed

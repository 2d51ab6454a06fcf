"""triton.runtime.autotuner: Config, Autotuner and Heuristics (triton.autotune and
triton.heuristics), with Triton's constructors, attributes and hooks, launching through the
JITFunction they wrap (runtime/jit.py)."""
import builtins
import inspect
import time

import tilevm
from tilevm.errors import CompileTimeAssertionFailure
from .. import knobs, testing
from .errors import AutotunerError, OutOfResources, PTXASError
from .jit import KernelInterface


class Config:
    """An autotuning configuration, as Triton's: constexpr values plus launch options (num_warps
    and num_stages size and pipeline the GPU engine's programs; the interpreter ignores them)."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps, self.num_stages, self.num_ctas, self.maxnreg = num_warps, num_stages, num_ctas, maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def __setstate__(self, state):
        self.__init__(state.get("kwargs", {}), state.get("num_warps", 4), state.get("num_stages", 3),
                      state.get("num_ctas", 1), state.get("maxnreg"), state.get("pre_hook"), state.get("ir_override"))

    def all_kwargs(self):
        """The constexprs and the launch options that are set (Triton's)."""
        options = (("num_warps", self.num_warps), ("num_ctas", self.num_ctas), ("num_stages", self.num_stages),
                   ("maxnreg", self.maxnreg), ("ir_override", self.ir_override))
        return {**self.kwargs, **{k: v for k, v in options if v is not None}}

    def __str__(self):
        return ", ".join([f"{k}: {v}" for k, v in self.kwargs.items()] +
                         [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}", f"num_stages: {self.num_stages}",
                          f"maxnreg: {self.maxnreg}"])

    def __repr__(self):
        return f"Config({self.kwargs}, num_warps={self.num_warps}, num_stages={self.num_stages})"

    def __hash__(self):
        return hash((*self.all_kwargs().items(), self.pre_hook))

    def __eq__(self, other):
        return (isinstance(other, Config) and
                (*self.all_kwargs().items(), self.pre_hook) == (*other.all_kwargs().items(), other.pre_hook))


class _Layer(KernelInterface):
    """A decorator layer over a JITFunction (or another layer) that adds constexprs before
    launching: `fn` is what it wraps, `base_fn` the Python function under every layer."""

    def __init__(self, fn, arg_names):
        self.fn = fn
        self.arg_names = list(arg_names)
        self.base_fn = fn
        while not inspect.isfunction(self.base_fn):
            self.base_fn = self.base_fn.fn
        self.__name__ = self.base_fn.__name__

    def bound_args(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        return named


class Autotuner(_Layer):
    """triton.autotune, as Triton's Autotuner: configurations pruned (early_config_prune, then
    perf_model's top_k), tuned once per key (the key arguments' values and every argument's
    dtype) into `cache`, with the hooks Triton calls around each trial (reset_to_zero and
    restore_value, or the user's pre_hook and post_hook). Timed on the GPU engine (the user's
    do_bench, else the median of knobs.autotuning.rep ms of launches: _time). On the interpreter
    the first configuration that can run is chosen untimed (every configuration computes the same
    result; CPU wall time says nothing about a GPU); `--autotune` / `--no-autotune` time them, or
    not, on either engine (tilevm.autotune_timed()). A configuration that cannot run
    (_cannot_run: a failed static_assert, out of resources) is skipped, as Triton's _bench skips
    it. Tuning results last for the process (`cache_results` is accepted; nothing goes to disk).
    The constructor's parameters and _bench's are Triton's, for the autotuners projects derive
    from this class."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
        super().__init__(fn, arg_names)
        self.configs = list(configs) or [Config({}, num_warps=4, num_stages=3, num_ctas=1)]
        self.keys = list(key or [])
        self.cache = {}
        self.configs_timings = {}
        self.best_config = None
        self.nargs = None
        self.cache_results = cache_results
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.restore_copies = {}
        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None
        self.pre_hook = pre_hook or self._reset_and_save
        self.post_hook = post_hook or self._restore
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self._do_bench = do_bench
        if warmup is not None or rep is not None or use_cuda_graph:
            import warnings
            warnings.warn("warmup, rep, and use_cuda_graph parameters are deprecated. See "
                          "https://github.com/triton-lang/triton/pull/4496 for details.", DeprecationWarning, stacklevel=3)
            self._do_bench = lambda kernel_call, quantiles: testing.do_bench(
                kernel_call, warmup=25 if warmup is None else warmup, rep=100 if rep is None else rep, quantiles=quantiles)

    @property
    def timings(self):
        """The last tuning's time per configuration (Triton's configs_timings)."""
        return self.configs_timings

    def _reset_and_save(self, nargs, reset_only=False):
        for name in self.reset_to_zero:
            _zero(nargs[name])
        if not reset_only:
            self.restore_copies = {name: _clone(nargs[name]) for name in self.restore_value}

    def _restore(self, nargs, exception):
        for name, saved in self.restore_copies.items():
            _copy_into(nargs[name], saved)
        self.restore_copies = {}

    def prune_configs(self, kwargs):
        """Triton's: early_config_prune on (configs, positional arguments by name, **keywords),
        then the top_k fastest by perf_model's estimate."""
        pruned = self.configs
        if self.early_config_prune:
            pruned = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not pruned:
                raise AutotunerError(
                    "No valid autotuner configs after pruning. `early_config_prune` should return at least one config.")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(self.configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be either 1) a float <= 1.0 or 2) an int")
            if len(pruned) > top_k:
                estimate = {c: self.perf_model(**self.nargs, **kwargs, **c.all_kwargs()) for c in pruned}
                pruned = sorted(estimate, key=estimate.get)[:top_k]
        return pruned

    def _meta(self, kwargs, config):
        conflicts = kwargs.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(f"Conflicting meta-parameters: {', '.join(conflicts)}."
                             " Make sure that you don't re-define auto-tuned symbols.")
        if config.ir_override is not None:
            raise ValueError(f"ir_override={config.ir_override!r}: tilevm compiles the kernel's Python source; "
                             "a Triton IR or PTX file cannot replace it")
        return {**kwargs, **config.all_kwargs()}

    def _launch(self, config, args, grid, kwargs, repeat=1):
        return self.fn.run(*args, grid=grid, _repeat=repeat, **self._meta(kwargs, config))

    def _time(self, config, args, grid, kwargs):
        """A configuration's median launch time in ms, as Triton's do_bench measures it for the
        autotuner: launches filling knobs.autotuning.rep ms (100; estimated from the first three;
        at least 3, at most 1000). Triton clears the L2 before each; these run on a warm L2."""
        seconds = self._launch(config, args, grid, kwargs, repeat=3)["seconds"]
        repeat = min(1000, int(knobs.autotuning.rep / 1e3 / max(seconds, 1e-7)))
        if repeat > 3:
            seconds = self._launch(config, args, grid, kwargs, repeat=repeat)["seconds"]
        return seconds * 1e3

    def _bench(self, *args, config, **meta):
        """One trial, as Triton's _bench: the configuration's and the autotuner's hooks around it;
        its time in ms (the user's do_bench: what that returns), inf when it cannot run."""
        grid = meta.pop("grid")
        meta.pop("warmup", None)
        kwargs = meta
        if knobs.autotuning.print:
            print(f"Autotuning kernel {self.__name__} with config {config}")
        full_nargs = {**self.nargs, **self._meta(kwargs, config)}

        def trial(run):
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                result = run()
            except Exception as e:
                try:
                    self.post_hook(full_nargs, exception=e)
                finally:
                    raise
            self.post_hook(full_nargs, exception=None)
            return result

        try:
            if self._do_bench is not None:
                return self._do_bench(lambda: trial(lambda: self._launch(config, args, grid, kwargs)),
                                      quantiles=(0.5, 0.2, 0.8))
            return trial(lambda: self._time(config, args, grid, kwargs))
        except Exception as e:
            if not _cannot_run(e):
                raise
            if knobs.autotuning.print:
                print(f"Autotuning failed with {e}")
            return float("inf")  # as Triton's _bench: never chosen while another runs

    def run(self, *args, grid, warmup=False, **kwargs):
        if warmup:
            return self.warmup(*args, grid=grid, **kwargs)
        self.nargs = dict(zip(self.arg_names, args))
        try:
            if len(self.configs) == 1:
                return self._final_run(self.configs[0], args, grid, kwargs)
            named = {k: v for k, v in {**self.nargs, **kwargs}.items() if k in self.arg_names}
            key = [_key_value(named[k]) for k in self.keys if k in named]
            key = tuple(key + [str(v.dtype) for v in named.values() if hasattr(v, "dtype")])
            if key in self.cache:
                return self._final_run(self.cache[key], args, grid, kwargs)
            pruned = self.prune_configs(kwargs)
            bench_start = time.time()
            if tilevm.autotune_timed():
                timings = {config: self._bench(*args, config=config, grid=grid, **kwargs) for config in pruned}
                self.configs_timings = timings
                candidates = [builtins.min(timings, key=timings.get)]
            else:
                candidates = pruned  # untimed: the first that can run
            for i, config in enumerate(candidates):
                self.cache[key] = config
                self.bench_time = time.time() - bench_start
                self.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()}, reset_only=True)
                try:
                    result = self._final_run(config, args, grid, kwargs)
                except Exception as e:
                    del self.cache[key]
                    if not _cannot_run(e) or i + 1 == len(candidates):
                        raise
                    continue
                if knobs.autotuning.print:
                    print(f"Triton autotuning for function {self.__name__},\nwith key as {key},\n"
                          f"finished after {self.bench_time:.2f}s,\nbest config selected: {config};")
                return result
        finally:
            self.nargs = None

    def _final_run(self, config, args, grid, kwargs):
        self.best_config = config
        if config.pre_hook is not None:
            config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
        return self._launch(config, args, grid, kwargs)

    def warmup(self, *args, grid, **kwargs):
        """Triton's: each pruned configuration compiled for these arguments, none launched."""
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, grid=grid, **self._meta(kwargs, config)) for config in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def _cannot_run(e):
    """Whether a configuration's error is one Triton's autotuner skips the configuration for (its
    _bench): a tl.static_assert that fails for its constants (CompileTimeAssertionFailure), more
    shared memory or registers than the GPU has (OutOfResources), a ptxas failure."""
    return isinstance(e, (OutOfResources, PTXASError, CompileTimeAssertionFailure))


def _key_value(v):
    """What an autotune key sees of an argument: a number, or a tensor's dtype and shape."""
    if hasattr(v, "shape") and hasattr(v, "dtype"):
        return (str(v.dtype), tuple(v.shape))
    return v


def _clone(x):
    return x.clone() if hasattr(x, "clone") else x.copy()


def _zero(x):
    if hasattr(x, "zero_"):
        x.zero_()
    else:
        x[...] = 0


def _copy_into(x, v):
    if hasattr(x, "copy_"):
        x.copy_(v)
    else:
        x[...] = v


class Heuristics(_Layer):
    """triton.heuristics: each value computed in Python from the arguments, as Triton does."""

    def __init__(self, fn, arg_names, values):
        super().__init__(fn, arg_names)
        self.values = values

    def _with_values(self, args, kwargs):
        named = self.bound_args(args, kwargs)
        for name, fn in self.values.items():
            kwargs[name] = fn(named)
            named[name] = kwargs[name]
        return kwargs

    def run(self, *args, grid, warmup=False, **kwargs):
        if warmup:
            return self.warmup(*args, grid=grid, **kwargs)
        return self.fn.run(*args, grid=grid, **self._with_values(args, kwargs))

    def warmup(self, *args, grid, **kwargs):
        return self.fn.warmup(*args, grid=grid, **self._with_values(args, kwargs))


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None, post_hook=None,
             warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    return lambda fn: Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value, pre_hook=pre_hook,
                                post_hook=post_hook, prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                                use_cuda_graph=use_cuda_graph, do_bench=do_bench, cache_results=cache_results)


def heuristics(values):
    return lambda fn: Heuristics(fn, fn.arg_names, values)

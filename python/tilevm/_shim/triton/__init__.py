"""tilevm's stand-in for the `triton` package (`python3 -m tilevm` puts it first on sys.path):
jit, autotune, heuristics, Config, cdiv, next_power_of_2, language, testing and runtime, with
kernels launched on tilevm's checking interpreter (or its GPU engine: `--device cuda`)."""
import builtins
import inspect
import re
import sys
import textwrap
import time
import types

import tilevm
from tilevm import launcher as _launcher
from tilevm import source_unit as _source_unit
from . import language  # noqa: F401
from . import testing  # noqa: F401
from . import runtime  # noqa: F401
from . import tools  # noqa: F401
from . import knobs  # noqa: F401
from .errors import TritonError  # noqa: F401
from tilevm.errors import CompilationError, CompileTimeAssertionFailure  # noqa: F401
from .runtime import InterpreterError, OutOfResources, TensorWrapper, constexpr_function, reinterpret  # noqa: F401

__version__ = "3.6.0+tilevm"


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


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


def _source_lines(fn):
    """The lines of `fn`'s definition and the line number of the first, as inspect finds them;
    for a function built by exec() from a string (no file, nothing in linecache), the string
    found among the locals of the frame that ran exec."""
    try:
        return inspect.getsourcelines(fn)
    except (OSError, TypeError):
        pass
    code = fn.__code__
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == code.co_filename and frame.f_back is not None:
            for v in frame.f_back.f_locals.values():
                lines = _definition_in(v, code)
                if lines:
                    return lines, code.co_firstlineno
        frame = frame.f_back
    # Triton's class for this (its message: "@jit functions should be defined in a Python file").
    raise ValueError(f"@jit functions should be defined in a Python file: the source of {fn.__name__} "
                     f"({code.co_filename}) cannot be found (or exec() a string kept in a local variable)")


def _definition_in(text, code):
    """The lines of the definition starting at code.co_firstlineno in `text`, if `text` is the
    string `code` was compiled from (compiled again here, its code must be the same)."""
    if not isinstance(text, str) or f"def {code.co_name}" not in text:
        return None
    try:
        module = builtins.compile(text, code.co_filename, "exec")
    except (SyntaxError, ValueError):
        return None
    if not any(_same_code(c, code) for c in _code_objects(module)):
        return None
    lines = text.splitlines(True)
    return inspect.getblock(lines[code.co_firstlineno - 1:])


def _code_objects(code):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield c
            yield from _code_objects(c)


def _same_code(a, b):
    if (a.co_name, a.co_firstlineno, a.co_code, a.co_names, a.co_varnames) != \
            (b.co_name, b.co_firstlineno, b.co_code, b.co_names, b.co_varnames):
        return False
    if len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType) != isinstance(y, types.CodeType):
            return False
        if isinstance(x, types.CodeType) and not _same_code(x, y):
            return False
        if not isinstance(x, types.CodeType) and (type(x) is not type(y) or x != y):
            return False
    return True


_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "debug", "grid", "warmup")


class _SourcePosition:
    """Where a kernel's `def` is: Triton's FunctionRewriter's `filename` and `def_file_lineno`."""

    def __init__(self, filename, def_file_lineno):
        self.filename = filename
        self.def_file_lineno = def_file_lineno


class JITFunction:
    """A @triton.jit function: compiled from its live source (`src`, which a program may
    rewrite) and the values its globals and closure hold, by tilevm's frontend."""

    _tilevm_jit = True

    def __init__(self, fn, do_not_specialize=None, debug=None, **options):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__qualname__ = fn.__qualname__
        self.arg_names = list(inspect.signature(fn).parameters)
        self.do_not_specialize = do_not_specialize or []
        self.debug = debug  # Triton's: integer overflow checks (launcher.debug_mode)
        self._repr = options.get("repr")  # Triton's: names a compiled kernel from its specialization
        raw, self.starting_line_number = _source_lines(fn)
        text = textwrap.dedent("".join(raw))
        # As Triton: the source starts at `def` (decorators are the host's business).
        start = re.search(r"^def\s+\w+\s*\(", text, re.MULTILINE)
        if start is None:
            raise ValueError(f"@triton.jit: cannot find the definition of {fn.__name__} in its source")
        skipped = text[:start.start()].count("\n")  # decorator lines
        self.def_file_line_number = self.starting_line_number + skipped
        first = raw[skipped] if raw else ""
        self._indent = len(first) - len(first.lstrip())
        self._src = text[start.start():]
        self._unit = None  # (serial, unit): resolved at the first launch, again after src changes
        self.pre_run_hooks = []

    @property
    def src(self):
        return self._src

    @src.setter
    def src(self, new_src):
        self._src = new_src
        self._unit = None

    def _unsafe_update_src(self, new_src):
        self.src = new_src

    @property
    def source_path(self):
        return self.fn.__code__.co_filename

    def _tilevm_source(self):
        """(text, file, line of `def`, columns dedented) of the source that is compiled."""
        return self._src, self.source_path, self.def_file_line_number, self._indent

    def _tilevm_unit(self):
        """(serial, source unit): the names resolved once; a warm launch only checks, as Triton
        does, that the globals they came from still hold the same values."""
        if self._unit is None:
            unit, self._used_globals = _source_unit.build(self)
            self._unit = (_source_unit.next_serial(), unit)
        else:
            _source_unit.check_globals(self._used_globals)
        return self._unit

    def is_constexpr(self, p):
        a = p.annotation
        return a is language.constexpr or (isinstance(a, str) and "constexpr" in a)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def add_pre_run_hook(self, hook):
        """As Triton's: `hook(*args, **kwargs)` runs before each launch, with the launch's arguments."""
        assert callable(hook)
        self.pre_run_hooks.append(hook)

    def run(self, *args, grid, _repeat=1, **kwargs):
        warmup = kwargs.pop("warmup", False)
        if warmup:  # Triton's run(warmup=True): compile, do not launch
            return self.warmup(*args, grid=grid, **kwargs)
        for hook in self.pre_run_hooks:
            hook(*args, **kwargs)
        # Launch options are not kernel arguments (unless the kernel names a parameter so:
        # Triton's softmax tutorial takes num_stages as a constexpr); num_warps sizes the GPU
        # engine's programs and num_stages its software pipelining; neither means anything to the
        # interpreter.
        meta = {k: v for k, v in kwargs.items() if k not in _LAUNCH_OPTIONS or k in self.arg_names}
        def option(name, default):  # a launch option's value, unless the kernel took it as a parameter
            return (kwargs.get(name) if name not in self.arg_names else None) or default
        return _launcher.launch(self, grid, args, meta, num_warps=option("num_warps", 4), num_stages=option("num_stages", 1),
                                repeat=_repeat, maxnreg=option("maxnreg", None),
                                fp_fusion=kwargs.get("enable_fp_fusion") if "enable_fp_fusion" not in self.arg_names else None,
                                debug=kwargs.get("debug") if "debug" not in self.arg_names else None)

    def warmup(self, *args, grid, **kwargs):
        """Compiles for these arguments without running, as Triton's warmup: a CompiledKernel
        (compiler/) with its metadata, n_regs and n_spills, launched as kernel[grid](...)."""
        from .compiler import warmup
        return warmup(self, args, grid, kwargs)

    def rewrite(self):
        """Triton's interpreter (InterpretedFunction.rewrite) rewrites the kernel's source into
        Python it can run and keeps where the `def` is in `rewriter`. tilevm compiles the
        source instead, so the function comes back as it is; `rewriter` says the same."""
        self.rewriter = _SourcePosition(self.source_path, self.def_file_line_number)
        return self.fn

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.__name__} is a @triton.jit function: launch it as {self.__name__}[grid](...)")


_allocator = None


def set_allocator(allocator):
    """Triton's: the allocator of global scratch memory (device-made tensor descriptors' workspace).
    tilevm's descriptors need none, so it is kept and never called."""
    global _allocator
    _allocator = allocator


def jit(fn=None, **options):
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)


class _Wrapper:
    """A decorator layer over a JITFunction that adds constexprs before launching."""

    def __init__(self, inner):
        self.inner = inner
        self.fn = inner  # as Triton's: the kernel (or decorator layer) this one wraps
        self.base_fn = inner  # as Triton's Autotuner: the Python function under every layer
        while not inspect.isfunction(self.base_fn):
            self.base_fn = self.base_fn.fn
        self.__name__ = inner.__name__
        self.arg_names = inner.arg_names

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def bound_args(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        return named


class Autotuner(_Wrapper):
    """triton.autotune, as Triton's Autotuner: configurations pruned (early_config_prune, then
    perf_model's top_k), tuned once per key (the key arguments' values and every argument's
    dtype) into `cache`, with the hooks Triton calls around each trial (reset_to_zero and
    restore_value, or the user's pre_hook and post_hook). Timed on the GPU engine (the user's
    do_bench, else the median of knobs.autotuning.rep ms of launches: _time). On the interpreter
    the first configuration that can run is chosen untimed (every configuration computes the same
    result; CPU wall time says nothing about a GPU); `--autotune` / `--no-autotune` time them, or
    not, on either engine (tilevm.autotune_timed()). A configuration that cannot run
    (_cannot_run: a failed static_assert, out of resources) is skipped, as Triton's _bench skips
    it. Tuning results last for the process (`cache_results` is accepted; nothing goes to disk)."""

    def __init__(self, inner, configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None,
                 cache_results=False):
        super().__init__(inner)
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
                raise runtime.AutotunerError(
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
        return self.inner.run(*args, grid=grid, _repeat=repeat, **self._meta(kwargs, config))

    def _time(self, config, args, grid, kwargs):
        """A configuration's median launch time, as Triton's do_bench measures it for the
        autotuner: launches filling knobs.autotuning.rep ms (100; estimated from the first three;
        at least 3, at most 1000). Triton clears the L2 before each; these run on a warm L2."""
        seconds = self._launch(config, args, grid, kwargs, repeat=3)["seconds"]
        repeat = min(1000, int(knobs.autotuning.rep / 1e3 / max(seconds, 1e-7)))
        return self._launch(config, args, grid, kwargs, repeat=repeat)["seconds"] if repeat > 3 else seconds

    def _bench(self, config, args, grid, kwargs):
        """One trial, as Triton's _bench: the configuration's and the autotuner's hooks around it."""
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

    def run(self, *args, grid, **kwargs):
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
                timings = {config: self._bench(config, args, grid, kwargs) for config in pruned}
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
            return [self.inner.warmup(*args, grid=grid, **self._meta(kwargs, config)) for config in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def _cannot_run(e):
    """Whether a configuration's error is one Triton's autotuner skips the configuration for (its
    _bench): a tl.static_assert that fails for its constants (CompileTimeAssertionFailure), more
    shared memory or registers than the GPU has (OutOfResources), a ptxas failure."""
    return isinstance(e, (OutOfResources, runtime.PTXASError, CompileTimeAssertionFailure))


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


class Heuristics(_Wrapper):
    """triton.heuristics: each value computed in Python from the arguments, as Triton does."""

    def __init__(self, inner, values):
        super().__init__(inner)
        self.values = values

    def _with_values(self, args, kwargs):
        named = self.bound_args(args, kwargs)
        for name, fn in self.values.items():
            kwargs[name] = fn(named)
            named[name] = kwargs[name]
        return kwargs

    def run(self, *args, grid, **kwargs):
        return self.inner.run(*args, grid=grid, **self._with_values(args, kwargs))

    def warmup(self, *args, grid, **kwargs):
        return self.inner.warmup(*args, grid=grid, **self._with_values(args, kwargs))


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None, post_hook=None,
             warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    return lambda inner: Autotuner(inner, configs, key, prune_configs_by, reset_to_zero, restore_value, pre_hook, post_hook,
                                   warmup, rep, use_cuda_graph, do_bench, cache_results)


def heuristics(values):
    return lambda inner: Heuristics(inner, values)


from .language.core import must_use_result  # noqa: E402,F401 (triton.must_use_result)
from . import compiler  # noqa: E402 (triton.compiler, as Triton's package has it)
from .compiler import compile  # noqa: E402,F401 (triton.compile)

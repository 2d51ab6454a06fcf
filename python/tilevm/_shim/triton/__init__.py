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
    """An autotuning configuration: constexpr values plus launch options (ignored on the CPU)."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, **rest):
        self.kwargs = dict(kwargs)
        self.num_warps, self.num_stages, self.num_ctas, self.maxnreg = num_warps, num_stages, num_ctas, maxnreg
        self.pre_hook = pre_hook
        self.all_kwargs = lambda: {**self.kwargs, "num_warps": num_warps, "num_stages": num_stages}

    def __repr__(self):
        return f"Config({self.kwargs}, num_warps={self.num_warps}, num_stages={self.num_stages})"


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


_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "grid", "warmup")


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
                                fp_fusion=kwargs.get("enable_fp_fusion") if "enable_fp_fusion" not in self.arg_names else None)

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
        self.__name__ = inner.__name__
        self.arg_names = inner.arg_names

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def bound_args(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update(kwargs)
        return named


class Autotuner(_Wrapper):
    """triton.autotune: on the GPU engine each configuration left after pruning is timed once per
    value of `key` (CUDA events, the median of knobs.autotuning.rep ms of launches: _time), with
    `reset_to_zero` arguments zeroed before each trial and
    `restore_value` ones restored after it, as Triton does; the fastest is kept. On the
    interpreter the first runs (every configuration computes the same result; its wall time says
    nothing about a GPU). `--autotune` / `--no-autotune` time them, or not, on either engine
    (tilevm.autotune_timed()). Either way a configuration that cannot run (_cannot_run: a failed
    static_assert, out of resources) is skipped, as Triton's benchmarking skips it."""

    def __init__(self, inner, configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, **rest):
        super().__init__(inner)
        self.configs = list(configs) or [Config({})]
        self.key = list(key or [])
        self.prune_configs_by = prune_configs_by or {}
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.best_config = None
        self.cache = {}
        self.timings = {}

    def _launch(self, config, args, grid, kwargs, named, repeat=1):
        merged = {**kwargs, **config.kwargs, "num_warps": config.num_warps, "num_stages": config.num_stages}
        if config.maxnreg is not None:
            merged["maxnreg"] = config.maxnreg
        if config.pre_hook:
            config.pre_hook({**named, **config.kwargs})
        return self.inner.run(*args, grid=grid, _repeat=repeat, **merged)

    def _time(self, config, args, grid, kwargs, named):
        """A configuration's median launch time, as Triton's do_bench measures it for the
        autotuner: launches filling knobs.autotuning.rep ms (100; estimated from the first three;
        at least 3, at most 1000). Triton clears the L2 before each; these run on a warm L2."""
        seconds = self._launch(config, args, grid, kwargs, named, repeat=3)["seconds"]
        repeat = min(1000, int(knobs.autotuning.rep / 1e3 / max(seconds, 1e-7)))
        return self._launch(config, args, grid, kwargs, named, repeat=repeat)["seconds"] if repeat > 3 else seconds

    def run(self, *args, grid, **kwargs):
        configs = self.configs
        prune = self.prune_configs_by.get("early_config_prune")
        named = self.bound_args(args, kwargs)
        if prune:  # Triton's call: the positional arguments by name, the keywords as keywords
            configs = prune(configs, dict(zip(self.arg_names, args)), **kwargs) or configs
        if not tilevm.autotune_timed() or len(configs) == 1:
            # The first configuration that can run (Triton's benchmarking skips the others).
            for i, config in enumerate(configs):
                try:
                    self.best_config = config
                    return self._launch(config, args, grid, kwargs, named)
                except Exception as e:
                    if not _cannot_run(e) or i + 1 == len(configs):
                        raise
        key = tuple(_key_value(named.get(k)) for k in self.key)
        if key not in self.cache:
            bench_start = time.time()
            times = {}
            for config in configs:
                saved = {n: _clone(named[n]) for n in self.restore_value if n in named}
                for n in self.reset_to_zero:
                    if n in named:
                        _zero(named[n])
                try:
                    times[config] = self._time(config, args, grid, kwargs, named)
                except Exception as e:
                    if not _cannot_run(e):
                        raise
                    times[config] = float("inf")  # as Triton's _bench: never chosen while another runs
                finally:
                    for n, v in saved.items():
                        _copy_into(named[n], v)
            self.cache[key] = min(times, key=times.get)
            self.timings = times
            self.bench_time = time.time() - bench_start
            if knobs.autotuning.print:  # Triton's summary of a timed autotune
                print(f"Triton autotuning for function {self.__name__},\nwith key as {key},\n"
                      f"finished after {self.bench_time:.2f}s,\nbest config selected: {self.cache[key]};")
        self.best_config = self.cache[key]
        for n in self.reset_to_zero:
            if n in named:
                _zero(named[n])
        return self._launch(self.best_config, args, grid, kwargs, named)


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

    def run(self, *args, grid, **kwargs):
        named = self.bound_args(args, kwargs)
        for name, fn in self.values.items():
            kwargs[name] = fn(named)
            named[name] = kwargs[name]
        return self.inner.run(*args, grid=grid, **kwargs)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, **rest):
    return lambda inner: Autotuner(inner, configs, key, prune_configs_by, reset_to_zero, restore_value, **rest)


def heuristics(values):
    return lambda inner: Heuristics(inner, values)


from .language.core import must_use_result  # noqa: E402,F401 (triton.must_use_result)
from . import compiler  # noqa: E402 (triton.compiler, as Triton's package has it)
from .compiler import compile  # noqa: E402,F401 (triton.compile)

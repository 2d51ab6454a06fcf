"""triton.runtime.jit: JITFunction (a @triton.jit function, compiled by tilevm's frontend from
its live source), KernelInterface (what every launchable layer derives from, as in Triton),
KernelParam, TensorWrapper and reinterpret (a tensor's memory seen as another dtype: how
Triton's programs pass uint16/32/64 arrays, which torch 1.x lacks, and fp8 ones; the launcher
binds a TensorWrapper as a pointer of the wrapper's dtype to the base tensor's memory),
constexpr_function, and type_canonicalisation_dict."""
import ast
import builtins
import functools
import hashlib
import inspect
import re
import sys
import textwrap
import types

from tilevm import launcher as _launcher
from tilevm import source_unit as _source_unit
from .._utils import type_canonicalisation_dict  # noqa: F401
from ..language import core as _core


class TensorWrapper:
    """`base` (a tensor) whose elements a kernel reads as `dtype` (a triton.language dtype)."""

    def __init__(self, base, dtype):
        self.dtype = dtype
        self.base = base
        self.data = base.data
        self.device = base.device
        self.shape = self.base.shape

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def __str__(self):
        return f"TensorWrapper[{self.dtype}]({self.base})"

    def element_size(self):
        return self.base.element_size()

    def numel(self):
        return self.base.numel()

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)


def reinterpret(tensor, dtype):
    """`tensor`'s memory as `dtype`: a TensorWrapper (or the base tensor itself when `dtype` is
    its own)."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"Cannot reinterpret a {type(tensor)}.")


class ConstexprFunction:
    """A function of compile-time values (Triton's @constexpr_function). Host code calls it as a
    plain function, constexpr arguments unwrapped; a kernel calls it while it compiles
    (source_unit.py hands it to the frontend), on its constexpr arguments, as Triton does."""

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        args = [a.value if isinstance(a, _core.constexpr) else a for a in args]
        kwargs = {k: v.value if isinstance(v, _core.constexpr) else v for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)


def constexpr_function(fn):
    return ConstexprFunction(fn)


# Keywords of a launch that are options, not kernel arguments (unless the kernel names a
# parameter so).
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "debug", "grid", "warmup")


class KernelInterface:
    """Triton's base of everything launched as `fn[grid](*args, **kwargs)`: JITFunction,
    Autotuner, Heuristics, and the layers projects derive from it; the launch is
    `run(*args, grid=grid, warmup=False, **kwargs)`."""

    def run(self, *args, grid, warmup, **kwargs):
        raise NotImplementedError("run not implemented")

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)


class KernelParam:
    """A parameter of a @triton.jit function, as Triton describes it (`JITFunction.params`)."""

    def __init__(self, num, param, do_not_specialize, do_not_specialize_on_alignment):
        self.num = num
        self._param = param
        self.name = param.name
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment

    @property
    def annotation(self):
        """The annotation as Triton normalizes it: "constexpr", a dtype's name ("fp16", "*fp32"), or ""."""
        a = self._param.annotation
        if a is inspect.Parameter.empty or not a:
            return ""
        if isinstance(a, _core.dtype):
            text = a.name
        elif isinstance(a, type):
            text = a.__name__
        else:
            text = str(a)
        return type_canonicalisation_dict.get(text.replace("_t", ""), text)

    @property
    def is_constexpr(self):
        return "constexpr" in self.annotation

    @property
    def is_const(self):
        return not self.is_constexpr and ("const" in self.annotation or self.annotation.startswith("*k"))

    @property
    def default(self):
        return self._param.default

    @property
    def has_default(self):
        return self._param.default is not inspect.Parameter.empty


class _SourcePosition:
    """Where a kernel's `def` is: Triton's FunctionRewriter's `filename` and `def_file_lineno`."""

    def __init__(self, filename, def_file_lineno):
        self.filename = filename
        self.def_file_lineno = def_file_lineno


class JITFunction(KernelInterface):
    """A @triton.jit function: compiled from its live source (`src`, which a program may
    rewrite) and the values its globals and closure hold, by tilevm's frontend. Its parameters
    (`signature`, `params`, `arg_names`, `constexprs`) and `cache_key` are Triton's."""

    _tilevm_jit = True

    def __init__(self, fn, do_not_specialize=None, do_not_specialize_on_alignment=None, debug=None, **options):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__qualname__ = fn.__qualname__
        self.__globals__ = fn.__globals__
        self.signature = inspect.signature(fn)
        self.do_not_specialize = do_not_specialize or []
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment or []
        self.params = [KernelParam(i, p, i in self.do_not_specialize or p.name in self.do_not_specialize,
                                   i in self.do_not_specialize_on_alignment or p.name in self.do_not_specialize_on_alignment)
                       for i, p in enumerate(self.signature.parameters.values())]
        self.arg_names = [p.name for p in self.params]
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        self._hash = None
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
        self._hash = None

    @property
    def cache_key(self):
        """Triton's: a hash of the source, where it starts, the source of every @triton.jit
        function it names (recursively) and the constexpr globals it reads."""
        if self._hash is None:
            self._hash = f"recursion:{self.__qualname__}"  # a function that calls itself
            parts = [self._src, str(self.starting_line_number)]
            scope = self.get_capture_scope()
            for name in sorted({n.id for n in ast.walk(ast.parse(self._src)) if isinstance(n, ast.Name)}):
                value = scope.get(name)
                if isinstance(value, JITFunction):
                    parts.append(f"{name}:{value.cache_key}")
                elif isinstance(value, _core.constexpr):
                    parts.append(f"{name}={value.value!r}")
            self._hash = hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()
        return self._hash

    def get_capture_scope(self):
        """The names the function sees: its globals, then its closure (Triton's)."""
        if self.fn.__closure__ is None:
            return self.__globals__
        return {**self.__globals__, **inspect.getclosurevars(self.fn).nonlocals}

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
        """Whether inspect's parameter `p` is a constexpr, by KernelParam's one rule."""
        return KernelParam(0, p, False, False).is_constexpr

    def add_pre_run_hook(self, hook):
        """As Triton's: `hook(*args, **kwargs)` runs before each launch, with the launch's arguments."""
        assert callable(hook)
        self.pre_run_hooks.append(hook)

    def run(self, *args, grid, warmup=False, _repeat=1, **kwargs):
        if warmup:  # Triton's run(warmup=True): compile, do not launch
            return self.warmup(*args, grid=grid, **kwargs)
        for hook in self.pre_run_hooks:
            hook(*args, **kwargs)
        # Launch options are not kernel arguments (unless the kernel names a parameter so:
        # Triton's softmax tutorial takes num_stages as a constexpr); num_warps sizes the GPU
        # engine's programs and num_stages its software pipelining; neither means anything to the
        # interpreter.
        meta = {k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS or k in self.arg_names}
        def option(name, default):  # a launch option's value, unless the kernel took it as a parameter
            return (kwargs.get(name) if name not in self.arg_names else None) or default
        return _launcher.launch(self, grid, args, meta, num_warps=option("num_warps", 4), num_stages=option("num_stages", 1),
                                repeat=_repeat, maxnreg=option("maxnreg", None),
                                fp_fusion=kwargs.get("enable_fp_fusion") if "enable_fp_fusion" not in self.arg_names else None,
                                debug=kwargs.get("debug") if "debug" not in self.arg_names else None)

    def warmup(self, *args, grid, **kwargs):
        """Compiles for these arguments without running, as Triton's warmup: a CompiledKernel
        (compiler/) with its metadata, n_regs and n_spills, launched as kernel[grid](...)."""
        from ..compiler import warmup
        return warmup(self, args, grid, kwargs)

    def rewrite(self):
        """Triton's interpreter (InterpretedFunction.rewrite) rewrites the kernel's source into
        Python it can run and keeps where the `def` is in `rewriter`. tilevm compiles the
        source instead, so the function comes back as it is; `rewriter` says the same."""
        self.rewriter = _SourcePosition(self.source_path, self.def_file_line_number)
        return self.fn

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.__name__} is a @triton.jit function: launch it as {self.__name__}[grid](...)")


def jit(fn=None, **options):
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)


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

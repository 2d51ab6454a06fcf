"""A JIT function of real Triton (or any object with its attributes: fn, src, params,
def_file_line_number, def_file_col_number) as tilevm's launcher and source unit builder see one
of tilevm's own: the same compile-from-live-function path (source_unit.build, launcher.launch),
the source read from `src` at each launch (a program may rewrite it)."""
import inspect

from . import source_unit


def _looks_like_jit(v):
    """Whether `v` is another JIT's function (Triton's JITFunction, by its attributes)."""
    t = type(v)
    return (t.__name__ == "JITFunction" and getattr(t, "_tilevm_jit", False) is not True and hasattr(v, "fn")
            and hasattr(v, "params") and hasattr(v, "src"))


class LiveKernel:
    """tilevm's view of a foreign JITFunction `jit`: what launcher.launch and source_unit use of
    tilevm's stand-in (fn, __name__, source_path, is_constexpr, _tilevm_source, _tilevm_unit)."""

    _tilevm_jit = True

    def __init__(self, jit):
        self.jit = jit
        self.fn = jit.fn
        self.__name__ = jit.fn.__name__
        self._constexpr = frozenset(p.name for p in jit.params if p.is_constexpr)
        self._unit = None  # (serial, unit, the src it was built from)
        self._used_globals = {}

    @property
    def source_path(self):
        return self.fn.__code__.co_filename

    def is_constexpr(self, p):
        return p.name in self._constexpr

    def _tilevm_source(self):
        """(text, file, line of `def`, columns dedented): Triton's def_file_line_number and
        def_file_col_number (1-based), or, where a Triton lacks them, found as it finds them."""
        line = getattr(self.jit, "def_file_line_number", None)
        col = getattr(self.jit, "def_file_col_number", None)
        if line is None or col is None:
            line, col = _def_position(self.fn)
        return self.jit.src, self.source_path, int(line), max(int(col) - 1, 0)

    def _tilevm_unit(self):
        """(serial, source unit), built again when `src` has changed since."""
        src = self.jit.src
        if self._unit is None or self._unit[2] is not src:
            unit, self._used_globals = source_unit.build(self)
            self._unit = (source_unit.next_serial(), unit, src)
        else:
            source_unit.check_globals(self._used_globals)
        return self._unit[:2]


def _def_position(fn):
    """(line, 1-based column) of the `def` of fn, past its decorators."""
    try:
        raw, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return fn.__code__.co_firstlineno, 1
    for i, text in enumerate(raw):
        if text.lstrip().startswith(("def ", "async def ")):
            return start + i, len(text) - len(text.lstrip()) + 1
    return start, 1


def kernel_of(jit):
    """The kernel tilevm compiles for `jit`: itself when it is tilevm's, else its LiveKernel (one
    per function, kept on it)."""
    if getattr(type(jit), "_tilevm_jit", False) is True:
        return jit
    k = jit.__dict__.get("_tilevm_live")
    if k is None:
        k = LiveKernel(jit)
        jit.__dict__["_tilevm_live"] = k  # past Triton's __setattr__, as its _unsafe_update_src is
    return k


def _foreign(v):
    """source_unit's view of a foreign JIT function: its LiveKernel, except for Triton's own
    (triton.language's @jit functions: sigmoid, softmax, cdiv, ...), which stay builtins named
    by their module, as tilevm's frontend knows them."""
    if not _looks_like_jit(v):
        return None
    module = getattr(v.fn, "__module__", None) or ""
    if module == "triton" or module.startswith("triton."):
        return None
    return kernel_of(v)


source_unit.foreign_jit = _foreign

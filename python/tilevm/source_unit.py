"""A @triton.jit function as tilevm's frontend compiles it: its live source text (`fn.src`, which a
program may rewrite) and the values of the names it uses, looked up in its globals and closure
as Python evaluated them, as Triton's JIT does. The result is plain data (no Python text to be
parsed back): C++'s frontend/SourceUnit.h reads it.

unit = (functions, tables) or (functions, tables, constexpr_functions)
  functions: [(text, file, first_line, indent, table)]  -- functions[0] is the kernel
  tables:    [{name: (kind, i, f, s, ref)}]             -- kinds as HostValue::K, lower case
  constexpr_functions: [callable]  -- the @triton.constexpr_function objects the unit names
                                      ("constexpr_function" values: ref is the index), which
                                      the frontend calls on compile-time arguments, as Triton does
"""
import ast
import sys
import types


# Sees another JIT's function (real Triton's JITFunction, under `--diff triton`) as one of
# tilevm's: a function of the value, returning the stand-in or None (tilevm/diff_live.py).
foreign_jit = None

_serial = 0


def next_serial():
    """A new key of a source unit (the extension caches each unit's parse by it): one counter
    for every kind of JIT function in the process."""
    global _serial
    _serial += 1
    return _serial


def jit_of(v):
    """The JITFunction `v` is (tilevm's, or its stand-in for another JIT's), or None."""
    if getattr(type(v), "_tilevm_jit", False) is True:  # the class says: a module's __getattr__ cannot
        return v
    return foreign_jit(v) if foreign_jit is not None else None


def triton_function(v):
    """Whether v is one of Triton's own functions (not a class, not a JIT function): a kernel may
    be given it as an argument, and the frontend knows it by its dotted name."""
    mod = getattr(v, "__module__", None)
    return (callable(v) and not isinstance(v, type) and jit_of(v) is None and isinstance(mod, str) and
            _is_triton_module(mod) and hasattr(v, "__name__"))


def _used_names(tree):
    """{name: set of attribute chains (tuples)} for every name the function's syntax reads."""
    used = {}

    def chain(node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            return node.id, tuple(reversed(parts))
        return None, None

    class Visitor(ast.NodeVisitor):
        def visit_Attribute(self, node):
            name, parts = chain(node)
            if name is None:
                self.generic_visit(node)
            else:
                used.setdefault(name, set()).add(parts)

        def visit_Name(self, node):
            used.setdefault(node.id, set())

    Visitor().visit(tree)
    return used


def _local_names(tree):
    """The parameters and the names the function assigns: they shadow its globals once bound (a
    global of the same name is read only before that, as Triton reads it)."""
    local = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            local.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            local.add(node.id)
    return local


def _describe(v):
    t = type(v)
    if isinstance(v, types.FunctionType):
        return f"a Python function ({v.__qualname__}), not a @triton.jit function"
    mod = t.__module__
    return f"a {t.__qualname__ if mod in ('builtins', None) else mod + '.' + t.__qualname__}"


def _is_constexpr_function(v):
    """Triton's @triton.constexpr_function (tilevm's stand-in's, or real Triton's under --diff)."""
    t = type(v)
    return t.__name__ in ("ConstexprFunction", "BoundConstexprFunction") and t.__module__.startswith("triton")


def dtype_named(name):
    """The dtype `name` (fp16, int32, ...) of the `triton` in use, for a constexpr function's
    argument."""
    import triton.language as tl
    if name.startswith("pointer<") and name.endswith(">"):
        return tl.pointer_type(tl.dtype(name[len("pointer<"):-1]))
    return tl.dtype(name)


def _is_triton_module(name):
    return name == "triton" or name.startswith("triton.") or name == "math"


class _Builder:
    def __init__(self):
        self.functions, self.tables = [], []
        self.function_index, self.module_table = {}, {}
        self.keep = []  # objects whose id() keys the maps above stay alive while building
        self.used_globals = {}  # (name, id(globals)) -> (value, globals): what the unit assumed
        self.constexpr_functions, self.constexpr_index = [], {}

    def function(self, jit_fn):
        key = id(jit_fn)
        if key in self.function_index:
            return self.function_index[key]
        self.keep.append(jit_fn)
        index = len(self.functions)
        self.function_index[key] = index
        table = len(self.tables)
        self.tables.append({})
        self.functions.append(None)
        text, file, first_line, indent = jit_fn._tilevm_source()
        self.functions[index] = (text, file, first_line, indent, table)
        fn = jit_fn.fn
        closure = {}
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: the enclosing function has not bound it yet
                pass
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return index  # the frontend reports it, located
        local = _local_names(tree)
        for name, chains in _used_names(tree).items():
            if name in closure:
                value = closure[name]
            elif name in fn.__globals__:
                value = fn.__globals__[name]
            else:
                continue  # a builtin, a parameter or local, or undefined: the frontend knows
            self.tables[table][name] = resolved = self.value(value, chains)
            if name not in closure and name not in local and resolved[0] not in ("module", "namespace", "unsupported"):
                self.used_globals[(name, id(fn.__globals__))] = (value, fn.__globals__)
        return index

    def value(self, v, chains=()):
        if type(v).__name__ == "constexpr" and hasattr(v, "value") and type(v).__module__.startswith("triton"):
            v = v.value
        if v is None:
            return ("none", 0, 0.0, "", 0)
        if isinstance(v, bool):
            return ("bool", int(v), 0.0, "", 0)
        if isinstance(v, int):
            if -2**63 <= v < 2**63:
                return ("int", v, 0.0, "", 0)
            if 2**63 <= v < 2**64:  # Triton's uint64 constexprs
                return ("uint", v, 0.0, "", 0)
            return ("unsupported", 0, 0.0, f"the integer {v}, which does not fit 64 bits", 0)
        if isinstance(v, float):
            return ("float", 0, v, "", 0)
        if isinstance(v, str):
            return ("str", 0, 0.0, v, 0)
        np = sys.modules.get("numpy")
        if np is not None and isinstance(v, np.generic):
            if isinstance(v, np.bool_):
                return ("bool", int(v), 0.0, "", 0)
            if isinstance(v, np.integer):
                return self.value(int(v))
            if isinstance(v, np.floating):
                return ("float", 0, float(v), "", 0)
        jit = jit_of(v)
        if jit is not None:
            return ("function", 0, 0.0, "", self.function(jit))
        if _is_constexpr_function(v):
            if id(v) not in self.constexpr_index:
                self.keep.append(v)
                self.constexpr_index[id(v)] = len(self.constexpr_functions)
                self.constexpr_functions.append(v)
            name = getattr(v, "__name__", None) or getattr(getattr(v, "fn", None), "__name__", "constexpr_function")
            return ("constexpr_function", 0, 0.0, name, self.constexpr_index[id(v)])
        if type(v).__name__ == "dtype" and type(v).__module__.startswith("triton"):
            return ("dtype", 0, 0.0, str(v.name), 0)
        if isinstance(v, types.ModuleType):
            if _is_triton_module(v.__name__):
                return ("module", 0, 0.0, v.__name__, 0)
            return ("namespace", 0, 0.0, v.__name__, self.namespace(v, chains))
        if isinstance(v, type) and issubclass(v, tuple) and isinstance(getattr(v, "_fields", None), tuple):
            return ("namedtuple", 0, 0.0, f"{v.__name__}:{','.join(v._fields)}", 0)  # called in a kernel: a tuple
        mod = getattr(v, "__module__", None)
        if callable(v) and isinstance(mod, str) and _is_triton_module(mod) and hasattr(v, "__name__"):
            return ("module", 0, 0.0, f"{mod}.{v.__name__}", 0)  # triton.cdiv and the like: by name
        return ("unsupported", 0, 0.0, _describe(v), 0)

    def namespace(self, module, chains):
        """The table of a user's module: the attributes the kernels read of it."""
        key = id(module)
        if key not in self.module_table:
            self.keep.append(module)
            self.module_table[key] = len(self.tables)
            self.tables.append({})
        table = self.module_table[key]
        by_attr = {}
        for c in chains:
            if c:
                by_attr.setdefault(c[0], set()).add(c[1:])
        for attr, rest in by_attr.items():
            if not hasattr(module, attr):
                continue  # a missing attribute is the frontend's located error
            self.tables[table][attr] = self.value(getattr(module, attr), rest)
        return table


def build(jit_fn, arguments=None):
    """The source unit of `jit_fn` (a JITFunction of the stand-in) as Python sees it now, and the
    globals it read: {(name, id(globals)): (value, globals)}, for check_globals. `arguments`:
    {name: function} passed to the kernel as arguments (JIT functions, or Triton's own by their
    dotted names), in the kernel's table as "@name"
    (the constexpr text launcher.py gives them)."""
    b = _Builder()
    b.function(jit_fn)
    for name, f in (arguments or {}).items():
        b.tables[0]["@" + name] = b.value(f)  # a JIT function, or one of Triton's (tl.extra.cuda.smid) by name
    unit = (b.functions, b.tables, b.constexpr_functions) if b.constexpr_functions else (b.functions, b.tables)
    return unit, b.used_globals


_ABSENT = object()


def check_globals(used):
    """Raises Triton's RuntimeError when a global the unit read (of the kernel or a helper) has
    been rebound since: the compiled kernel holds the old value."""
    for (name, _), (value, namespace) in used.items():
        new = namespace.get(name, _ABSENT)
        if new is not value and new != value:
            raise RuntimeError(f"Global variable {name} has changed since we compiled this kernel, from {value} to "
                               f"{'<deleted>' if new is _ABSENT else new}")

"""JITFunction as real Triton's, as far as --diff triton reads it; run() calls `device` (or, for a
script a test runs unchanged, the function of the kernel's name in module `fake_gpu`, which that
test puts in sys.modules: --diff triton imports this package afresh)."""
import importlib
import inspect
import textwrap


class KernelParam:
    def __init__(self, p):
        self.name = p.name
        self.is_constexpr = "constexpr" in str(p.annotation)


class JITFunction:
    def __init__(self, fn):
        self.fn = fn
        raw, start = inspect.getsourcelines(fn)
        skipped = next(i for i, l in enumerate(raw) if l.strip().startswith("def "))
        self.def_file_line_number = start + skipped
        self.def_file_col_number = 1
        self.src = textwrap.dedent("".join(raw[skipped:]))
        self.params = [KernelParam(p) for p in inspect.signature(fn).parameters.values()]
        self.__name__, self.__module__ = fn.__name__, fn.__module__
        self.device = None  # the script's stand-in of the GPU: device(*args, **kwargs)

    def run(self, *args, grid, warmup, **kwargs):
        if warmup:
            from ..compiler import CompiledKernel
            return CompiledKernel(self)
        names = [p.name for p in self.params]
        device = self.device or getattr(importlib.import_module("fake_gpu"), self.__name__)
        return device(*args, **{k: v for k, v in kwargs.items() if k in names})

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)

    def warmup(self, *args, grid, **kwargs):
        return self.run(grid=grid, warmup=True, *args, **kwargs)


def jit(fn):
    return JITFunction(fn)

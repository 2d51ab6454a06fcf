"""A stand-in of the real `triton` package for diff_triton_cli.py (on no path but that test's
child): the pieces --diff triton reaches (runtime.jit.JITFunction.run, runtime.autotuner.
Autotuner._bench, compiler.CompiledKernel, language), with "launches" computed in Python by each kernel's `device`."""
from . import compiler  # noqa: F401
from . import language  # noqa: F401
from . import runtime  # noqa: F401
from .runtime.jit import jit  # noqa: F401

__version__ = "3.6.0+stand-in"


def cdiv(x, y):
    return (x + y - 1) // y

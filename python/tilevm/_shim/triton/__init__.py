"""tilevm's stand-in for the `triton` package (`python3 -m tilevm` puts it first on sys.path):
jit, autotune, heuristics, Config, cdiv, next_power_of_2, language, testing and runtime, with
kernels launched on tilevm's checking interpreter (or its GPU engine: `--device cuda`)."""
from . import language  # noqa: F401
from . import testing  # noqa: F401
from . import runtime  # noqa: F401
from . import backends  # noqa: F401
from . import tools  # noqa: F401
from . import knobs  # noqa: F401
from .errors import TritonError  # noqa: F401
from tilevm.errors import CompilationError, CompileTimeAssertionFailure  # noqa: F401
from .runtime import InterpreterError, OutOfResources, TensorWrapper, constexpr_function, reinterpret  # noqa: F401
from .runtime import (Autotuner, Config, Heuristics, JITFunction, KernelInterface, autotune, heuristics,  # noqa: F401
                      jit)
from .runtime._allocation import set_allocator  # noqa: F401

__version__ = "3.6.0+tilevm"


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


from .language.core import must_use_result  # noqa: E402,F401 (triton.must_use_result)
from . import compiler  # noqa: E402 (triton.compiler, as Triton's package has it)
from .compiler import compile  # noqa: E402,F401 (triton.compile)

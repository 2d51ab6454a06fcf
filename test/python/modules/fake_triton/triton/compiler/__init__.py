from . import compiler  # noqa: F401
from .compiler import CompiledKernel  # noqa: F401

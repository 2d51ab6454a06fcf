"""The stand-in triton.compiler (diff_triton_cli.py): CompiledKernel, as real Triton has it."""
from . import compiler  # noqa: F401
from .compiler import CompiledKernel  # noqa: F401

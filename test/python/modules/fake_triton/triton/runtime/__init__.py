"""The stand-in triton.runtime (diff_triton_cli.py): its jit and autotuner modules."""
from . import autotuner, jit  # noqa: F401

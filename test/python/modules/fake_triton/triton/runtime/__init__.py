"""The stand-in triton.runtime (diff_triton_cli.py): its jit, autotuner and driver modules."""
from . import autotuner, driver, jit  # noqa: F401

"""tilevm: run Triton kernels on a checking CPU interpreter, or on tilevm's GPU engine.

`python3 -m tilevm script.py` runs an unmodified Triton script with tilevm's `triton` module
first on the path; `import tilevm` gives the same launcher to programs that want it directly.
"""
import json as _json
import os as _os

from . import errors as _errors
from ._tilevm import version as _version

__version__ = _version()


class KernelError(RuntimeError, _errors.InterpreterError):
    """A launch whose checks found problems (out-of-bounds, races, uninitialized reads, failed
    device asserts, runaway loops). `report` is the text `tilevm run` prints: each finding with
    its kernel source line, program id, buffer and element. Only the interpreter checks, so it is
    also Triton's InterpreterError, which Triton's interpreter raises for errors in a kernel it
    runs (a failed device_assert)."""

    def __init__(self, report, kernel):
        message = f"tilevm found problems in kernel {kernel}:\n{report}"
        RuntimeError.__init__(self, message)
        self.error_message = message
        self.report = report
        self.kernel = kernel

    def __reduce__(self):
        return type(self), (self.report, self.kernel)


# Launch settings, set by `python3 -m tilevm` flags (or by a program, before launching); each
# launch checks them as `tilevm run` checks its flags (a bad one: ValueError, the CLI's message).
# check: all, none or a list of bounds,races,uninit; threads: 0 (all) to 1024; schedule:
# parallel, serial, reverse or random:SEED; timeout: seconds (0: none); fuel: loop iterations
# per program; strict: benign races (identical values written by unordered programs) are
# errors, not notes; device: "cpu" (the checking interpreter) or "cuda"/"cuda:N" (the GPU engine, no
# checks); warn: findings as warnings; autotune: True times every configuration of
# @triton.autotune, False runs the first, None (the default) times them on the GPU engine, as
# Triton does, and runs the first on the interpreter (autotune_timed()).
options = {"check": "all", "threads": 0, "schedule": "parallel", "timeout": 300.0, "fuel": 2**24, "strict": False, "warn": False,
           "device": "cpu", "autotune": None}


def autotune_timed():
    """Whether @triton.autotune times its configurations now: as options["autotune"] says, or by
    default where timing means something (the GPU engine; the interpreter's wall time says
    nothing about a GPU)."""
    if options["autotune"] is None:
        return str(options["device"]).startswith("cuda")
    return bool(options["autotune"])

# `python3 -m tilevm` passes its options to the Python programs it starts (with PYTHONPATH leading
# to tilevm's `triton`) as JSON in this variable; each launch checks them as it checks any.
OPTIONS_VARIABLE = "TILEVM_OPTIONS"
INHERITED_OPTIONS = tuple(options)


def _inherited():
    text = _os.environ.get(OPTIONS_VARIABLE)
    if not text:
        return {}
    try:
        given = _json.loads(text)
    except ValueError as e:
        raise ValueError(f"{OPTIONS_VARIABLE}={text!r}: not JSON ({e})") from None
    if not isinstance(given, dict) or not set(given) <= set(options):
        raise ValueError(f"{OPTIONS_VARIABLE}={text!r}: expected an object of {', '.join(options)}")
    return given


options.update(_inherited())

# What the last kernel launch returned: programs, seconds, findings, copied_bytes (bytes the
# GPU engine copied between host and GPU: 0 when every tensor was a CUDA tensor, used in place),
# and the process's launch-cache counters so far: bytecode_encodes (once per compiled kernel),
# prepares (interpreter), module_loads (GPU engine) and cache_hits (launches that reused either).
last_launch = None

"""triton.runtime for tilevm: `driver.active`, the target and the device programs ask about;
JITFunction, KernelInterface, Autotuner, Heuristics and Config as Triton exports them here.

Under `--device cuda` the target is the GPU (backend "cuda", its compute capability) and the
torch device `cuda`. On the interpreter the target's backend is "cpu" (programs that take their
CUDA path on `is_cuda_backend()` go on to call torch.cuda, which a CPU build lacks) and the torch
device `cpu`; `get_device_properties` there gives the properties of the GPU tilevm targets by
default (the H200, sm_90), for host code that sizes its grid by them (tutorial 02)."""
import sys

import tilevm
from ..backends.compiler import GPUTarget
from ..backends.driver import DriverBase

# What the interpreter presents: the H200's properties (CUDA's device attributes on sm_90).
_MODELED_PROPERTIES = {"max_shared_mem": 232448, "max_num_regs": 65536, "multiprocessor_count": 132, "warpSize": 32,
                       "sm_clock_rate": 1980000, "mem_clock_rate": 2619000, "mem_bus_width": 6144}


def _on_gpu():
    return str(tilevm.options.get("device", "cpu")).startswith("cuda")


def _ordinal():
    """The GPU `--device cuda[:N]` names (0 for plain `cuda`)."""
    device = str(tilevm.options.get("device", "cpu"))
    return int(device.split(":")[1]) if ":" in device else 0


class _Utils:
    def get_device_properties(self, device=0):
        """The device's properties as Triton's driver gives them (a dict of CUDA attributes)."""
        if _on_gpu():
            import torch
            p = torch.cuda.get_device_properties(device)
            props = dict(_MODELED_PROPERTIES)
            props.update(multiprocessor_count=p.multi_processor_count,
                         max_shared_mem=getattr(p, "shared_memory_per_block_optin", props["max_shared_mem"]),
                         max_num_regs=getattr(p, "regs_per_multiprocessor", props["max_num_regs"]),
                         warpSize=getattr(p, "warp_size", 32))
            return props
        return dict(_MODELED_PROPERTIES)


class _Active(DriverBase):
    """tilevm's driver: the GPU engine's device under `--device cuda`, else the interpreter."""

    utils = _Utils()

    def get_current_target(self):
        if _on_gpu():
            import torch
            major, minor = torch.cuda.get_device_capability()
            return GPUTarget("cuda", major * 10 + minor, 32)
        return GPUTarget("cpu", 0, 32)

    def get_active_torch_device(self):
        try:
            import torch
        except ImportError:
            return f"cuda:{_ordinal()}" if _on_gpu() else "cpu"
        # Triton's: torch.device("cuda", index), which tensors made on it compare equal to.
        if _on_gpu():
            return torch.device("cuda", _ordinal())
        _cpu_streams(torch)
        return torch.device("cpu")

    def get_current_device(self):
        return _ordinal() if _on_gpu() else 0

    def get_current_stream(self, device=None):
        return 0


class _CpuStream:
    """torch.cpu.Stream where this torch has none: the CPU's one stream."""

    def synchronize(self):
        pass

    def wait_stream(self, stream):
        pass

    def query(self):
        return True


def _cpu_streams(torch):
    """Programs written for any device call `getattr(torch, DEVICE.type).Stream()` and
    `.set_stream(s)` (tutorial 02's benchmark), which torch.cpu lacks in part (set_stream in torch
    2.x, all of them in 1.x): the CPU has one stream, so the missing ones are added as what they
    mean there. torch's own functions are never replaced."""
    cpu = torch.cpu
    stubs = {"Stream": _CpuStream, "current_stream": lambda device=None: _CURRENT, "set_stream": lambda stream: None,
             "synchronize": lambda device=None: None}
    for name, fn in stubs.items():
        if not hasattr(cpu, name):
            setattr(cpu, name, fn)


_CURRENT = _CpuStream()

# A program that imported torch before triton may call them without asking the driver first
# (Triton's print_helper.py: `getattr(torch, device).synchronize()`).
if "torch" in sys.modules and not _on_gpu():
    _cpu_streams(sys.modules["torch"])


from .driver import driver  # noqa: E402 (after _Active, which it makes when first asked)


from .errors import AutotunerError, InterpreterError, OutOfResources, PTXASError  # noqa: E402,F401
from .jit import JITFunction, KernelInterface, TensorWrapper, constexpr_function, jit, reinterpret  # noqa: E402,F401
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: E402,F401
from . import cache  # noqa: E402,F401

# triton.runtime.driver.active as Triton's tutorials use it: the current target (backend "cpu" on
# the interpreter, so CUDA-only paths are not taken), the active torch device, and the device
# properties host code sizes persistent grids by (tutorial 02: multiprocessor_count, max_num_regs,
# max_shared_mem, warpSize), and the device's torch module as tutorial 02's benchmark drives it
# (`getattr(torch, DEVICE.type).Stream()`, `.set_stream` and `.synchronize`, on the CPU's one
# stream too).
import torch

import tilevm
import triton
from triton.runtime import driver

# torch imported before triton: the device module's synchronize is there before the driver is
# asked (Triton's print_helper.py calls `getattr(torch, device).synchronize()` so).
getattr(torch, "cuda" if tilevm.options["device"].startswith("cuda") else "cpu").synchronize()
target = triton.runtime.driver.active.get_current_target()
on_gpu = tilevm.options["device"].startswith("cuda")
assert target.is_cuda_backend() == on_gpu and not target.is_hip_backend(), target
assert target.backend == ("cuda" if on_gpu else "cpu") and target.warp_size == 32, target
if on_gpu:
    assert target.arch == torch.cuda.get_device_capability()[0] * 10 + torch.cuda.get_device_capability()[1]
device = driver.active.get_active_torch_device()
assert device.type == ("cuda" if on_gpu else "cpu"), device
if on_gpu:  # Triton's torch.device("cuda", index): tensors made on it are on it (tutorial 01's assert)
    assert device.index == driver.active.get_current_device() == torch.cuda.current_device(), device
    assert torch.empty(1, device=device).device == device
props = driver.active.utils.get_device_properties(device.index or 0)
for key in ("multiprocessor_count", "max_num_regs", "max_shared_mem", "warpSize"):
    assert isinstance(props[key], int) and props[key] > 0, (key, props)
if not on_gpu:  # the GPU tilevm targets by default: the H200
    assert props["max_shared_mem"] == 232448 and props["multiprocessor_count"] == 132, props
module = getattr(torch, device.type)
stream = module.Stream()
module.set_stream(stream)
x = torch.ones(4, device=device)
module.synchronize()
assert float(x.sum()) == 4.0
print("driver_api: ok", target)

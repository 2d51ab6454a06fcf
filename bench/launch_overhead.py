"""launch_overhead.py [N] - wall time per launch of a small vector add from Python, as a Triton
user launches it: `add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)` on 4096 elements, N calls
after warm-up, synchronised once at the end. Run it under real Triton (`python3
bench/launch_overhead.py`) and under tilevm (`python3 -m tilevm [--device cuda]
bench/launch_overhead.py`) in the same call: the ratio is the comparison. Prints one JSON line."""
import json
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    device = triton.runtime.driver.active.get_active_torch_device()
    n = 4096
    x = torch.rand(n, device=device)
    y = torch.rand(n, device=device)
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    for _ in range(20):
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    sync = torch.cuda.synchronize if str(device).startswith("cuda") else (lambda: None)
    sync()
    t = time.perf_counter()
    for _ in range(calls):
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    sync()
    per_call_us = (time.perf_counter() - t) / calls * 1e6
    assert torch.allclose(out, x + y)
    print(json.dumps({"triton": triton.__version__, "device": str(device), "calls": calls, "us_per_launch": round(per_call_us, 2)}))


main()

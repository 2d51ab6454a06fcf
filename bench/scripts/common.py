# common.py - what the benchmark scripts share: timing of kernel launches (the same code under
# Triton's interpreter and under `python3 -m tilevm`) and of torch's CPU equivalent.
import os
import time

import torch

LAUNCHES = int(os.environ.get("LAUNCHES", "5"))  # the first compiles; the median of the others is the warm launch time
launch_seconds = 0.0
launch_times = []


def launch(kernel, grid, *args, **kwargs):
    """kernel[grid](*args, **kwargs), timed (the first launch compiles; later ones are warm)."""
    global launch_seconds
    t = time.perf_counter()
    kernel[grid](*args, **kwargs)
    launch_times.append(time.perf_counter() - t)
    launch_seconds += launch_times[-1]


def torch_seconds(fn, reps=5):
    fn()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t) / reps


def torch_seconds_any(fn, fallback, note="f32 (no f16 kernel in this torch)"):
    """torch_seconds(fn), or of `fallback` where this torch's CPU lacks what fn uses (torch 1.x:
    no half-precision layer_norm or matmul, no SDPA): returns (seconds, which ran)."""
    try:
        return torch_seconds(fn), "same op"
    except (RuntimeError, AttributeError):
        return torch_seconds(fallback), note


def report(name, launches, torch_s, torch_note="same op"):
    warm = sorted(launch_times[1:]) or launch_times
    print(f"RESULT {name} launches={launches} launch_s={launch_seconds:.6f} first_s={launch_times[0]:.6f} "
          f"warm_s={warm[len(warm) // 2]:.6f} torch_s={torch_s:.6f} torch={torch_note.replace(' ', '_')}")

# Autotuning in the style of Triton's tutorials, with the state Triton's autotuner must protect:
# an atomic accumulation (reset_to_zero) and an in-place update (restore_value). Run it with
# `python3 -m tilevm --autotune` to time every config (the default under --device cuda), with
# `--no-autotune` to run the first; either way a configuration whose static_assert fails is skipped.
import numpy as np
import triton
import triton.language as tl

CONFIGS = [triton.Config({"BLOCK": 64}, num_warps=2), triton.Config({"BLOCK": 128}, num_warps=4),
           triton.Config({"BLOCK": 256}, num_warps=4)]


@triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["total_ptr"])
@triton.jit
def sum_kernel(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))


@triton.autotune(configs=CONFIGS, key=["n"], restore_value=["x_ptr"])
@triton.jit
def increment_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1, mask=mask)


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def copy_at_most_128(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 128)  # tutorial 06's `BLOCK_N <= HEAD_DIM`: some configs cannot run
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.autotune(configs=CONFIGS[::-1], key=["n"])  # the first configuration cannot run
@triton.jit
def copy_first_fails(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 128)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


rng = np.random.default_rng()
n = 1000
x = rng.integers(-100, 100, n).astype(np.int32)
total = np.zeros(1, np.int32)
grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
sum_kernel[grid](x, total, n)
assert total[0] == x.sum(), (total[0], x.sum())  # trials zeroed total before each run

y = x.copy()
increment_kernel[grid](y, n)
assert np.array_equal(y, x + 1), "restore_value: the trials' increments must not accumulate"

# A configuration whose static_assert fails is skipped, as Triton's benchmarking skips it.
for kernel in (copy_at_most_128, copy_first_fails):
    z = np.zeros_like(x)
    kernel[grid](x, z, n)
    assert np.array_equal(z, x) and kernel.best_config.kwargs["BLOCK"] <= 128, kernel.best_config

import tilevm
# Timed where --autotune says so, or by default on the GPU engine (Triton's behaviour there); the
# first configuration on the interpreter unless asked (--no-autotune: never).
default_timed = tilevm.options["device"].startswith("cuda")
assert tilevm.autotune_timed() == (default_timed if tilevm.options["autotune"] is None else tilevm.options["autotune"])
if tilevm.autotune_timed():
    assert len(sum_kernel.timings) == len(CONFIGS) and all(t > 0 for t in sum_kernel.timings.values())
    assert sum_kernel.best_config in CONFIGS
    assert increment_kernel.best_config in CONFIGS and list(sum_kernel.cache) == [(n, "int32", "int32")]
    assert copy_at_most_128.timings[CONFIGS[2]] == float("inf"), copy_at_most_128.timings
    # Each configuration is timed over about knobs.autotuning.rep ms of launches, as Triton's
    # do_bench (3 to estimate first, at most 1000): the launches each trial asks for.
    from triton import knobs

    @triton.autotune(configs=CONFIGS[:2], key=["n"])
    @triton.jit
    def add_one(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

    asked = []
    launch = add_one._launch
    add_one._launch = lambda *a, repeat=1, **k: asked.append(repeat) or launch(*a, repeat=repeat, **k)
    for rep_ms, n in ((0, 10), (1000, 20)):
        knobs.autotuning.rep = rep_ms
        asked.clear()
        add_one[(1,)](np.zeros(n, np.int32), n)
        trials = [r for r in asked if r > 1]
        if rep_ms == 0:
            assert trials == [3, 3], asked  # the estimates alone
        else:
            assert trials[0] == 3 and all(3 <= r <= 1000 for r in trials) and len(trials) in (3, 4), asked
    knobs.autotuning.rep = knobs.env
    print(f"autotuned: best {sum_kernel.best_config} of {len(CONFIGS)} timed")
else:
    assert sum_kernel.best_config is CONFIGS[0]
    print("first config (not timed)")

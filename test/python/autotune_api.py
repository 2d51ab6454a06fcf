# Triton's Autotuner host API as programs use it: the cache per key (key values, then every
# argument's dtype), early_config_prune and perf_model/top_k pruning, the user's pre_hook and
# post_hook around each trial, a custom do_bench, conflicting meta-parameters, Config's equality
# and text, and warmup. Runs untimed (the interpreter's default) and with --autotune.
import warnings

import numpy as np

import tilevm
import triton
import triton.language as tl

CONFIGS = [triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 128}, num_warps=8)]
timed = tilevm.autotune_timed()


def grid(meta):
    return (triton.cdiv(1000, meta["BLOCK"]), )


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


x32 = np.random.default_rng().standard_normal(1000).astype(np.float32)
y32 = np.zeros_like(x32)
copy[grid](x32, y32, 1000)
copy[grid](x32, y32, 1000)  # cached
copy[grid](x32, y32, 999)  # a new key value
copy[grid](x32.astype(np.float64), y32.astype(np.float64), 1000)  # new dtypes
assert list(copy.cache) == [(1000, "float32", "float32"), (999, "float32", "float32"), (1000, "float64", "float64")], copy.cache
assert np.array_equal(y32, x32) and copy.best_config in CONFIGS

# Pruning: early_config_prune sees the positional arguments by name and the keywords; perf_model
# ranks what is left and top_k keep the fastest estimates.
seen = {}


def prune(configs, named_args, **kwargs):
    seen["named"], seen["kwargs"] = sorted(named_args), sorted(kwargs)
    return configs


def model(**kwargs):
    return -kwargs["BLOCK"]  # the larger block is "faster"


@triton.autotune(configs=CONFIGS, key=["n"], prune_configs_by={"early_config_prune": prune, "perf_model": model, "top_k": 1})
@triton.jit
def pruned(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


pruned[grid](x32, y32, n=1000)
assert seen == {"named": ["x_ptr", "y_ptr"], "kwargs": ["n"]}, seen
assert pruned.best_config.kwargs == {"BLOCK": 128} and np.array_equal(y32, x32 * 2), pruned.best_config


@triton.autotune(configs=CONFIGS, key=["n"], prune_configs_by={"early_config_prune": lambda c, a, **k: []})
@triton.jit
def pruned_away(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 0.0)


try:
    pruned_away[grid](x32, 1000)
    raise AssertionError("no AutotunerError")
except triton.TritonError as e:
    assert str(e) == ("Autotuner error: No valid autotuner configs after pruning. "
                      "`early_config_prune` should return at least one config."), str(e)

# The user's hooks bracket each timed trial, a custom do_bench times them; untimed, no trial runs.
events = []
calls = []


def bench(kernel_call, quantiles):
    calls.append(quantiles)
    kernel_call()
    return [1.0 / len(calls), 0.0, 0.0]  # later trials "faster"


@triton.autotune(configs=CONFIGS, key=["n"], do_bench=bench,
                 pre_hook=lambda nargs, reset_only=False: events.append(("pre", reset_only)),
                 post_hook=lambda nargs, exception: events.append(("post", exception)))
@triton.jit
def hooked(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


hooked[grid](x32, y32, 1000)
assert np.array_equal(y32, x32 + 1)
if timed:
    assert calls == [(0.5, 0.2, 0.8)] * 2 and hooked.best_config is CONFIGS[1], (calls, hooked.best_config)
    assert events == [("pre", False), ("post", None)] * 2 + [("pre", True)], events
else:
    assert calls == [] and events == [("pre", True)] and hooked.best_config is CONFIGS[0], (calls, events)

# A meta-parameter given both by the caller and by a configuration is Triton's ValueError.
try:
    copy[grid](x32, y32, 1000, BLOCK=64)
    raise AssertionError("no ValueError")
except ValueError as e:
    assert "Conflicting meta-parameters: BLOCK" in str(e), str(e)

# Deprecated warmup/rep still tune, with Triton's warning.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old_style = triton.autotune(configs=CONFIGS, key=["n"], warmup=1, rep=1)(copy.fn)
assert any("deprecated" in str(w.message) for w in caught), caught
old_style[grid](x32, y32, 1000)

# Config: Triton's equality, hash and text; warmup compiles each configuration, launches none.
assert triton.Config({"BLOCK": 32}) == CONFIGS[0] and hash(triton.Config({"BLOCK": 32})) == hash(CONFIGS[0])
assert str(CONFIGS[1]) == "BLOCK: 128, num_warps: 8, num_ctas: 1, num_stages: 3, maxnreg: None", str(CONFIGS[1])
z = np.zeros_like(x32)
compiled = copy.warmup(x32, z, 1000, grid=(1, ))
assert len(compiled) == 2 and not z.any()
print(f"autotune_api: ok ({'timed' if timed else 'untimed'}: cache keys, pruning, hooks, do_bench, conflicts, Config, warmup)")

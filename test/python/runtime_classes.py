# Triton's runtime classes as libraries build on them (FlagGems' libentry, Liger's cache
# manager): a launcher layer derived from triton.KernelInterface that reads JITFunction.params,
# .signature and .cache_key; an autotuner derived from triton.runtime.Autotuner with Triton's
# constructor, calling prune_configs, _bench and pre_hook as Triton's own run does; Heuristics
# with Triton's constructor; a FileCacheManager subclass; the driver holder and its base class.
import inspect
import os
import tempfile

import numpy as np

import triton
import triton.language as tl
from triton.runtime.cache import FileCacheManager
from triton.runtime.jit import JITFunction

SCALE = tl.constexpr(3)


@triton.jit
def scaled(x_ptr, out_ptr, n, BLOCK: tl.constexpr, ALPHA: tl.constexpr = 2):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * ALPHA * SCALE, mask=mask)


class Entry(triton.KernelInterface):
    """A launcher layer in the style of FlagGems' LibEntry: it sorts the arguments by the
    kernel's parameter kinds and caches what the first launch of each key compiled."""

    def __init__(self, fn):
        self.fn = fn
        self.arg_names = fn.arg_names
        while not isinstance(fn, triton.runtime.JITFunction):
            fn = fn.fn
        self.jit_function = fn
        self.signature = fn.signature
        self.specialize = [p.num for p in fn.params if not p.is_constexpr and not p.do_not_specialize]
        self.constexprs = [p.name for p in fn.params if p.is_constexpr]
        self.keys = []

    def run(self, *args, **kwargs):
        key = tuple(getattr(args[i], "dtype", type(args[i])) for i in self.specialize if i < len(args))
        self.keys.append(key)
        return self.fn.run(*args, **kwargs)


class Tuner(triton.runtime.Autotuner):
    """An autotuner in the style of FlagGems' LibTuner: Triton's constructor, its own run."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None):
        super().__init__(fn, arg_names, configs, key, reset_to_zero, restore_value, pre_hook, post_hook,
                         prune_configs_by, warmup, rep, use_cuda_graph)
        self.benched = []

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        pruned = self.prune_configs(kwargs)
        timings = {}
        for config in pruned:
            timings[config] = self._bench(*args, config=config, **kwargs)
            self.benched.append(config)
        config = min(timings, key=timings.get)
        self.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()}, reset_only=True)
        self.best_config = config
        result = self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        return result


def tuner(configs, key, reset_to_zero=None):
    return lambda fn: Tuner(fn, fn.arg_names, configs, key, reset_to_zero, None)


tuned = Entry(tuner([triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"], reset_to_zero=["out_ptr"])(
    triton.heuristics({"ALPHA": lambda args: 5})(scaled)))

rng = np.random.default_rng()
n = 300
x = rng.standard_normal(n).astype(np.float32)
out = np.full(n, np.nan, np.float32)
tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]), )](x, out, n)
assert np.array_equal(out, x * 5 * 3), out
inner = tuned.fn
assert isinstance(inner, triton.runtime.Autotuner) and isinstance(inner.fn, triton.runtime.Heuristics)
assert inner.benched == inner.configs and inner.best_config in inner.configs
assert tuned.keys == [(np.dtype("float32"), np.dtype("float32"), int)], tuned.keys
assert tuned.constexprs == ["BLOCK", "ALPHA"] and tuned.specialize == [0, 1, 2]

# A launch gives back the compiled kernel's launcher as Triton's run does: kernel[grid](every
# argument) runs it again; other constexprs than those compiled are a TypeError.
compiled = scaled[(triton.cdiv(n, 128), )](x, out, n, BLOCK=128)
again = np.zeros_like(out)
compiled[(triton.cdiv(n, 128), )](x, again, n, 128, 2)
assert np.array_equal(again, x * 2 * 3), again
try:
    compiled[(triton.cdiv(n, 64), )](x, again, n, 64, 2)
    raise AssertionError("no error")
except TypeError as e:
    assert "warm up a kernel for each" in str(e), e

# JITFunction as Triton describes it.
assert JITFunction is triton.runtime.JITFunction is triton.JITFunction and isinstance(scaled, triton.KernelInterface)
assert list(scaled.signature.parameters) == scaled.arg_names == ["x_ptr", "out_ptr", "n", "BLOCK", "ALPHA"]
alpha = scaled.params[4]
assert (alpha.num, alpha.name, alpha.is_constexpr, alpha.default, alpha.has_default) == (4, "ALPHA", True, 2, True)
assert scaled.params[2].default is inspect.Parameter.empty and not scaled.params[2].is_constexpr
assert scaled.constexprs == [3, 4]
dns = triton.jit(do_not_specialize=["n"])(scaled.fn)
assert dns.params[2].do_not_specialize and not dns.params[1].do_not_specialize
key = scaled.cache_key
assert len(key) == 64 and key == scaled.cache_key == dns.cache_key  # the same source: the same key
SCALE = tl.constexpr(4)  # a constexpr global the kernel reads is part of the key, as in Triton
scaled.src = scaled.src  # the key is computed again, as after a source change
assert scaled.cache_key != key


class AtomicCache(FileCacheManager):
    """A cache manager in the style of Liger's: put() replaced, the base class's paths kept."""

    def put(self, data, filename, binary=True):
        path = self._make_path(filename)
        with open(path + ".tmp", "w") as f:
            f.write(str(data))
        os.replace(path + ".tmp", path)
        return path


with tempfile.TemporaryDirectory() as d:
    os.environ["TRITON_CACHE_DIR"] = d
    cache = AtomicCache("key0")
    assert cache.cache_dir == os.path.join(d, "key0") and cache.lock_path is not None
    assert cache.get_file("a.txt") is None
    path = cache.put("hello", "a.txt")
    assert cache.get_file("a.txt") == path and open(path).read() == "hello"
    cache.put_group("g", {"a.txt": path})
    assert cache.get_group("g") == {"a.txt": path}
# triton.runtime.driver is Triton's DriverConfig: the active driver made when first asked for,
# set and reset; it is a triton.backends.driver.DriverBase.
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.backends.driver import DriverBase  # noqa: E402

config = triton.runtime.driver
active = config.active
assert isinstance(active, DriverBase) and config.default is active
assert isinstance(active.get_current_target(), GPUTarget)
config.set_active("another")
assert config.active == "another"
config.reset_active()
assert config.active is active
print("runtime classes: ok (KernelInterface layer, Autotuner subclass, Heuristics, params, cache_key, FileCacheManager, driver)")

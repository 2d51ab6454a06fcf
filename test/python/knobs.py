# triton.knobs as Triton 3.x's programs and test fixtures use it: honoured knobs act, knobs
# without effect are accepted, and any other value of a knob tilevm does not honour raises.
import contextlib
import io
import os
import tempfile

import numpy as np

import tilevm
import triton
import triton.language as tl
from triton import knobs
from triton._internal_testing import _fresh_knobs_impl


def raises(exc_type, words, fn):
    try:
        fn()
    except exc_type as e:
        assert words in str(e), f"{words!r} not in {e}"
        return
    raise AssertionError(f"expected {exc_type.__name__} with {words!r}")


@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


x = np.arange(100, dtype=np.float32)
out = np.zeros_like(x)

# Where kernels run: the interpreter here; the other engine is chosen by --device.
assert knobs.runtime.interpret is True
knobs.runtime.interpret = True
raises(NotImplementedError, "--device", lambda: setattr(knobs.runtime, "interpret", False))
assert knobs.runtime.interpret is True

# Triton's fresh_triton_cache fixture: a cache directory in a scope, the variable restored.
before = os.environ.get("TRITON_CACHE_DIR")
with tempfile.TemporaryDirectory() as tmp, knobs.cache.scope(), knobs.runtime.scope():
    knobs.cache.dir = tmp
    assert knobs.cache.dir == tmp and os.environ["TRITON_CACHE_DIR"] == tmp
    scale[(1, )](x, out, 100, BLOCK=128)
    assert (out == 2 * x).all()
assert os.environ.get("TRITON_CACHE_DIR") == before and knobs.cache.dir.endswith(os.path.join(".triton", "cache"))

# Knobs read their variables unless set; knobs.env drops the program's value.
os.environ["TRITON_ALWAYS_COMPILE"] = "1"
assert knobs.compilation.always_compile is True
del os.environ["TRITON_ALWAYS_COMPILE"]
knobs.autotuning.warmup = 5  # without effect, accepted
assert knobs.autotuning.warmup == 5 and os.environ["TRITON_AUTOTUNE_WARMUP_MS"] == "5"
knobs.autotuning.warmup = knobs.env
del os.environ["TRITON_AUTOTUNE_WARMUP_MS"]
assert knobs.autotuning.warmup == 25

# Refused: anything but the default, hooks, and names Triton's upstream knobs lack.
knobs.compilation.always_compile = False
raises(NotImplementedError, "triton.knobs.compilation.always_compile = True", lambda: setattr(
    knobs.compilation, "always_compile", True))
raises(NotImplementedError, "sanitize_overflow", lambda: setattr(knobs.runtime, "sanitize_overflow", True))
raises(NotImplementedError, "dump_ir", lambda: setattr(knobs.compilation, "dump_ir", True))
raises(NotImplementedError, "manager_class", lambda: setattr(knobs.cache, "manager_class", "m:C"))
knobs.language.fp32_default = "tf32"
raises(NotImplementedError, "input_precision", lambda: setattr(knobs.language, "fp32_default", "ieee"))
raises(NotImplementedError, "listener", lambda: setattr(knobs.compilation, "listener", print))
raises(NotImplementedError, "jit_cache_hook", lambda: setattr(knobs.runtime, "jit_cache_hook", print))
raises(NotImplementedError, "launch_enter_hook", lambda: knobs.runtime.launch_enter_hook.add(print))
raises(NotImplementedError, "launch_enter_hook", lambda: setattr(knobs.runtime, "launch_enter_hook", print))
raises(AttributeError, "use_meta_ws", lambda: setattr(knobs.nvidia, "use_meta_ws", True))
assert os.environ.get("TRITON_KERNEL_DUMP") is None  # a refused value writes no variable

# Triton's fresh_knobs fixture: groups on their defaults, then put back.
knobs.autotuning.rep = 7
fresh, reset = _fresh_knobs_impl(skipped_attr={"build", "nvidia", "amd"})
k = fresh()
assert k.autotuning.rep == 100 and k.autotuning is not None
reset()
assert knobs.autotuning.rep == 7
knobs.autotuning.rep = knobs.env
os.environ.pop("TRITON_AUTOTUNE_REP_MS", None)


# autotuning.print: Triton's summary when the configurations are timed.
@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})], key=["n"])
@triton.jit
def tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


tilevm.options["autotune"] = True
knobs.autotuning.print = True
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    tuned[lambda m: (triton.cdiv(100, m["BLOCK"]), )](x, out, 100)
    tuned[lambda m: (triton.cdiv(100, m["BLOCK"]), )](x, out, 100)  # cached: printed once
text = printed.getvalue()
# Triton's key: the key arguments' values, then every argument's dtype; each trial announced.
key = (100, str(x.dtype), str(out.dtype))
assert text.count(f"Triton autotuning for function tuned,\nwith key as {key},\nfinished after ") == 1, text
assert "best config selected: BLOCK: " in text and text.count("Autotuning kernel tuned with config BLOCK: ") == 2, text
assert (out == x + 1).all()
print("knobs: ok (interpret, cache scope, variables, refused values and hooks, fresh_knobs, autotuning.print)")

"""ptx_sweep_plugin.py - a pytest plugin for `python3 -m tilevm -m pytest -p ptx_sweep_plugin`
(bench/ on PYTHONPATH): every kernel a test suite launches on the interpreter is also compiled to
PTX for the modeled sm_90a, at its own num_stages and at 3 (the rings), and every codegen failure
other than "not lowered yet" (an internal error, IR that does not verify, a crash) is counted and
printed at the end. It puts a real suite's kernels (Triton's unit tests, a project's tests)
through the code generator on a machine without a GPU:
  cd TRITON/python/test/unit && PYTHONPATH=$TILEVM/build/python:$TILEVM/bench \\
    python3 -m tilevm -m pytest -p ptx_sweep_plugin -m interpreter --device=cpu language/test_core.py"""
import collections

import tilevm.launcher as _launcher

_launch = _launcher.launch
_failures = collections.Counter()
_compiled = [0]


def _compile(source):
    try:
        _launcher.kernel_asm(source)
    except ValueError as e:  # "not lowered yet" is the code generator's honest refusal
        if "internal" in str(e).lower() or "does not verify" in str(e):
            _failures[str(e)[:240]] += 1
    except Exception as e:  # a crash
        _failures[repr(e)[:240]] += 1


def _sweeping_launch(*args, **kwargs):
    result = _launch(*args, **kwargs)
    source = getattr(result, "_source", None)
    if isinstance(source, tuple):  # (jit_fn, unit, signature, defines, args, warps, stages, ...)
        _compiled[0] += 1
        _compile(source)
        if source[6] < 3:
            _compile(source[:6] + (3,) + source[7:])
    return result


_launcher.launch = _sweeping_launch


def pytest_sessionfinish(session, exitstatus):
    print(f"\nptx sweep: {_compiled[0]} kernels compiled for sm_90a, {sum(_failures.values())} codegen failures")
    for message, n in _failures.most_common(30):
        print(f"  {n} x {message}")

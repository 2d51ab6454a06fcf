"""`python3 -m tilevm --diff triton ... script.py` and `--diff-replay DIR`: the options checked,
real Triton found (or the one line saying why not, exit 2), the hooks installed, the script run,
the summary printed at exit. Exit status: the script's; 1 when a launch diverged.

The mode's modules (docs/diff-triton.md), each one job:
  diff_live.py      a Triton JITFunction as tilevm's launcher and source_unit see a kernel
  diff_snapshot.py  CPU copies of a launch's tensors, views and aliases kept
  diff_compare.py   one launch: the interpreter run from the inputs, its buffers against the GPU's
  diff_report.py    a divergence's text and the summary table
  diff_record.py    fixtures of launches (npz + json), and their replay without Triton
  diff_hook.py      the hooks in real Triton (JITFunction.run, CompiledKernel, Autotuner._bench)
  diff_cli.py       this: the command line
"""
import os
import sys

import tilevm
from . import diff_hook as hook


def check(parser, a, target):
    """The diff options' own checks (argparse's usage errors, exit 2)."""
    if a.diff is not None and a.diff_replay is not None:
        parser.error("--diff triton runs a script, --diff-replay replays fixtures: give one")
    if a.diff_replay is not None and target is not None:
        parser.error("--diff-replay DIR takes no script")
    if a.device != "cpu":
        parser.error("--diff: launches are checked on the interpreter (--device cpu); the GPU is real Triton's")
    for flag, text in (("--diff-every", a.diff_every), ("--diff-budget", a.diff_budget)):
        if not text.isdigit() or int(text) < 1:
            parser.error(f"{flag} {text}: expected a positive integer")
    if not a.diff_programs.isdigit():
        parser.error(f"--diff-programs {a.diff_programs}: expected 0 (every program) or a positive integer")


def _report_stream():
    """Where reports go: a duplicate of this process's stderr taken before the script runs, so that
    a test runner capturing stderr (pytest does, at the descriptor, and shows it only for tests
    that fail) does not swallow the divergences of tests that pass."""
    try:
        return os.fdopen(os.dup(sys.stderr.fileno()), "w", buffering=1)
    except (AttributeError, OSError, ValueError):  # a stderr without a descriptor
        return sys.stderr


def _session(a, skip_paths):
    kernels = None if a.diff_kernels is None else {k.strip() for k in a.diff_kernels.split(",") if k.strip()}
    return hook.Session(every=int(a.diff_every), kernels=kernels, budget=int(a.diff_budget), stop=a.diff_stop,
                        record_dir=a.diff_record, skip_paths=skip_paths, programs=int(a.diff_programs),
                        out=_report_stream())


def real_triton(shim):
    """(triton, "") or (None, why --diff triton cannot run): the triton package (not tilevm's
    stand-in) with JITFunction.run, and torch with CUDA."""
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != shim]
    # Nor for the programs the script starts (a PYTHONPATH inherited from `python3 -m tilevm`).
    entries = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if shim in entries:
        os.environ["PYTHONPATH"] = os.pathsep.join(e for e in entries if e != shim)
    for name in [m for m in sys.modules if m == "triton" or m.startswith("triton.")]:
        del sys.modules[name]
    try:
        import triton
        import triton.runtime.jit
    except Exception as e:  # ImportError, or a triton that fails to import
        return None, f"import triton failed: {type(e).__name__}: {e}"
    if (os.path.abspath(getattr(triton, "__file__", "") or "").startswith(shim + os.sep)
            or str(getattr(triton, "__version__", "")).endswith("+tilevm")):  # this tilevm's, or another copy's
        return None, f"the triton imported is tilevm's own stand-in ({triton.__file__})"
    if not callable(getattr(getattr(triton.runtime.jit, "JITFunction", None), "run", None)):
        return None, f"triton {getattr(triton, '__version__', '?')} has no triton.runtime.jit.JITFunction.run"
    try:
        import torch
    except Exception as e:
        return None, f"import torch failed: {type(e).__name__}: {e}"
    if not torch.cuda.is_available():
        return None, "torch.cuda is not available"
    for hooked in ("triton.runtime.autotuner", "triton.testing", "triton.compiler.compiler"):  # hooked there too
        try:
            __import__(hooked)
        except Exception:
            pass
    return triton, ""


def main(a, kind, target, rest, shim, run):
    """Replays fixtures, or runs the script (`run`: __main__.run, given no shim) under the hooks."""
    if a.diff_replay is not None:  # no triton needed: a fixture holds what tilevm compiles
        from . import diff_record as record
        session = _session(a, ())
        try:
            n = record.replay(a.diff_replay, session)
        finally:
            print(session.summary.text(), file=session.out)
        if n == 0:
            print(f"tilevm: --diff-replay {a.diff_replay}: no fixtures (launch-*.json) there", file=sys.stderr)
            sys.exit(2)
        sys.exit(1 if session.summary.diverged else 0)
    triton, why = real_triton(shim)
    if triton is None:
        print(f"tilevm: --diff triton needs the triton package and a CUDA GPU ({why})", file=sys.stderr)
        sys.exit(2)
    session = _session(a, (triton.__file__, tilevm.__file__))
    if not hook.install(triton, session):
        print("tilevm: --diff triton: this triton has no Autotuner._bench: launches while autotuning are diffed too",
              file=sys.stderr)
    code = 0
    try:
        run(kind, target, rest, None)
    except SystemExit as e:
        code = e.code
    finally:
        print(session.summary.text(), file=session.out)
    if session.summary.diverged and not code:
        code = 1
    sys.exit(code)

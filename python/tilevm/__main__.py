"""python3 -m tilevm [--check all|none|LIST] [--check-warn] [--threads N] [--schedule S]
                  [--timeout SECONDS] [--fuel N] [--strict] [--device cpu|cuda[:N]] [--[no-]autotune]
                  (script.py | -m MODULE) [args...]
python3 -m tilevm --diff triton [--diff-stop] [--diff-every N] [--diff-kernels NAMES]
                  [--diff-budget N] [--diff-record DIR] (script.py | -m MODULE) [args...]
python3 -m tilevm --diff-replay DIR [--diff-stop]

Runs script.py as `python3 script.py` would (or MODULE as `python3 -m MODULE` would), with tilevm's
`triton` module first on the path: its kernels run on tilevm's checking interpreter (or, with
--device cuda, on tilevm's GPU engine). Python programs it starts with sys.executable get tilevm's
`triton` and these options too (PYTHONPATH and TILEVM_OPTIONS). With --diff triton the script
runs on the real `triton` and GPU instead, each launch checked against tilevm's interpreter
(docs/diff-triton.md)."""
import argparse
import importlib.util
import json
import os
import runpy
import sys

import tilevm

# tilevm's options that take no value; every other one takes one (`--opt V` or `--opt=V`).
_FLAGS = ("--check-warn", "--strict", "--autotune", "--no-autotune", "--diff-stop", "-h", "--help")


def _split(argv):
    """(tilevm's options, what runs, its arguments): what runs is ("module", NAME) or
    ("script", PATH), found as Python finds it: the first `-m` or non-option argument."""
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-m":
            if i + 1 == len(argv):
                return argv[:i], ("module", None), []
            return argv[:i], ("module", argv[i + 1]), argv[i + 2:]
        if a.startswith("-m") and not a.startswith("--"):  # `-mpytest`, as Python accepts it
            return argv[:i], ("module", a[2:]), argv[i + 1:]
        if a == "--":
            return argv[:i], ("script", argv[i + 1] if i + 1 < len(argv) else None), argv[i + 2:]
        if not a.startswith("-") or a == "-":
            return argv[:i], ("script", a), argv[i + 1:]
        i += 1 if (a in _FLAGS or "=" in a) else 2
    return argv, (None, None), []


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m tilevm", description=__doc__.split("\n\n")[1], allow_abbrev=False,
                                usage="python3 -m tilevm [options] (script.py | -m MODULE) [args...]")
    p.add_argument("--check", default="all", help="all, none, or a list of bounds,races,uninit (default: all)")
    p.add_argument("--check-warn", action="store_true", help="report findings as warnings instead of raising KernelError")
    p.add_argument("--threads", default="0", help="interpreter threads, 0 (all) to 1024")
    p.add_argument("--schedule", default="parallel", help="parallel, serial, reverse or random:SEED")
    p.add_argument("--timeout", default="300", help="wall-clock budget per launch in seconds (0: none)")
    p.add_argument("--fuel", default=str(2**24), help="loop iterations a program may run before it is stopped")
    p.add_argument("--strict", action="store_true", help="benign races (identical values written by unordered programs) are errors")
    p.add_argument("--device", default="cpu", help="cpu (the checking interpreter) or cuda[:N] (the GPU engine)")
    tune = p.add_mutually_exclusive_group()
    tune.add_argument("--autotune", action="store_const", const=True, dest="autotune", default=None,
                      help="time every @triton.autotune configuration (the default on --device cuda)")
    tune.add_argument("--no-autotune", action="store_const", const=False, dest="autotune",
                      help="run each autotuned kernel's first configuration (the default on the interpreter)")
    d = p.add_argument_group("checking real Triton's GPU launches (docs/diff-triton.md)")
    d.add_argument("--diff", choices=["triton"], help="run on the real triton package and GPU; check each launch on the interpreter")
    d.add_argument("--diff-stop", action="store_true", help="raise at the first divergence")
    d.add_argument("--diff-every", default="1", metavar="N", help="diff every Nth launch of each kernel (default: 1, all)")
    d.add_argument("--diff-kernels", default=None, metavar="NAMES", help="diff only these kernels (comma-separated names)")
    d.add_argument("--diff-budget", default=str(64 << 20), metavar="N", help="skip launches whose arrays hold more elements (default: 64M)")
    d.add_argument("--diff-programs", default="2048", metavar="N",
                   help="run a larger grid's launches on a sample of N programs, comparing what they wrote (0: all; default 2048)")
    d.add_argument("--diff-record", default=None, metavar="DIR", help="save each diffed launch as a fixture (npz + json) in DIR")
    d.add_argument("--diff-replay", default=None, metavar="DIR", help="diff the fixtures in DIR on the interpreter (no Triton, no GPU)")
    return p


def _inherit(shim):
    """Python programs started from here with sys.executable import tilevm's `triton` (the shim and
    tilevm's package lead PYTHONPATH) under the same options (TILEVM_OPTIONS, read by
    tilevm/__init__.py)."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(tilevm.__file__)))
    entries = [shim, package_root] + [e for e in os.environ.get("PYTHONPATH", "").split(os.pathsep) if e]
    seen = []
    for e in entries:
        if e not in seen:
            seen.append(e)
    os.environ["PYTHONPATH"] = os.pathsep.join(seen)
    os.environ[tilevm.OPTIONS_VARIABLE] = json.dumps({k: tilevm.options[k] for k in tilevm.INHERITED_OPTIONS})


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ours, (kind, target), rest = _split(argv)
    p = _parser()
    a = p.parse_args(ours)
    diffing = a.diff is not None or a.diff_replay is not None
    if diffing:
        from . import diff_cli
        diff_cli.check(p, a, target)
    if target is None and a.diff_replay is None:
        p.error("expected script.py or -m MODULE" if kind is None else
                ("-m needs a module name" if kind == "module" else "expected script.py after --"))
    launch = dict(check=a.check, threads=a.threads, schedule=a.schedule, timeout=a.timeout, fuel=a.fuel, strict=a.strict, device=a.device)
    try:
        tilevm._tilevm.check_options(launch)  # the checker `tilevm run` uses, with its messages
    except ValueError as e:
        print(f"python3 -m tilevm: error: {e}", file=sys.stderr)
        sys.exit(1)
    if a.device != "cpu":
        if not tilevm._tilevm.has_gpu_engine():
            print("tilevm: --device cuda: this build has no GPU engine (LLVM 19 was not found when it was built)", file=sys.stderr)
            sys.exit(2)
        usable, why = tilevm._tilevm.probe_device(a.device)  # parsed by the CLI's parser (checked above)
        if not usable:
            print(f"tilevm: --device {a.device}: {why}", file=sys.stderr)
            sys.exit(2)
    tilevm.options.update(launch, warn=a.check_warn, autotune=a.autotune)
    if diffing:  # --diff triton's interpreter runs see torch.empty's unwritten memory as undefined
        from . import fresh_memory
        fresh_memory.install_when_imported()
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_shim")
    if diffing:
        diff_cli.main(a, kind, target, rest, shim, run)
        return
    run(kind, target, rest, shim)


def run(kind, target, rest, shim):
    """Runs the script or module as Python would, with `shim` (tilevm's `triton`) first on the
    path, or (shim None) with the path as Python sets it."""
    if shim is not None:  # (without it, the triton imported is kept: --diff triton has hooked it)
        for name in [m for m in sys.modules if m == "triton" or m.startswith("triton.")]:
            del sys.modules[name]
        _inherit(shim)
    # Python put the current directory first for `-m tilevm` (unless -P): `-m MODULE` keeps it
    # there, a script's directory replaces it, as `python3 -m MODULE` and `python3 script.py` do;
    # tilevm's `triton` comes right after, before PYTHONPATH and site-packages.
    cwd_first = not getattr(sys.flags, "safe_path", False)
    if kind == "module":
        if shim is not None:
            sys.path.insert(1 if cwd_first else 0, shim)
        try:
            found = importlib.util.find_spec(target)
        except (ImportError, ValueError) as e:  # a parent package that is missing or fails
            found, why = None, str(e)
        else:
            why = f"No module named {target}"
        if found is None:
            print(f"{sys.executable}: {why}", file=sys.stderr)  # Python's own words and exit status
            sys.exit(1)
        sys.argv = ["-m"] + rest  # sys.argv[0] becomes the module's file while it runs
        runpy.run_module(target, run_name="__main__", alter_sys=True)
        return
    script = os.path.abspath(target)
    sys.argv = [target] + rest
    if cwd_first:
        del sys.path[0]
    sys.path[0:0] = [os.path.dirname(script)] + ([shim] if shim is not None else [])
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()

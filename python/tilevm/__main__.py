"""python3 -m tilevm [--check all|none|LIST] [--check-warn] [--threads N] [--schedule S]
                  [--timeout SECONDS] [--fuel N] [--strict] [--device cpu|cuda[:N]] [--autotune] script.py [args...]

Runs script.py as `python3 script.py` would, with tilevm's `triton` module first on the path:
its kernels run on tilevm's checking interpreter (or, with --device cuda, on tilevm's GPU engine)."""
import argparse
import os
import runpy
import sys

import tilevm


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m tilevm", description=__doc__.split("\n\n")[1])
    p.add_argument("--check", default="all", help="all, none, or a list of bounds,races,uninit (default: all)")
    p.add_argument("--check-warn", action="store_true", help="report findings as warnings instead of raising KernelError")
    p.add_argument("--threads", default="0", help="interpreter threads, 0 (all) to 1024")
    p.add_argument("--schedule", default="parallel", help="parallel, serial, reverse or random:SEED")
    p.add_argument("--timeout", default="300", help="wall-clock budget per launch in seconds (0: none)")
    p.add_argument("--fuel", default=str(2**24), help="loop iterations a program may run before it is stopped")
    p.add_argument("--strict", action="store_true", help="benign races (identical values written by unordered programs) are errors")
    p.add_argument("--device", default="cpu", help="cpu (the checking interpreter) or cuda[:N] (the GPU engine)")
    p.add_argument("--autotune", action="store_true", help="time every @triton.autotune configuration (default: the first runs)")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
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
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_shim")
    sys.path.insert(0, shim)
    for name in [m for m in sys.modules if m == "triton" or m.startswith("triton.")]:
        del sys.modules[name]
    script = os.path.abspath(a.script)
    sys.argv = [script] + a.args
    sys.path.insert(0, os.path.dirname(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()

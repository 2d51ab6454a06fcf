"""python3 -m tilevm [--check all|none] [--check-warn] [--threads N] [--schedule S]
                  [--timeout SECONDS] [--device cpu|cuda] script.py [args...]

Runs script.py as `python3 script.py` would, with tilevm's `triton` module first on the path:
its kernels run on tilevm's checking interpreter."""
import argparse
import os
import runpy
import sys

import tilevm


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m tilevm", description=__doc__.split("\n\n")[1])
    p.add_argument("--check", choices=["all", "none"], default="all", help="the checks (default: all)")
    p.add_argument("--check-warn", action="store_true", help="report findings as warnings instead of raising KernelError")
    p.add_argument("--threads", type=int, default=0, help="interpreter threads (0: all)")
    p.add_argument("--schedule", default="parallel", help="parallel, serial, reverse or random:SEED")
    p.add_argument("--timeout", type=float, default=300.0, help="wall-clock budget per launch in seconds (0: none)")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    if a.device == "cuda":
        sys.exit("tilevm: --device cuda needs the GPU engine, which is not built yet (the NVPTX code generator "
                 "is the next step); run on the CPU interpreter with --device cpu")
    tilevm.options.update(check=a.check, threads=a.threads, schedule=a.schedule, timeout=a.timeout,
                          warn=a.check_warn)
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

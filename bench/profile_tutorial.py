"""profile_tutorial.py PATH/TUTORIAL.py [CODE | @FILE] - a Triton tutorial run unmodified except
that its benchmarks do not run (perf_report's Mark.run does nothing): its own checks' launches
only, then CODE (Python, or FILE's, in the tutorial's globals: e.g. one call of its wrapper at a
benchmark's size; bench/tutorial05_backward.py times its backward pass), and
the process exits, which is what a profiler (ncu --launch-skip/--launch-count) needs. Run it
under real Triton and under `python3 -m tilevm --device cuda` alike. KEEP_GOING=1 runs the
tutorial's top-level statements one by one, printing the traceback of any that fails and going
on (CODE still runs after a failed check of the tutorial's own)."""
import ast
import os
import runpy
import sys
import traceback

import triton.testing

triton.testing.Mark.run = lambda self, *args, **kwargs: print(f"(benchmark {self.fn.__name__} skipped)")
here = os.getcwd()
path = os.path.abspath(sys.argv[1])
os.chdir(os.path.dirname(path))
code = sys.argv[2] if len(sys.argv) > 2 else None
sys.argv = [path]
if os.environ.get("KEEP_GOING") == "1":
    tutorial = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    for stmt in ast.parse(open(path).read(), path).body:
        try:
            exec(compile(ast.Module([stmt], []), path, "exec"), tutorial)
        except Exception:
            print(f"(the tutorial's statement at line {stmt.lineno} failed:)", flush=True)
            traceback.print_exc()
else:
    tutorial = runpy.run_path(path, run_name="__main__")
if code and code.startswith("@"):
    code = open(os.path.join(here, code[1:])).read()
if code:
    exec(code, tutorial)

"""`tilevm diff K.py --engine triton` end to end: the CLI makes the arguments from run's specs
and starts `python3 -m tilevm.diff_kernel`, whose `triton` here is the stand-in package
(modules/fake_triton: the "GPU" is the kernel file's Python) and whose torch pretends CUDA
(a sitecustomize in a temporary directory): agreement (exit 0, PASS), a planted wrong element
(exit 4, its index and values), no triton (one line, exit 2), and refused options."""
import os
import subprocess
import sys
import tempfile

import tilevm

here = os.path.dirname(os.path.abspath(__file__))
package_root = os.path.dirname(os.path.dirname(os.path.abspath(tilevm.__file__)))
# The build tree's binary (build/tools/tilevm beside build/python), or the dist layout's
# (scripts/distpy.sh: dist/tilevm beside dist/py).
candidates = [os.path.join(os.path.dirname(package_root), "tools", "tilevm"), os.path.join(os.path.dirname(package_root), "tilevm")]
exe = next((c for c in candidates if os.access(c, os.X_OK)), candidates[0])
assert os.access(exe, os.X_OK), f"the tilevm binary is not at {exe}"
work = tempfile.mkdtemp()
kernel = os.path.join(work, "k.py")
with open(kernel, "w") as f:
    f.write('''import os
import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def gpu(x_ptr, y_ptr, out_ptr, n, BLOCK):  # the stand-in's "GPU": the float64-correct sum, rounded once
    out_ptr.copy_((x_ptr.double() + y_ptr.double()).float())
    if os.environ.get("PLANT"):
        out_ptr[int(os.environ["PLANT"])] += 1


if hasattr(add, "device"):
    add.device = gpu
''')
with open(os.path.join(work, "sitecustomize.py"), "w") as f:
    f.write('''import torch
torch.cuda.is_available = lambda: True
torch.cuda.synchronize = lambda: None
torch.Tensor.cuda = lambda self, *a, **k: self
''')
env = dict(os.environ, TILEVM_PYTHON=sys.executable,
           PYTHONPATH=os.pathsep.join([work, os.path.join(here, "modules", "fake_triton"), package_root]))
env.pop("TILEVM_OPTIONS", None)
args = [exe, "diff", kernel, "-k", "add", "--engine", "triton", "--grid", "4", "-D", "BLOCK=32", "--arg", "x_ptr=randn:f32:100",
        "--arg", "y_ptr=randn:f32:100", "--arg", "out_ptr=zeros:f32:100", "--arg", "n=100"]


def run(cmd, **extra):
    return subprocess.run(cmd, env=dict(env, **extra), capture_output=True, text=True, timeout=300)


r = run(args)
assert r.returncode == 0 and r.stdout.rstrip().endswith("PASS"), (r.returncode, r.stdout, r.stderr)
assert "interpreter vs triton" in r.stdout and "4 programs" in r.stdout, r.stdout
r = run(args, PLANT="61")
assert r.returncode == 4 and "FAIL" in r.stdout, (r.returncode, r.stdout, r.stderr)
assert "first divergent element: out_ptr(61,)" in r.stdout and "written on the interpreter by program (1, 0, 0)" in r.stdout, r.stdout
# No triton at all: one line, exit 2 (where a real triton is installed, as on the GPU machine,
# the child finds it, and this case cannot be made here).
no_triton = os.pathsep.join([work, package_root])
probe = subprocess.run([sys.executable, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('triton') is not None)"],
                       env=dict(env, PYTHONPATH=no_triton))
if probe.returncode == 0:
    r = run(args, PYTHONPATH=no_triton)
    assert r.returncode == 2 and "needs the triton package and a CUDA GPU" in r.stderr, (r.returncode, r.stderr)
# Options that belong to the GPU engine's diff are refused.
r = run(args + ["--ulps", "3"])
assert r.returncode == 1 and "the tolerance is the kernel's default" in r.stderr, (r.returncode, r.stderr)
r = run([exe, "diff", os.path.join(here, "..", "..", "examples", "vadd.tile"), "--engine", "triton"])
assert r.returncode == 1 and "launches a Python kernel file" in r.stderr, (r.returncode, r.stderr)
print("diff_kernel_cli: tilevm diff --engine triton agrees, finds a planted element (exit 4), exit 2 without triton")

"""Run by run_scripts.sh as `python3 -m tilevm --schedule reverse -m modules.run_as_module ARGS`
from test/python: it must run as `python3 -m modules.run_as_module ARGS` would (its name
__main__, its spec, sys.argv[0] its file, sys.path[0] the current directory), with tilevm's
`triton`; and a Python program it starts with sys.executable must get the same `triton` and
options."""
import os
import subprocess
import sys
import tempfile

import numpy as np

import tilevm
import triton
import triton.language as tl

assert __name__ == "__main__", __name__
assert __spec__ is not None and __spec__.name == "modules.run_as_module", __spec__
assert sys.argv[0] == os.path.abspath(__file__), sys.argv
assert sys.argv[1:] == ["first", "-m", "--second"], sys.argv
assert sys.path[0] == os.getcwd(), sys.path[:3]
assert triton.__version__.endswith("+tilevm") and tilevm.options["schedule"] == "reverse", tilevm.options


@triton.jit
def iota(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs)


out = np.zeros(8, dtype=np.int32)
iota[(1, )](out, BLOCK=8)
assert out.tolist() == list(range(8))

CHILD = """
import numpy as np, tilevm, triton, triton.language as tl
@triton.jit
def twice(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
x = np.arange(4, dtype=np.float32)
twice[(1, )](x, BLOCK=4)
assert x.tolist() == [0, 2, 4, 6], x
print(triton.__version__, tilevm.options["schedule"], tilevm.last_launch["programs"])
"""
workdir = tempfile.mkdtemp(prefix="tilevm-child-")
child_script = os.path.join(workdir, "child.py")  # a kernel's source must be in a file, as for Triton
with open(child_script, "w") as f:
    f.write(CHILD)
child = subprocess.run([sys.executable, child_script], capture_output=True, text=True)
assert child.returncode == 0, child.stderr
version, schedule, programs = child.stdout.split()
assert version == triton.__version__ and schedule == "reverse" and programs == "1", child.stdout
# A program that resets the variable gets tilevm's defaults, still with tilevm's triton.
env = dict(os.environ)
env.pop(tilevm.OPTIONS_VARIABLE)
child = subprocess.run([sys.executable, child_script], capture_output=True, text=True, env=env)
assert child.returncode == 0 and child.stdout.split()[1] == "parallel", (child.stdout, child.stderr)
# A bad value is refused with a message, not used.
env[tilevm.OPTIONS_VARIABLE] = "{not json"
child = subprocess.run([sys.executable, "-c", "import tilevm"], capture_output=True, text=True, env=env)
assert child.returncode != 0 and "TILEVM_OPTIONS='{not json': not JSON" in child.stderr, child.stderr
os.remove(child_script)
os.rmdir(workdir)
print("ran as a module; a child python got tilevm's triton and options")

"""`python3 -m tilevm --diff triton ARGS` in a child Python whose `triton` is the stand-in package
(modules/fake_triton: launches computed in Python) and whose torch.cuda says it is available, for
the tests that drive --diff triton end to end. A kernel whose JITFunction has no `device` is
computed by the function of its name that `setup` puts in module `fake_gpu`."""
import os
import subprocess
import sys

import tilevm

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # test/python
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tilevm.__file__)))
_PREAMBLE = """
import sys, types, torch
torch.cuda.is_available = lambda: True  # the GPU is the stand-in's Python
torch.cuda.synchronize = lambda: None
gpu = sys.modules["fake_gpu"] = types.ModuleType("fake_gpu")  # kernels' stand-ins by name (fake_triton's jit.py)
"""


def env(*path):
    """The environment of a child Python: PYTHONPATH `path` then tilevm's package, no inherited options."""
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([*path, PACKAGE_ROOT]))
    e.pop("TILEVM_OPTIONS", None)
    return e


def run_diff(args, setup="", cwd=None, timeout=300):
    """The CompletedProcess (text) of `python3 -m tilevm --diff triton *args` over the stand-in,
    after `setup` (Python, run first: it may define the fake_gpu functions on `gpu`)."""
    child = f"{_PREAMBLE}\n{setup}\nfrom tilevm.__main__ import main\nmain({['--diff', 'triton', *args]!r})\n"
    return subprocess.run([sys.executable, "-c", child], env=env(os.path.join(HERE, "modules", "fake_triton")),
                          capture_output=True, text=True, timeout=timeout, cwd=cwd)

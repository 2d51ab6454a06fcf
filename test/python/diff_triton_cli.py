"""`python3 -m tilevm --diff triton script.py` end to end, in a child Python whose `triton` is a
stand-in of the real package (modules/fake_triton: launches computed in Python) and whose
torch.cuda says it is available: the hooks in place, launches compared and reported with the
script's line, warmups and autotuner benchmarking left alone, a warmup's CompiledKernel launched
and compared, the summary, exit status 1; the
launches recorded (--diff-record) and replayed (--diff-replay) in a Python without any triton;
`-m MODULE`; tilevm's own stand-in found as `triton`: one line, exit 2."""
import os
import subprocess
import sys
import tempfile

import tilevm

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "modules", "diff_triton_script.py")
package_root = os.path.dirname(os.path.dirname(os.path.abspath(tilevm.__file__)))
child = f"""
import sys, torch
torch.cuda.is_available = lambda: True  # the GPU is the stand-in's Python
torch.cuda.synchronize = lambda: None
from tilevm.__main__ import main
main(["--diff", "triton", "--diff-record", sys.argv[1], {script!r}])
"""
env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(here, "modules", "fake_triton"), package_root]))
env.pop("TILEVM_OPTIONS", None)
fixtures = tempfile.mkdtemp()
r = subprocess.run([sys.executable, "-c", child, fixtures], env=env, capture_output=True, text=True, timeout=300)
err = r.stderr
assert r.returncode == 1, (r.returncode, r.stdout, err)
assert r.stdout.strip() == "script done", r.stdout
line = next(i for i, l in enumerate(open(script), 1) if "# LAUNCH" in l)
assert f"tilevm --diff: kernel add, grid (4, 1, 1), at {script}:{line}: DIVERGED" in err, err
assert "first divergent element: out_ptr(37,) (fp32, shape (100,))" in err and "by program (1, 0, 0)" in err, err
rows = [l.split() for l in err.splitlines()]
assert ["add", "4", "4", "0", "3", "1", "0", "0"] in rows, err
assert err.count("DIVERGED") == 1, err

# The recorded launches replayed with no triton on the path: the same verdicts.
assert sorted(os.listdir(fixtures)) == [f"launch-000{i}.{e}" for i in range(4) for e in ("json", "npz")], os.listdir(fixtures)
env = dict(os.environ, PYTHONPATH=package_root)
env.pop("TILEVM_OPTIONS", None)
r = subprocess.run([sys.executable, "-m", "tilevm", "--diff-replay", fixtures], env=env, capture_output=True, text=True,
                   timeout=300, cwd=fixtures)
assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
assert f"kernel add, grid (4, 1, 1), at {script}:{line}: DIVERGED" in r.stderr, r.stderr
assert "first divergent element: out_ptr(37,) (fp32, shape (100,))" in r.stderr, r.stderr
assert ["add", "4", "4", "0", "3", "1", "0", "0"] in [l.split() for l in r.stderr.splitlines()], r.stderr
# -m MODULE runs as python3 -m MODULE would, under the hooks.
module_child = child.replace(f"{script!r}]", "'-m', 'modules.diff_triton_script']").replace('"--diff-record", sys.argv[1], ', "")
env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(here, "modules", "fake_triton"), package_root]))
env.pop("TILEVM_OPTIONS", None)
r = subprocess.run([sys.executable, "-c", module_child], env=env, capture_output=True, text=True, timeout=300, cwd=here)
assert r.returncode == 1 and r.stdout.strip() == "script done", (r.returncode, r.stdout, r.stderr)
assert ["add", "4", "4", "0", "3", "1", "0", "0"] in [l.split() for l in r.stderr.splitlines()], r.stderr

# Under -m pytest, which captures stderr and shows it only for failing tests, the report of a
# divergence in a passing test still reaches stderr.
pytest_child = child.replace(f"{script!r}]", "'-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'modules/test_diff_pytest.py']")
pytest_child = pytest_child.replace('"--diff-record", sys.argv[1], ', "")
r = subprocess.run([sys.executable, "-c", pytest_child], env=env, capture_output=True, text=True, timeout=300, cwd=here)
assert "1 passed" in r.stdout, (r.returncode, r.stdout, r.stderr)
assert f"at {script}:{line}: DIVERGED" in r.stderr and "first divergent element: out_ptr(37,)" in r.stderr, r.stderr
assert r.returncode == 1, (r.returncode, r.stderr)

# tilevm's own stand-in found as `triton` (here another path to it): one line, exit 2.
link = os.path.join(fixtures, "path")
os.mkdir(link)
os.symlink(os.path.join(os.path.dirname(os.path.abspath(tilevm.__file__)), "_shim", "triton"), os.path.join(link, "triton"))
env = dict(os.environ, PYTHONPATH=os.pathsep.join([link, package_root]))
env.pop("TILEVM_OPTIONS", None)
r = subprocess.run([sys.executable, "-m", "tilevm", "--diff", "triton", script], env=env, capture_output=True, text=True,
                   timeout=300)
assert r.returncode == 2 and r.stderr.startswith("tilevm: --diff triton needs the triton package and a CUDA GPU (the triton "
                                                 "imported is tilevm's own stand-in ("), (r.returncode, r.stderr)
assert len(r.stderr.strip().splitlines()) == 1, r.stderr
os.remove(os.path.join(link, "triton"))
os.rmdir(link)
for f in os.listdir(fixtures):
    os.remove(os.path.join(fixtures, f))
os.rmdir(fixtures)
print("diff_triton_cli: the script ran on the stand-in triton, 4 launches compared (one of a warmup's compiled kernel), the planted element found, exit 1; replayed alike")

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
from modules import stand_in

here = stand_in.HERE
script = os.path.join(here, "modules", "diff_triton_script.py")
fixtures = tempfile.mkdtemp()
r = stand_in.run_diff(["--diff-record", fixtures, script])
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
r = subprocess.run([sys.executable, "-m", "tilevm", "--diff-replay", fixtures], env=stand_in.env(), capture_output=True,
                   text=True, timeout=300, cwd=fixtures)
assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
assert f"kernel add, grid (4, 1, 1), at {script}:{line}: DIVERGED" in r.stderr, r.stderr
assert "first divergent element: out_ptr(37,) (fp32, shape (100,))" in r.stderr, r.stderr
assert ["add", "4", "4", "0", "3", "1", "0", "0"] in [l.split() for l in r.stderr.splitlines()], r.stderr
# -m MODULE runs as python3 -m MODULE would, under the hooks.
r = stand_in.run_diff(["-m", "modules.diff_triton_script"], cwd=here)
assert r.returncode == 1 and r.stdout.strip() == "script done", (r.returncode, r.stdout, r.stderr)
assert ["add", "4", "4", "0", "3", "1", "0", "0"] in [l.split() for l in r.stderr.splitlines()], r.stderr

# Under -m pytest, which captures stderr and shows it only for failing tests, the report of a
# divergence in a passing test still reaches stderr.
r = stand_in.run_diff(["-m", "pytest", "-q", "-p", "no:cacheprovider", "modules/test_diff_pytest.py"], cwd=here)
assert "1 passed" in r.stdout, (r.returncode, r.stdout, r.stderr)
assert f"at {script}:{line}: DIVERGED" in r.stderr and "first divergent element: out_ptr(37,)" in r.stderr, r.stderr
assert r.returncode == 1, (r.returncode, r.stderr)

# tilevm's own stand-in found as `triton` (here another path to it): one line, exit 2.
link = os.path.join(fixtures, "path")
os.mkdir(link)
os.symlink(os.path.join(os.path.dirname(os.path.abspath(tilevm.__file__)), "_shim", "triton"), os.path.join(link, "triton"))
r = subprocess.run([sys.executable, "-m", "tilevm", "--diff", "triton", script], env=stand_in.env(link), capture_output=True,
                   text=True, timeout=300)
assert r.returncode == 2 and r.stderr.startswith("tilevm: --diff triton needs the triton package and a CUDA GPU (the triton "
                                                 "imported is tilevm's own stand-in ("), (r.returncode, r.stderr)
assert len(r.stderr.strip().splitlines()) == 1, r.stderr
os.remove(os.path.join(link, "triton"))
os.rmdir(link)
for f in os.listdir(fixtures):
    os.remove(os.path.join(fixtures, f))
os.rmdir(fixtures)
print("diff_triton_cli: the script ran on the stand-in triton, 4 launches compared (one of a warmup's compiled kernel), the planted element found, exit 1; replayed alike")

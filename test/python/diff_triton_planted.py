"""`python3 -m tilevm --diff triton` on test/triton/planted_defects.py (the GPU machine runs it with
real Triton), here in a child Python whose `triton` is the stand-in package (modules/fake_triton)
and whose "GPU" computes each kernel as the GPU does with its defect: the racy total loses updates,
the unmasked tail sums what lies past the tensor (here 0.5 each), the accumulation adds to
torch.empty's memory as it was. Each defect is found by the interpreter and located at its line
with its kind; the race and the tail diverge, the accumulation agrees (the interpreter reads the
same bytes, copied) but reads memory no one wrote; exit status 1. Recorded with --diff-record and
replayed with --diff-replay, the report is the same (torch.empty's memory recorded as undefined).
diff_triton_recorded.py replays fixtures recorded with real Triton on the H200 alike."""
import os
import shutil
import subprocess
import sys
import tempfile

from modules import planted_report, stand_in

script = planted_report.SCRIPT
setup = """
def total_racy(x, total, n, BLOCK):  # only the last program's store survives
    total += x[(n - 1) // BLOCK * BLOCK:n].sum()


def block_sums_unmasked(x, sums, BLOCK):
    padded = torch.cat([x, torch.full((len(sums) * BLOCK - len(x),), 0.5)])  # what lies past the end
    sums.copy_(padded.reshape(-1, BLOCK).sum(1))


def accumulate(x, acc, n, BLOCK):
    acc += x


gpu.total_racy, gpu.block_sums_unmasked, gpu.accumulate = total_racy, block_sums_unmasked, accumulate
"""
fixtures = tempfile.mkdtemp()
r = stand_in.run_diff(["--diff-record", fixtures, script], setup, timeout=600)
out, err = r.stdout, r.stderr
assert r.returncode == 1, (r.returncode, out, err)
print(err) if os.environ.get("VERBOSE") else None
assert out.count("\n") == 3 and out.startswith("race: "), (out, err)
planted_report.check(err)

# Replayed from the fixtures (torch.empty's unwritten bytes recorded with them): the same report.
r = subprocess.run([sys.executable, "-m", "tilevm", "--diff-replay", fixtures], env=stand_in.env(), capture_output=True,
                   text=True, timeout=600, cwd=fixtures)
assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
planted_report.check(r.stderr)
shutil.rmtree(fixtures)
print("diff_triton_planted: ok (race, unmasked tail and torch.empty read found and located, live and replayed)")

"""Launches recorded with real Triton 3.6 on the H200 (`python3 -m tilevm --diff triton
--diff-record` over test/triton/planted_defects.py; test/triton/recorded/README.md says how),
replayed here with no Triton and no GPU: the GPU's own results against the interpreter's, with
the interpreter's checks. Every planted defect is found and located as on the GPU machine."""
import os
import subprocess
import sys

from modules import planted_report, stand_in

fixtures = os.path.join(os.path.dirname(stand_in.HERE), "triton", "recorded", "planted_h200")
names = sorted(os.listdir(fixtures))
assert names == [f"launch-000{i}.{e}" for i in range(4) for e in ("json", "npz")], names
r = subprocess.run([sys.executable, "-m", "tilevm", "--diff-replay", fixtures], env=stand_in.env(), capture_output=True,
                   text=True, timeout=600)
assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
print(r.stderr) if os.environ.get("VERBOSE") else None
planted_report.check(r.stderr, stand_in_gpu=False)
print("diff_triton_recorded: ok (real Triton's GPU results replayed: race, tail read and torch.empty read found)")

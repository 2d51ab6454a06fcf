"""anchor_summary.py OUT - issue 22's anchors from a gpu_anchor_sweep.sh run: each row of the
gpu_bench.json and gpu_dot_bench.json files under OUT with its diff, tilevm/Triton ratio and
whether it meets its bar (0.98x Triton for the memory-bound anchors, 0.9x for the tensor-core
ones), as one Markdown table."""
import glob
import json
import os
import sys

out = sys.argv[1]
rows = []
for path in sorted(glob.glob(os.path.join(out, "*", "gpu_bench.json"))):
    for r in json.load(open(path))["rows"]:
        rows.append((r["kernel"], r["diff"], r["ratio"], 0.98, "bandwidth"))
for path in sorted(glob.glob(os.path.join(out, "*", "gpu_dot_bench.json"))):
    for r in json.load(open(path)):
        ratio = r["tilevm_tflops"] / r["triton_tflops"] if r["tilevm_tflops"] else None
        rows.append((r["kernel"], r["diff"], ratio, 0.9, "TFLOP/s"))
print("| anchor | diff | tilevm / Triton | of | bar | meets |")
print("|---|---|---|---|---|---|")
for kernel, diff, ratio, bar, what in rows:
    meets = diff == "PASS" and ratio is not None and ratio >= bar
    shown = "—" if ratio is None else f"{ratio:.2f}x"
    print(f"| {kernel} | {diff} | {shown} | {what} | {bar}x | {'yes' if meets else '**no**'} |")
if not rows:
    print("(no gpu_bench.json or gpu_dot_bench.json under " + out + ")")

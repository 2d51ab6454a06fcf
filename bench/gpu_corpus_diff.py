#!/usr/bin/env python3
"""gpu_corpus_diff.py TILEVM [FILE...] - on the GPU machine: every case of the kernel corpus
(test/corpus, headers as in run_corpus.py) through `tilevm diff` (interpreter vs GPU), to measure
how much of the corpus the GPU engine lowers and whether what it lowers agrees. Prints one line
per case (PASS, FAIL, NOT LOWERED with the op, ERROR) and a summary count.
With PTXAS=/path/to/ptxas in the environment (no GPU needed): each case's PTX for each arch of
PTXAS_ARCHS (default sm_90,sm_90a: mma.sync and wgmma) through `ptxas -arch=ARCH` instead of diff
(PASS means the PTX assembles for every one). EXTRA="--num-stages 3" adds options to every
command (the cp.async rings of sm_90a)."""
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "corpus"))
import run_corpus  # noqa: E402  (the corpus's header reader and input generator)


def main():
    tilevm = sys.argv[1]
    files = sys.argv[2:] or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "corpus", "*.py")))
    counts = collections.Counter()
    rng = np.random.default_rng(int(os.environ.get("CORPUS_SEED", "1")))
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            if os.path.basename(path) == "run_corpus.py":
                continue
            for case in run_corpus.cases(path):
                ptxas = os.environ.get("PTXAS")
                # The interpreter's own options go; ptx takes the kernel's arguments, not its grid.
                # EXTRA's options replace the case's own.
                extra = os.environ.get("EXTRA", "").split()
                drop = ("--schedule", "--threads", "--check") + (("--grid",) if ptxas else ())
                drop += tuple(o for o in extra if o.startswith("--"))
                ptx = os.path.join(tmp, "kernel.ptx")
                base = [tilevm, "ptx" if ptxas else "diff", path] + run_corpus.command_line(path, case, rng, tmp, drop)
                base += extra
                if not ptxas:
                    r = subprocess.run(base, capture_output=True, text=True)
                for arch in os.environ.get("PTXAS_ARCHS", "sm_90,sm_90a").split(",") if ptxas else []:
                    r = subprocess.run(base + ["--arch", arch, "-o", ptx], capture_output=True, text=True)
                    if r.returncode != 0:
                        break
                    r = subprocess.run([ptxas, "-arch=" + arch, ptx, "-o", os.path.join(tmp, "kernel.cubin")], capture_output=True, text=True)
                    r.returncode = 4 if r.returncode else 0
                    r.stdout = f"FAIL: ptxas -arch={arch} " + r.stderr.replace("\n", " ") if r.returncode else ""
                    if r.returncode:
                        break
                out = r.stdout + r.stderr
                kernel = case["run"].split("-k", 1)[1].split()[0] if "-k" in case["run"] else "?"
                if r.returncode == 0:
                    verdict = "PASS"
                elif r.returncode == 4:
                    verdict = "FAIL " + " ".join(l.strip() for l in out.splitlines() if "FAIL:" in l)[:300]
                else:
                    m = re.search(r"codegen: '([a-z_0-9]+)' is not lowered|codegen: ([^\n]*)", out)
                    verdict = ("NOT LOWERED " + (m.group(1) or m.group(2))) if m else f"ERROR exit {r.returncode}: {out.strip()[-300:]}"
                counts[verdict.split(" ")[0] + (" " + verdict.split(" ")[1] if verdict.startswith("NOT") else "")] += 1
                print(f"{os.path.basename(path)} {kernel}: {verdict}", flush=True)
    print("\nsummary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0 if set(counts) <= {"PASS"} else 1


if __name__ == "__main__":
    sys.exit(main())

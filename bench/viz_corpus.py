#!/usr/bin/env python3
"""viz_corpus.py TILEVM - every case of the kernel corpus (test/corpus: kernels in real projects'
styles) drawn by `tilevm viz --run` (SVG, with the run's counters) and `--collapse`: whether each
draws, and the node counts before and after folding. Prints one line per case and a summary."""
import glob, os, re, subprocess, sys, tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "corpus"))
import run_corpus  # noqa: E402


def main():
    tilevm = sys.argv[1]
    rng = np.random.default_rng(1)
    ok = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "corpus", "*.py"))):
            if os.path.basename(path) == "run_corpus.py":
                continue
            for case in run_corpus.cases(path):
                cli = run_corpus.command_line(path, case, rng, tmp, ("--schedule", "--threads", "--check"))
                counts = []
                good = True
                for extra in ([], ["--collapse"]):
                    out = os.path.join(tmp, "g.dot")
                    r = subprocess.run([tilevm, "viz", path] + cli + ["--run", "-o", out] + extra, capture_output=True, text=True)
                    svg = subprocess.run([tilevm, "viz", path] + cli + ["-o", os.path.join(tmp, "g.svg")] + extra,
                                         capture_output=True, text=True)
                    if r.returncode != 0 or svg.returncode != 0:
                        good = False
                        print(f"{os.path.basename(path)}: FAIL {(r.stderr + svg.stderr).strip()[-200:]}")
                        break
                    counts.append(len(re.findall(r"^\s+(?:p|op)\d+\s+\[", open(out).read(), re.M)))
                if good:
                    ok += 1
                    kernel = case["run"].split("-k", 1)[1].split()[0]
                    print(f"{os.path.basename(path)} {kernel}: drawn, {counts[0]} nodes, {counts[1]} folded")
                else:
                    bad += 1
    print(f"\nsummary: {ok} drawn, {bad} failed")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

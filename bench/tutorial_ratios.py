#!/usr/bin/env python3
"""tutorial_ratios.py TRITON_LOG TILEVM_LOG - a Triton tutorial's perf_report tables as printed
under real Triton and under `python3 -m tilevm --device cuda` in the same call: for each table,
the ratio tilevm / Triton of its first column (the "Triton" line, which is tilevm's GPU engine in
the second log), row by row, summarized as median, min and max, and at the largest size."""
import re
import statistics
import sys


def tables(path):
    """{table name: [(x, first column value), ...]} from perf_report's printed tables."""
    out, name = {}, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.endswith(":") and not line.startswith(" "):
            name = line[:-1]
            out[name] = []
            continue
        m = re.match(r"^\s*\d+\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)", line)
        if name is not None and m:
            out[name].append((float(m.group(1)), float(m.group(2))))
    return {k: v for k, v in out.items() if v}


def main():
    triton, tilevm = tables(sys.argv[1]), tables(sys.argv[2])
    for name, rows in triton.items():
        mine = dict(tilevm.get(name, []))
        ratios = [(x, mine[x] / v) for x, v in rows if x in mine and v > 0]
        if not ratios:
            print(f"{name}: no rows in common")
            continue
        r = [q for _, q in ratios]
        print(f"{name}: {len(r)} rows, tilevm/Triton median {statistics.median(r):.2f}, min {min(r):.2f}, max {max(r):.2f}, "
              f"at x={ratios[-1][0]:g}: {ratios[-1][1]:.2f}")


main()

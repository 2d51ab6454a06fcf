#!/usr/bin/env python3
"""gen-op-table.py - rewrites the opcode table of docs/bytecode.md from ir/ops.def (the one
place per-op facts live). test/unit/BytecodeTest.cpp checks the table against the compiled
ops.def, so run this after changing a row."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FAMILY = {"IntBinary": "int-binary", "IntUnary": "int-unary", "FloatBinary": "float-binary",
          "FloatUnary": "float-unary", "FloatTernary": "float-ternary"}
ROW = re.compile(r'TILE_OP\((\w+),\s*"([a-z_0-9]+)",\s*(0x[0-9A-F]+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*(\d+),\s*(\w+),\s*(\d+),'
                 r'\s*(\d+),\s*[^)]*\)\s*(?://\s*(.*))?$')


def operands(lo, hi):
    return f"{lo}+" if hi == -1 else (str(lo) if lo == hi else f"{lo}–{hi}")


def main():
    rows = ["| op | opcode | family | since | operands | results | regions | ulps | semantics |",
            "|---|---|---|---|---|---|---|---|---|"]
    with open(os.path.join(ROOT, "ir", "ops.def"), encoding="utf-8") as f:
        for line in f:
            m = ROW.match(line.strip())
            if not m:
                continue
            _, mn, code, lo, hi, res, reg, fam, since, ulps, sem = m.groups()
            fam = FAMILY.get(fam, fam.lower())
            rows.append(f"| `{mn}` | {code} | {fam} | 1.{since} | {operands(int(lo), int(hi))} | "
                        f"{'N' if res == '-1' else res} | {reg} | {ulps} | {(sem or '').strip().replace('|', chr(92) + '|')} |")
    path = os.path.join(ROOT, "docs", "bytecode.md")
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start = doc.index("| op | opcode |")
    end = start
    lines = doc[start:].split("\n")
    n = 0
    while n < len(lines) and lines[n].startswith("|"):
        n += 1
    end = start + len("\n".join(lines[:n]))
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc[:start] + "\n".join(rows) + doc[end:])
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""compare_junit.py TILEVM.xml [TRITON.xml] - two pytest JUnit reports of the same test files (one
under tilevm, one under Triton's interpreter): each side's passed / failed / skipped counts and
pass share of the tests that ran, and the tests Triton's interpreter passes that tilevm fails,
counted by test function, each with the first line of tilevm's failure message. With one
report: its counts and its failures counted by test function and message (digits as N)."""
import collections
import re
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """{test id: (outcome, message)}: outcome passed, failed or skipped (errors count as failed)."""
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        tid = f"{case.get('classname')}::{case.get('name')}"
        kind, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                kind, message = "failed", (child.get("message") or "").splitlines()[0][:160] if child.get("message") else ""
            elif child.tag == "skipped" and kind == "passed":
                kind = "skipped"
        out[tid] = (kind, message)
    return out


def summary(name, res):
    c = collections.Counter(k for k, _ in res.values())
    ran = c["passed"] + c["failed"]
    share = 100.0 * c["passed"] / ran if ran else 0.0
    print(f"{name}: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped; {share:.1f}% of {ran} that ran pass")


def reasons(res):
    by = collections.Counter((t.split("::")[-1].split("[")[0], re.sub(r"\d+", "N", m)[:110])
                             for t, (k, m) in res.items() if k == "failed")
    for (fn, message), n in by.most_common():
        print(f"  {n:5d} {fn}: {message}")


def main():
    if len(sys.argv) == 2:
        mine = outcomes(sys.argv[1])
        summary("tilevm", mine)
        reasons(mine)
        return
    mine, theirs = outcomes(sys.argv[1]), outcomes(sys.argv[2])
    summary("tilevm", mine)
    summary("Triton's interpreter", theirs)
    lost = [t for t, (k, _) in theirs.items() if k == "passed" and mine.get(t, ("absent", ""))[0] == "failed"]
    print(f"Triton's interpreter passes, tilevm fails: {len(lost)}")
    by_fn = collections.defaultdict(list)
    for t in lost:
        by_fn[t.split("::")[-1].split("[")[0]].append(t)
    for fn, tests in sorted(by_fn.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(tests):5d} {fn}: {mine[tests[0]][1]}")


main()

#!/usr/bin/env python3
"""list_diff.py TILEVM [FILE...] - `tilevm compile --list` against the kernels CPython's `ast`
finds in each corpus file: module-level functions (also inside if/try/with bodies, not under
`if __name__ == "__main__":`) decorated with triton.jit in any form, and `name = triton.jit(f)`
assignments. Exit 1 on any difference."""
import ast
import os
import subprocess
import sys


def dotted(e):
    if isinstance(e, ast.Call):
        e = e.func
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        base = dotted(e.value)
        return base + "." + e.attr if base else ""
    return ""


def is_jit(e, imports):
    d = dotted(e)
    head, _, rest = d.partition(".")
    full = imports.get(head, head) + ("." + rest if rest else "")
    return full in ("triton.jit", "triton.runtime.jit", "triton.runtime.jit.jit")


def contains_jit_call(e, imports):
    return isinstance(e, ast.Call) and (
        (is_jit(e.func, imports) and e.args and isinstance(e.args[0], ast.Name))
        or any(contains_jit_call(a, imports) for a in e.args) or contains_jit_call(e.func, imports))


def kernels(tree):
    imports, names = {}, []

    def visit(body):
        for s in body:
            if isinstance(s, ast.Import):
                for a in s.names:
                    imports[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(s, ast.ImportFrom) and s.level == 0:
                for a in s.names:
                    imports[a.asname or a.name] = f"{s.module}.{a.name}"
            elif isinstance(s, ast.FunctionDef) and any(is_jit(d, imports) for d in s.decorator_list):
                names.append(s.name)
            elif isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and contains_jit_call(s.value, imports):
                names.append(s.targets[0].id)
            elif isinstance(s, ast.If):
                t = s.test
                if isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__":
                    continue
                visit(s.body)
                visit(s.orelse)
            elif isinstance(s, ast.Try):
                for b in (s.body, *(h.body for h in s.handlers), s.orelse, s.finalbody):
                    visit(b)
            elif isinstance(s, ast.With):
                visit(s.body)

    visit(tree.body)
    seen = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return seen


def main():
    tilevm = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    files = sys.argv[2:] or sorted(os.path.join(d, f) for d, _, fs in os.walk(here) for f in fs
                                   if f.endswith(".py") and f not in ("run_corpus.py", "list_diff.py"))
    bad = 0
    for path in files:
        with open(path, "rb") as f:
            want = kernels(ast.parse(f.read(), path))
        r = subprocess.run([tilevm, "compile", path, "--list"], capture_output=True, text=True)
        got = r.stdout.split()
        if r.returncode != 0 or got != want:
            bad += 1
            print(f"DIFF {os.path.relpath(path, here)}: ast {want}, tilevm {got} (exit {r.returncode}) {r.stderr}")
    print(f"list_diff: {len(files)} files, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

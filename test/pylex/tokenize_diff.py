#!/usr/bin/env python3
"""tokenize_diff.py TOKDUMP [DIR...] - tilevm's Python tokenizer against CPython's `tokenize`.

For every .py file under the DIRs (default: this Python's standard library) that CPython itself
accepts (tokenize and compile succeed), the tokens of the kinds tilevm produces (NAME NUMBER
STRING OP NEWLINE INDENT DEDENT ENDMARKER) must agree in kind, text, line and column. Prints the
first difference of each failing file and exits 1 if any file differs."""
import io
import os
import subprocess
import sys
import sysconfig
import tokenize
import warnings

KINDS = {tokenize.NAME, tokenize.NUMBER, tokenize.STRING, tokenize.OP, tokenize.NEWLINE,
         tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
COMPARE_TEXT = {"NAME", "NUMBER", "STRING", "OP", "INDENT"}


def cpython_tokens(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, path, "exec", dont_inherit=True)
        toks = list(tokenize.tokenize(io.BytesIO(data).readline))
    except (SyntaxError, ValueError, tokenize.TokenError, UnicodeDecodeError, IndentationError):
        return None
    out = []
    for t in toks:
        if t.type == tokenize.ERRORTOKEN:
            return None
        if t.type in KINDS:
            out.append((tokenize.tok_name[t.type], t.start[0], t.start[1], t.string))
    return out


def tilevm_tokens(tokdump, paths):
    res = subprocess.run([tokdump] + paths, capture_output=True, check=True)
    files, cur = {}, None
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        head, _, rest = line.partition(" ")
        if head == "FILE":
            cur = files.setdefault(rest, [])
        elif head == "ERROR":
            cur.append(("ERROR", 0, 0, rest))
        else:
            ln, col, hx = rest.split(" ")
            text = b"" if hx == "-" else bytes.fromhex(hx)
            cur.append((head, int(ln), int(col), text.decode("utf-8", "replace")))
    return files


def main():
    tokdump = sys.argv[1]
    roots = sys.argv[2:] or [sysconfig.get_paths()["stdlib"]]
    paths = []
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
            paths += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    checked = skipped = 0
    failures = []
    for i in range(0, len(paths), 200):
        batch = paths[i:i + 200]
        ours = tilevm_tokens(tokdump, batch)
        for p in batch:
            ref = cpython_tokens(p)
            if ref is None:
                skipped += 1
                continue
            checked += 1
            got = ours.get(p, [])
            for k in range(max(len(ref), len(got))):
                r = ref[k] if k < len(ref) else None
                g = got[k] if k < len(got) else None
                same = r is not None and g is not None and r[:3] == g[:3] and (r[0] not in COMPARE_TEXT or r[3] == g[3])
                if not same:
                    failures.append(f"{p}: token {k}: CPython {r!r}, tilevm {g!r}")
                    break
    print(f"tokenize_diff: {checked} files agree-checked, {skipped} skipped (CPython rejects them), "
          f"{len(failures)} differ")
    for f in failures[:40]:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

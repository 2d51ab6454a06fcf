#!/usr/bin/env python3
"""run_corpus.py TILEVM [FILE...] - the kernel corpus: each case compiled and run on the interpreter
with every check on, its outputs compared with a float64 NumPy reference on fresh random inputs.

A case is a block of header comments in a kernel file (several per file allowed):
  # RUN: <tilevm run options: -k NAME -D ... --grid ... -I {dir}/lib ...>
  # ARGS: NAME=SPEC ...   SPEC as in `tilevm run --arg` (randn/rand/randint/arange/zeros/ones
  #                       KIND:DTYPE:SHAPE are generated here with NumPy and passed as .npy;
  #                       empty/full=/desc:/ptrs: and numbers are passed through), or
  #                       list:DTYPE:v1,v2,... for given values
  # REF: python           (any number of lines; inputs are float64 arrays by argument name,
  #                       outputs after the run are in `got`; set the expected arrays)
  # EXPECT: NAME ...      (arrays compared with the REF's variables of the same name)
  # TOL: RTOL [ATOL]      (default 1e-5 1e-5)
Exit 1 if any case fails (a finding, a nonzero exit, or a mismatch). The seed of the inputs is
printed; set CORPUS_SEED to reproduce a run."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

DTYPES = {"f32": np.float32, "fp32": np.float32, "f16": np.float16, "fp16": np.float16, "f64": np.float64,
          "i32": np.int32, "int32": np.int32, "i64": np.int64, "i16": np.int16, "i8": np.int8, "u8": np.uint8,
          "u32": np.uint32, "i1": np.bool_}


def cases(path):
    out, cur = [], None
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read().replace("\r\n", "\n").replace("\r", "\n")
    for line in text.split("\n"):
        m = re.match(r"#\s*(RUN|ARGS|REF|EXPECT|TOL):\s?(.*)$", line.strip())
        if not m:
            continue
        key, val = m.groups()
        if key == "RUN":
            cur = {"run": val, "args": [], "ref": [], "expect": [], "tol": (1e-5, 1e-5)}
            out.append(cur)
        elif key == "ARGS":
            cur["args"] += shlex.split(val)
        elif key == "REF":
            cur["ref"].append(val)
        elif key == "EXPECT":
            cur["expect"] += val.split()
        elif key == "TOL":
            t = [float(x) for x in val.split()]
            cur["tol"] = (t[0], t[1] if len(t) > 1 else t[0])
    return out


def make_input(spec, rng):
    parts = spec.split(":")
    if parts[0] == "list":
        return np.array([float(v) for v in parts[2].split(",")]).astype(DTYPES[parts[1]])
    if len(parts) != 3 or parts[0] not in ("randn", "rand", "randint", "arange", "zeros", "ones"):
        return None
    kind, dt, shape = parts[0], DTYPES[parts[1]], tuple(int(d) for d in parts[2].split("x"))
    if kind == "randn":
        a = rng.standard_normal(shape)
    elif kind == "rand":
        a = rng.random(shape)
    elif kind == "randint":
        a = rng.integers(0 if dt in (np.uint8, np.uint32) else -100, 100, shape)
    elif kind == "arange":
        a = np.arange(int(np.prod(shape))).reshape(shape)
    elif kind == "zeros":
        a = np.zeros(shape)
    else:
        a = np.ones(shape)
    return a.astype(dt)


def command_line(path, case, rng, tmp, drop=()):
    """The case's RUN options (without those named in `drop`, each taking one value) and its
    arguments, for any tilevm subcommand; generated arrays are saved as .npy files in tmp."""
    run = shlex.split(case["run"].replace("{dir}", os.path.dirname(os.path.abspath(path))))
    for opt in drop:
        while opt in run:
            i = run.index(opt)
            del run[i:i + 2]
    for a in case["args"]:
        name, spec = a.split("=", 1)
        arr = make_input(spec, rng)
        if arr is not None:
            f = os.path.join(tmp, name + ".npy")
            np.save(f, arr)
            run += ["--arg", f"{name}=@{f}"]
        else:
            run += ["--arg", a]
    return run


def run_case(tilevm, path, case, rng, tmp):
    d = os.path.dirname(os.path.abspath(path))
    cmd = [tilevm, "run", path] + shlex.split(case["run"].replace("{dir}", d)) + ["--check", "all", "-q"]
    inputs, arrays = {}, []
    for a in case["args"]:
        name, spec = a.split("=", 1)
        arr = make_input(spec, rng)
        if arr is not None:
            f = os.path.join(tmp, name + ".in.npy")
            np.save(f, arr)
            inputs[name] = arr
            cmd += ["--arg", f"{name}=@{f}"]
        else:
            cmd += ["--arg", a]
        if arr is not None or spec.startswith(("empty:", "full=")):
            arrays.append(name)
            cmd += ["--save", f"{name}={os.path.join(tmp, name + '.out.npy')}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return f"exit {r.returncode}: {' '.join(shlex.quote(c) for c in cmd)}\n{r.stdout}{r.stderr}"
    got = {n: np.load(os.path.join(tmp, n + ".out.npy")) for n in arrays}
    ns = {"np": np, "got": got}
    ns.update({n: v.astype(np.float64) if v.dtype != np.bool_ else v for n, v in inputs.items()})
    try:
        exec("\n".join(case["ref"]), ns)
    except AssertionError as e:
        return f"reference assertion failed: {e}"
    rtol, atol = case["tol"]
    for n in case["expect"]:
        want, have = np.asarray(ns[n], dtype=np.float64), got[n].astype(np.float64)
        if want.shape != have.shape:
            want = np.broadcast_to(want, have.shape)
        if not np.allclose(have, want, rtol=rtol, atol=atol, equal_nan=True):
            bad = np.argwhere(~np.isclose(have, want, rtol=rtol, atol=atol, equal_nan=True))
            i = tuple(bad[0])
            return f"{n}: {len(bad)} mismatches, first at {i}: got {have[i]}, want {want[i]}"
    return None


def main():
    tilevm = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    files = sys.argv[2:] or sorted(os.path.join(d, f) for d, _, fs in os.walk(here) for f in fs
                                   if f.endswith(".py") and f not in ("run_corpus.py", "list_diff.py"))
    seed = int(os.environ.get("CORPUS_SEED", np.random.SeedSequence().entropy % (2**32)))
    rng = np.random.default_rng(seed)
    ran = failed = 0
    kernel_files = 0
    for path in files:
        cs = cases(path)
        kernel_files += bool(cs)
        for i, case in enumerate(cs):
            with tempfile.TemporaryDirectory() as tmp:
                err = run_case(tilevm, path, case, rng, tmp)
            ran += 1
            if err:
                failed += 1
                print(f"FAIL {os.path.relpath(path, here)} case {i + 1}: {err}")
    print(f"corpus: {kernel_files} kernel files, {ran} cases, {failed} failed (CORPUS_SEED={seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

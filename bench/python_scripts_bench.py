# python_scripts_bench.py - on one machine's CPU: the Triton-style scripts of bench/scripts (torch
# CPU tensors, tutorial style) under Triton's interpreter (TRITON_INTERPRET=1 with the real
# triton) and under `python3 -m tilevm` (checks on, then off), in one run. Each script times its
# own kernel launches (common.py) and torch's CPU equivalent; whole-script wall time is measured
# here. Prints one table (markdown) last; writes python_scripts_bench.json to $OUT.
#   PYTHONPATH=<dir holding the tilevm package> OUT=dir python3 bench/python_scripts_bench.py
import json, os, re, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = ["vector_add", "fused_softmax", "softmax_f16", "layer_norm_f16", "matmul_f16", "attention_fwd"]
OUT = os.environ.get("OUT", ".")
TIMEOUT = int(os.environ.get("TRITON_TIMEOUT", "600"))


def run(cmd, env):
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT, cwd=os.path.join(HERE, "scripts"))
    except subprocess.TimeoutExpired:
        return dict(ok=False, wall_s=TIMEOUT, error=f"timeout after {TIMEOUT} s")
    wall = time.perf_counter() - t
    m = re.search(r"RESULT (\S+) launches=(\d+) launch_s=(\S+) first_s=(\S+) warm_s=(\S+) torch_s=(\S+) torch=(\S+)", p.stdout)
    if p.returncode != 0 or not m:
        tail = (p.stdout + p.stderr).strip().splitlines()[-3:]
        return dict(ok=False, wall_s=wall, error=" | ".join(tail)[-300:])
    return dict(ok=True, wall_s=wall, launches=int(m.group(2)), launch_s=float(m.group(3)), first_s=float(m.group(4)),
                per_launch_s=float(m.group(5)), torch_s=float(m.group(6)), torch_note=m.group(7).replace("_", " "))


rows = []
for s in SCRIPTS:
    path = os.path.join(HERE, "scripts", s + ".py")
    base = dict(os.environ)
    if base.get("PYTHONPATH"):  # the scripts run from their own folder
        base["PYTHONPATH"] = os.pathsep.join(os.path.abspath(x) for x in base["PYTHONPATH"].split(os.pathsep))
    triton_env = dict(base, TRITON_INTERPRET="1")
    triton_env.pop("PYTHONPATH", None)
    r_triton = run([sys.executable, path], triton_env)
    r_checked = run([sys.executable, "-m", "tilevm", path], base)
    r_fast = run([sys.executable, "-m", "tilevm", "--check", "none", path], base)
    rows.append(dict(script=s, triton=r_triton, tilevm=r_checked, tilevm_nochecks=r_fast))
    print(json.dumps(rows[-1]), flush=True)
json.dump(rows, open(os.path.join(OUT, "python_scripts_bench.json"), "w"), indent=1)

f = lambda r, k, fmt: fmt.format(r[k] * 1e3) if r.get("ok") else "—"
print("\n| script | Triton interp: warm launch ms | tilevm: warm launch ms (first, compiling) | tilevm, checks off | warm launch speedup | all launches: Triton interp / tilevm s | torch CPU ms | tilevm (checks off) / torch | wall s: Triton interp / tilevm |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    t, c, n = r["triton"], r["tilevm"], r["tilevm_nochecks"]
    speed = f"{t['per_launch_s'] / c['per_launch_s']:.0f}x" if t.get("ok") and c.get("ok") else ("Triton failed: " + t.get("error", "")[:80] if not t.get("ok") else "—")
    vs_torch = f"{n['per_launch_s'] / n['torch_s']:.1f}x ({n['torch_note']})" if n.get("ok") else "—"
    total = f"{t['launch_s']:.2f} / {c['launch_s']:.3f}" if t.get("ok") and c.get("ok") else "—"
    first = f" ({c['first_s'] * 1e3:.1f})" if c.get("ok") else ""
    print(f"| {r['script']} | {f(t, 'per_launch_s', '{:.1f}')} | {f(c, 'per_launch_s', '{:.2f}')}{first} | {f(n, 'per_launch_s', '{:.2f}')} | {speed} | "
          f"{total} | {f(n, 'torch_s', '{:.2f}')} | {vs_torch} | {t['wall_s']:.1f} / {c['wall_s']:.1f} |")

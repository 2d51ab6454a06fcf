#!/usr/bin/env python3
# interp_table.py OUT THREADS - the interpreter benchmark table: tilevm (checks off/on) beside
# Triton's interpreter and native torch from the same run, and plain C++ loops where they ran,
# as ratios.
import json, os, platform, sys

out, threads = sys.argv[1], sys.argv[2]
ours = json.load(open(os.path.join(out, "interp_bench.json")))
anchor_path = os.path.join(out, "triton_interp.json")
anchor = json.load(open(anchor_path)) if os.path.exists(anchor_path) else {}
cpu = platform.processor() or platform.machine()
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
native_path = os.path.join(out, "native.json")
native = json.load(open(native_path)) if os.path.exists(native_path) else {}
print(f"CPU: {cpu}, {threads} threads\n")
extra = " plain C++ loops (ms) | tilevm / C++ |" if native else ""
print("| kernel | tilevm checks off (ms) | checks on (ms) | on/off | Triton interp (ms) | speedup vs Triton interp | torch CPU (ms) | tilevm / torch |" + extra)
print("|---|---|---|---|---|---|---|---|" + ("---|---|" if native else ""))
for name, r in ours.items():
    off, on = r["tilevm_ms_checks_off"], r["tilevm_ms_checks_on"]
    a = anchor.get(name, {})
    t = a.get("s")
    torch_s = a.get("torch_cpu_s")
    tri = f"{t * 1e3:.1f}" if t else "n/a"
    speed = f"{t * 1e3 / off:.0f}x" if t else "n/a"
    torch_ms = f"{torch_s * 1e3:.3f}" if torch_s else "n/a"
    vs_torch = f"{off / (torch_s * 1e3):.1f}x" if torch_s else "n/a"
    row = f"| {name} | {off:.2f} | {on:.2f} | {on / off:.2f} | {tri} | {speed} | {torch_ms} | {vs_torch} |"
    if native:
        c = native.get(name, {}).get("native_s")
        row += f" {c * 1e3:.3f} | {off / (c * 1e3):.1f}x |" if c else " n/a | n/a |"
    print(row)

# gpu_bench.py - on the GPU machine: tilevm's GPU engine beside Triton and PyTorch in the same call,
# at the sizes of shared/design/ANCHORS.md (the memory-bound anchors the GPU engine lowers), each
# after a `tilevm diff` at that size. Times: Triton and torch by triton.testing.do_bench (median,
# L2 cleared before each launch); tilevm by `tilevm run --device cuda --repeat` (CUDA events,
# median of warm launches, L2 cleared before each the same way). Compile time: tilevm's IR to a
# loaded module beside Triton's cold compile (bench/anchors/triton_compile.py).
#   TILEVM=dist/tilevm OUT=dir python3 bench/gpu_bench.py
import json, os, subprocess, sys
import torch, triton
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "anchors"))
import triton_gpu_kernels as k  # noqa: E402
from gpu_common import Tilevm  # noqa: E402

TILEVM = os.environ.get("TILEVM", "dist/tilevm")
OUT = os.environ.get("OUT", ".")
REPS = int(os.environ.get("REPS", "101"))
rows = []


def med(fn):
    return do_bench(fn, warmup=50, rep=300, return_mode="median")

tilevm = Tilevm(TILEVM, OUT, "gpu_bench.log", REPS, log_chars=3000)
tilevm_ms = tilevm.ms

def bench(name, args, tol, gbytes, triton_fn, torch_fn):
    d = tilevm("diff", *args, *tol)
    verdict = "PASS" if d.returncode == 0 else f"FAIL({d.returncode})"
    t_ms, c_ms = tilevm_ms(args)
    tr_ms = med(triton_fn)
    to_ms = med(torch_fn)
    row = dict(kernel=name, diff=verdict, tilevm_ms=t_ms, triton_ms=tr_ms, torch_ms=to_ms, compile_ms=c_ms,
               tilevm_gbs=gbytes / (t_ms / 1e3) if t_ms else None, triton_gbs=gbytes / (tr_ms / 1e3),
               ratio=(tr_ms / t_ms) if t_ms else None)
    rows.append(row)
    print(json.dumps(row), flush=True)


dev = "cuda"
N = 1 << 28
x = torch.randn(N, device=dev); y = torch.randn(N, device=dev); o = torch.empty_like(x)
bench("vadd_f32_2^28", ["-k", "vadd_k", "-D", "BLOCK=1024", "--grid", str(N // 1024), "--arg", f"x=randn:f32:{N}",
                        "--arg", f"y=randn:f32:{N}", "--arg", f"o=empty:f32:{N}", "--arg", f"n={N}"], [], 3 * N * 4 / 1e9,
      lambda: k.vadd_k[(N // 1024,)](x, y, o, N, BLOCK=1024), lambda: torch.add(x, y, out=o))
del x, y, o
for (M, C) in [(4096, 4096), (32768, 1024), (8192, 16384)]:
    B = triton.next_power_of_2(C)
    nw = 4 if B < 2048 else (8 if B < 4096 else 16)
    x = torch.randn(M, C, device=dev); o = torch.empty_like(x)
    bench(f"softmax_f32_{M}x{C}", ["-k", "softmax_k", "-D", f"BLOCK={B}", "--num-warps", str(nw), "--grid", str(M),
                                   "--arg", f"out=empty:f32:{M}x{C}", "--arg", f"inp=randn:f32:{M}x{C}",
                                   "--arg", f"in_stride={C}", "--arg", f"out_stride={C}", "--arg", f"n_cols={C}"],
          [], 2 * M * C * 4 / 1e9,
          lambda: k.softmax_k[(M,)](o, x, x.stride(0), o.stride(0), C, BLOCK=B, num_warps=nw), lambda: torch.softmax(x, -1))
    del x, o
M, C = 4096, 8192
x = torch.randn(M, C, device=dev, dtype=torch.float16); o = torch.empty_like(x)
w = torch.rand(C, device=dev, dtype=torch.float16); b = torch.rand(C, device=dev, dtype=torch.float16)
bench(f"layernorm_f16_{M}x{C}", ["-k", "layernorm_k", "-D", f"BLOCK={C}", "--num-warps", "8", "--grid", str(M),
                                 "--arg", f"X=randn:f16:{M}x{C}", "--arg", f"Y=empty:f16:{M}x{C}", "--arg", f"W=rand:f16:{C}",
                                 "--arg", f"B=rand:f16:{C}", "--arg", f"stride={C}", "--arg", f"N={C}", "--arg", "eps=1e-5"],
      [], (2 * M * C + 2 * C) * 2 / 1e9,
      lambda: k.layernorm_k[(M,)](x, o, w, b, x.stride(0), C, 1e-5, BLOCK=C, num_warps=8),
      lambda: torch.nn.functional.layer_norm(x, (C,), w, b, 1e-5))

env = dict(os.environ, OUT=OUT)
subprocess.run([sys.executable, os.path.join(HERE, "anchors", "triton_compile.py")], env=env, capture_output=True)
try:
    tc = json.load(open(os.path.join(OUT, "triton_compile.json")))
except OSError:
    tc = {}
json.dump(dict(rows=rows, triton_compile_s=tc), open(os.path.join(OUT, "gpu_bench.json"), "w"), indent=1)

fmt = lambda v, f: "—" if v is None else f.format(v)
print("\n| kernel | diff | tilevm ms | Triton ms | torch ms | tilevm GB/s | Triton GB/s | tilevm/Triton bw | tilevm compile ms | Triton cold compile ms |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    base = r["kernel"].split("_")[0]
    print(f"| {r['kernel']} | {r['diff']} | {fmt(r['tilevm_ms'], '{:.3f}')} | {r['triton_ms']:.3f} | {r['torch_ms']:.3f} | "
          f"{fmt(r['tilevm_gbs'], '{:.0f}')} | {r['triton_gbs']:.0f} | {fmt(r['ratio'], '{:.2f}x')} | "
          f"{fmt(r['compile_ms'], '{:.1f}')} | {fmt(tc.get(base) and tc[base] * 1e3, '{:.0f}')} |")

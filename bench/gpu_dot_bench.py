# gpu_dot_bench.py - on the GPU machine: the tensor-core anchors (matmul f16/bf16 4096^3, flash
# attention fwd B4 H32 N4096 D64 f16, D128 too with ATTN_D=64,128; shared/design/ANCHORS.md)
# through tilevm's GPU engine beside Triton and cuBLAS/SDPA in the same call. Each kernel: `tilevm diff` at a smaller size first
# (interpreter vs GPU), then a sweep of tile configs under `tilevm run --device cuda --repeat`
# (CUDA events, L2 cleared before each launch, median), Triton's best config of the same sweep by
# triton.testing.do_bench, and torch (cuBLAS matmul, SDPA). TFLOP/s = 2MNK / t (matmul),
# 4 B H N^2 D / t (attention).
#   TILEVM=dist/tilevm OUT=dir python3 bench/gpu_dot_bench.py
import json, os, sys
import torch, triton
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "anchors"))
import triton_gpu_kernels as k  # noqa: E402
from gpu_common import Tilevm  # noqa: E402

TILEVM = os.environ.get("TILEVM", "dist/tilevm")
OUT = os.environ.get("OUT", ".")
REPS = os.environ.get("REPS", "21")
rows = []

tilevm = Tilevm(TILEVM, OUT, "gpu_dot_bench.log", REPS, log_chars=2000)
tilevm_ms = tilevm.ms

med = lambda f: do_bench(f, warmup=25, rep=200, return_mode="median")


def record(kernel, verdict, mine, theirs, ref_ms, ref, tflop):
    """One table row: `mine` = (ms, config, compile ms) of tilevm's best, `theirs` = (ms, config)
    of Triton's, `ref_ms` of the reference library, `tflop` the kernel's work in TFLOP."""
    (best, cfg_best, compile_ms), (tr_best, tr_cfg) = mine, theirs
    rows.append(dict(kernel=kernel, diff=verdict, tilevm_ms=best, tilevm_cfg=cfg_best, triton_ms=tr_best, triton_cfg=tr_cfg,
                     ref_ms=ref_ms, ref=ref, tilevm_tflops=tflop / (best / 1e3) if best else None,
                     triton_tflops=tflop / (tr_best / 1e3), ref_tflops=tflop / (ref_ms / 1e3) if ref_ms else None,
                     compile_ms=compile_ms))
    print(json.dumps(rows[-1]), flush=True)


def matmul_args(S, dt, BM, BN, BK, nw):
    t = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float8e4nv": "fp8e4nv", "float8e5": "fp8e5"}[dt]
    ct = "f16" if t.startswith("fp8") else t  # fp8 operands: an f16 result
    return ["-k", "matmul_k", "-D", f"BM={BM}", "-D", f"BN={BN}", "-D", f"BK={BK}", "-D", "GM=8", "--num-warps", str(nw),
            "--grid", str(triton.cdiv(S, BM) * triton.cdiv(S, BN)), "--arg", f"a=randn:{t}:{S}x{S}", "--arg", f"b=randn:{t}:{S}x{S}",
            "--arg", f"c=empty:{ct}:{S}x{S}", "--arg", f"M={S}", "--arg", f"N={S}", "--arg", f"K={S}", "--arg", f"sam={S}", "--arg", "sak=1",
            "--arg", f"sbk={S}", "--arg", "sbn=1", "--arg", f"scm={S}", "--arg", "scn=1"]


CONFIGS = [(128, 128, 32, 4), (128, 128, 64, 4), (128, 256, 64, 8), (64, 128, 64, 4), (128, 128, 32, 8)]
# tilevm: 1 = loads where they stand; 2+ on sm_90a = wgmma operands through a cp.async ring of
# that many stages (codegen/AsyncPipeline.cpp), elsewhere loads one iteration ahead (Pipeline.cpp).
STAGES = (1, 3)
# CONFIGS="BM,BN,BK,warps;..." and STAGES="1,3,4" select a part of the sweep.
if os.environ.get("CONFIGS"):
    CONFIGS = [tuple(int(x) for x in c.split(",")) for c in os.environ["CONFIGS"].split(";")]
if os.environ.get("STAGES"):
    STAGES = tuple(int(x) for x in os.environ["STAGES"].split(","))
TRITON_STAGES = int(os.environ.get("TRITON_STAGES", "3"))
# float32: tl.dot's default tf32 precision on both sides (tilevm: mma.m16n8k8.tf32; configs whose
# f32 tiles pass 48 KiB of shared memory are refused by tilevm and skipped). float8e4nv and
# float8e5: fp8 operands, an f16 result (the reference: torch._scaled_mm, unit scales). DTYPES
# and ATTN=0 select a part.
TORCH_DT = {"float8e4nv": "float8_e4m3fn", "float8e5": "float8_e5m2"}
SIZES = [int(x) for x in os.environ.get("SIZES", "4096").split(",")]
for dt, S in [(dt, S) for dt in os.environ.get("DTYPES", "float16,bfloat16,float32").split(",") if dt for S in SIZES]:
    verdicts = []  # every configuration timed is diffed first (at 512^3)
    best, cfg_best, compile_ms = None, None, None
    for cfg in CONFIGS:
        for ns in STAGES:
            d = tilevm("diff", *matmul_args(512, dt, *cfg), "--num-stages", str(ns))
            verdicts.append("PASS" if d.returncode == 0 else f"FAIL({cfg},{ns}:{d.returncode})")
            ms, c_ms = tilevm_ms(matmul_args(S, dt, *cfg) + ["--num-stages", str(ns)])
            print(f"tilevm matmul {dt} {cfg} stages {ns}: {ms} ms", flush=True)
            if ms and (best is None or ms < best):
                best, cfg_best, compile_ms = ms, cfg + (ns,), c_ms
    verdict = "PASS" if all(v == "PASS" for v in verdicts) else ",".join(v for v in verdicts if v != "PASS")
    fp8 = dt in TORCH_DT
    if fp8:
        a = torch.randn(S, S, device="cuda").to(getattr(torch, TORCH_DT[dt])); b = torch.randn(S, S, device="cuda").to(a.dtype)
        c = torch.empty(S, S, device="cuda", dtype=torch.float16)
    else:
        a = torch.randn(S, S, device="cuda", dtype=getattr(torch, dt)); b = torch.randn_like(a); c = torch.empty_like(a)
    tr_best, tr_cfg = None, None
    for BM, BN, BK, nw in CONFIGS:
        f = lambda: k.matmul_k[(triton.cdiv(S, BM) * triton.cdiv(S, BN),)](a, b, c, S, S, S, S, 1, S, 1, S, 1, BM=BM, BN=BN, BK=BK, GM=8,
                                                                            num_warps=nw, num_stages=TRITON_STAGES)
        try:
            ms = med(f)
        except Exception as e:  # f32 tiles past the GPU's shared memory (Triton: OutOfResources)
            print(f"triton matmul {dt} {(BM, BN, BK, nw)}: {type(e).__name__}", flush=True)
            continue
        if tr_best is None or ms < tr_best:
            tr_best, tr_cfg = ms, (BM, BN, BK, nw)
    torch.backends.cuda.matmul.allow_tf32 = dt == "float32"  # cuBLAS on tf32 tensor cores too
    if fp8:
        bt, one = b.t().contiguous().t(), torch.ones((), device="cuda")
        try:
            cub = med(lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=torch.float16))
        except (RuntimeError, ValueError) as e:  # cuBLAS has no e5m2 x e5m2
            print(f"torch._scaled_mm {dt}: {e}", flush=True)
            cub = None
    else:
        cub = med(lambda: torch.matmul(a, b))
    record(f"matmul_{dt}_{S}", verdict, (best, cfg_best, compile_ms), (tr_best, tr_cfg), cub, "cuBLAS", 2 * S ** 3 / 1e12)
    del a, b, c


def int8_args(S, BM, BN, BK, nw):
    return ["-k", "int8_matmul_k", "-D", f"BM={BM}", "-D", f"BN={BN}", "-D", f"BK={BK}", "--num-warps", str(nw),
            "--grid", f"{triton.cdiv(S, BM)},{triton.cdiv(S, BN)}", "--arg", f"a=randint:i8:{S}x{S}", "--arg", f"b=randint:i8:{S}x{S}",
            "--arg", f"c=empty:i32:{S}x{S}", "--arg", f"M={S}", "--arg", f"N={S}", "--arg", f"K={S}"]


# INT8=1: the W8A8-style int8 matmul (int8_matmul_k) beside Triton and torch._int_mm (cuBLAS);
# diffs at a size with partial tiles first. TOPS = 2 S^3 / t.
I8CFG = [(128, 128, 64, 4), (128, 256, 64, 8), (64, 128, 64, 4)]
for S in (SIZES if os.environ.get("INT8") == "1" else []):
    verdicts = []
    for cfg in I8CFG:
        d = tilevm("diff", *int8_args(520, *cfg))
        verdicts.append("PASS" if d.returncode == 0 else f"FAIL({d.returncode})")
    verdict = "PASS" if all(v == "PASS" for v in verdicts) else ",".join(verdicts)
    best, cfg_best, compile_ms = None, None, None
    for cfg in I8CFG:
        ms, c_ms = tilevm_ms(int8_args(S, *cfg))
        print(f"tilevm int8 matmul {cfg}: {ms} ms", flush=True)
        if ms and (best is None or ms < best):
            best, cfg_best, compile_ms = ms, cfg, c_ms
    a = torch.randint(-128, 128, (S, S), device="cuda", dtype=torch.int8); b = torch.randint_like(a, -128, 128)
    c = torch.empty(S, S, device="cuda", dtype=torch.int32)
    tr_best, tr_cfg = None, None
    for BM, BN, BK, nw in I8CFG:
        f = lambda: k.int8_matmul_k[(triton.cdiv(S, BM), triton.cdiv(S, BN))](a, b, c, S, S, S, BM=BM, BN=BN, BK=BK, num_warps=nw,
                                                                                num_stages=TRITON_STAGES)
        ms = med(f)
        if tr_best is None or ms < tr_best:
            tr_best, tr_cfg = ms, (BM, BN, BK, nw)
    ref = med(lambda: torch._int_mm(a, b))
    record(f"matmul_int8_{S}", verdict, (best, cfg_best, compile_ms), (tr_best, tr_cfg), ref, "cuBLAS int8", 2 * S ** 3 / 1e12)
    del a, b, c


def attn_args(BH, N, D, BM, BN, nw):
    return ["-k", "attn_k", "-D", f"N_CTX={N}", "-D", f"HEAD={D}", "-D", f"BM={BM}", "-D", f"BN={BN}", "--num-warps", str(nw),
            "--grid", f"{N // BM},{BH}", "--arg", f"Q=randn:f16:{BH}x{N}x{D}", "--arg", f"K=randn:f16:{BH}x{N}x{D}",
            "--arg", f"V=randn:f16:{BH}x{N}x{D}", "--arg", f"O=empty:f16:{BH}x{N}x{D}", "--arg", f"sm_scale={D ** -0.5}"]


# ATTN_D="64,128": the head dims (ANCHORS.md's two attention anchors).
for D in ([int(x) for x in os.environ.get("ATTN_D", "64").split(",")] if os.environ.get("ATTN", "1") == "1" else []):
    B, H, N = 4, 32, 4096
    best, cfg_best, compile_ms = None, None, None
    ACFG = [(128, 64, 8), (128, 64, 4), (64, 64, 4)]
    if os.environ.get("ACFG"):
        ACFG = [tuple(int(x) for x in c.split(",")) for c in os.environ["ACFG"].split(";")]
    verdicts = []  # every configuration timed is diffed first
    for cfg in ACFG:
        for ns in STAGES:
            d = tilevm("diff", *attn_args(2, 512, D, *cfg), "--num-stages", str(ns))
            verdicts.append("PASS" if d.returncode == 0 else f"FAIL({cfg},{ns}:{d.returncode})")
            ms, c_ms = tilevm_ms(attn_args(B * H, N, D, *cfg) + ["--num-stages", str(ns)])
            print(f"tilevm attn {cfg} stages {ns}: {ms} ms", flush=True)
            if ms and (best is None or ms < best):
                best, cfg_best, compile_ms = ms, cfg + (ns,), c_ms
    verdict = "PASS" if all(v == "PASS" for v in verdicts) else ",".join(v for v in verdicts if v != "PASS")
    q = torch.randn(B * H, N, D, device="cuda", dtype=torch.float16); kk = torch.randn_like(q); v = torch.randn_like(q); o = torch.empty_like(q)
    tr_best, tr_cfg = None, None
    for BM, BN, nw in ACFG:
        ms = med(lambda: k.attn_k[(N // BM, B * H)](q, kk, v, o, D ** -0.5, N, HEAD=D, BM=BM, BN=BN, num_warps=nw, num_stages=3))
        if tr_best is None or ms < tr_best:
            tr_best, tr_cfg = ms, (BM, BN, nw)
    q4, k4, v4 = (t.view(B, H, N, D) for t in (q, kk, v))
    sdpa = med(lambda: torch.nn.functional.scaled_dot_product_attention(q4, k4, v4))
    record(f"attn_f16_b{B}h{H}n{N}d{D}", verdict, (best, cfg_best, compile_ms), (tr_best, tr_cfg), sdpa, "SDPA",
           4 * B * H * N * N * D / 1e12)

json.dump(rows, open(os.path.join(OUT, "gpu_dot_bench.json"), "w"), indent=1)
fmt = lambda v, f: "—" if v is None else f.format(v)
print("\n| kernel | diff | tilevm ms (config) | Triton ms (config) | ref ms | tilevm TFLOP/s | Triton TFLOP/s | ref TFLOP/s | tilevm/Triton | tilevm compile ms |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r['kernel']} | {r['diff']} | {fmt(r['tilevm_ms'], '{:.3f}')} {r['tilevm_cfg']} | {r['triton_ms']:.3f} {r['triton_cfg']} | "
          f"{fmt(r['ref_ms'], '{:.3f}')} ({r['ref']}) | {fmt(r['tilevm_tflops'], '{:.0f}')} | {r['triton_tflops']:.0f} | {fmt(r['ref_tflops'], '{:.0f}')} | "
          f"{fmt(r['tilevm_tflops'] and r['tilevm_tflops'] / r['triton_tflops'], '{:.2f}x')} | {fmt(r['compile_ms'], '{:.1f}')} |")

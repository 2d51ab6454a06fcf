# triton_dump.py - on the GPU machine: Triton's own compiled code for the anchor kernels (PTX, TTGIR,
# registers, spills) and tilevm's PTX of the same kernels beside it, to read side by side when a
# tilevm kernel trails Triton. Also a num-warps sweep of layer norm on both engines (timings).
#   TILEVM=dist/tilevm OUT=dir python3 bench/triton_dump.py
import os, sys, json
import torch, triton
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "anchors"))
import triton_gpu_kernels as k  # noqa: E402
from gpu_common import Tilevm  # noqa: E402

OUT = os.environ.get("OUT", ".")
tilevm = Tilevm(os.environ.get("TILEVM", "dist/tilevm"), OUT, "triton_dump.log", 101)


def dump(name, handle, ptx_args):
    for kind in ("ptx", "ttgir"):
        with open(os.path.join(OUT, f"triton_{name}.{kind}"), "w") as f:
            f.write(handle.asm[kind])
    i = ptx_args.index("--grid") if "--grid" in ptx_args else None
    ptx_args = ptx_args if i is None else ptx_args[:i] + ptx_args[i + 2:]  # ptx takes no grid
    tilevm("ptx", *ptx_args, "-o", os.path.join(OUT, f"tilevm_{name}.ptx"))
    print(f"{name}: Triton registers {handle.n_regs}, spills {handle.n_spills}, shared {handle.metadata.shared}")


dev = "cuda"
M, C = 4096, 8192
x = torch.randn(M, C, device=dev, dtype=torch.float16); o = torch.empty_like(x)
w = torch.rand(C, device=dev, dtype=torch.float16); b = torch.rand(C, device=dev, dtype=torch.float16)
ln_args = ["-k", "layernorm_k", "-D", f"BLOCK={C}", "--grid", str(M), "--arg", f"X=randn:f16:{M}x{C}",
           "--arg", f"Y=empty:f16:{M}x{C}", "--arg", f"W=rand:f16:{C}", "--arg", f"B=rand:f16:{C}",
           "--arg", f"stride={C}", "--arg", f"N={C}", "--arg", "eps=1e-5"]
rows = []
for nw in (4, 8, 16):
    h = k.layernorm_k[(M,)](x, o, w, b, x.stride(0), C, 1e-5, BLOCK=C, num_warps=nw)
    dump(f"layernorm_nw{nw}", h, ln_args + ["--num-warps", str(nw)])
    tr = do_bench(lambda: k.layernorm_k[(M,)](x, o, w, b, x.stride(0), C, 1e-5, BLOCK=C, num_warps=nw),
                  warmup=50, rep=300, return_mode="median")
    tv, _ = tilevm.ms(ln_args + ["--num-warps", str(nw)])
    rows.append((f"layernorm nw{nw}", tv, tr))
del x, o
M, C = 8192, 16384
x = torch.randn(M, C, device=dev); o = torch.empty_like(x)
h = k.softmax_k[(M,)](o, x, x.stride(0), o.stride(0), C, BLOCK=C, num_warps=16)
dump("softmax16384", h, ["-k", "softmax_k", "-D", f"BLOCK={C}", "--num-warps", "16"])
del x, o
S = 512
a = torch.randn(S, S, device=dev, dtype=torch.float16); bb = torch.randn(S, S, device=dev, dtype=torch.float16)
c = torch.empty(S, S, device=dev, dtype=torch.float16)
h = k.matmul_k[(16,)](a, bb, c, S, S, S, S, 1, S, 1, S, 1, BM=128, BN=256, BK=64, GM=8, num_warps=8, num_stages=3)
dump("matmul", h, ["-k", "matmul_k", "-D", "BM=128", "-D", "BN=256", "-D", "BK=64", "-D", "GM=8", "--num-warps", "8"])
q = torch.randn(1, 512, 64, device=dev, dtype=torch.float16); ov = torch.empty_like(q)
h = k.attn_k[(4, 1)](q, q, q, ov, 0.125, 512, HEAD=64, BM=128, BN=64, num_warps=8, num_stages=3)
dump("attn", h, ["-k", "attn_k", "-D", "N_CTX=512", "-D", "HEAD=64", "-D", "BM=128", "-D", "BN=64", "--num-warps", "8"])
print("\n| kernel | tilevm ms | Triton ms | ratio |\n|---|---|---|---|")
for n, tv, tr in rows:
    print(f"| {n} | {tv if tv is None else round(tv, 4)} | {tr:.4f} | {'—' if tv is None else f'{tr / tv:.2f}x'} |")

# attn_sass.py - on the GPU machine: the attention anchor's machine code from Triton and from
# tilevm side by side (SASS by cuobjdump, static opcode counts of the whole kernel), to find
# where tilevm issues more instructions. Writes triton_attn.{ptx,sass}, tilevm_attn.{ptx,sass}
# under $OUT and prints a table of the opcodes whose counts differ.
#   TILEVM=dist/tilevm OUT=dir D=64 python3 bench/attn_sass.py
import collections, os, re, subprocess, sys
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "anchors"))
import triton_gpu_kernels as k  # noqa: E402

OUT = os.environ.get("OUT", ".")
TILEVM = os.environ.get("TILEVM", "dist/tilevm")
D = int(os.environ.get("D", "64"))
N, BM, BN, NW = 1024, 128, 64, 8


def sass(cubin):
    return subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True, check=True).stdout


def histogram(text):
    """Opcode counts, predicates dropped and modifiers kept (FFMA.FTZ apart from FFMA)."""
    counts = collections.Counter()
    for line in text.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m:
            counts[m.group(1)] += 1
    return counts


q = torch.randn(1, N, D, device="cuda", dtype=torch.float16)
o = torch.empty_like(q)
h = k.attn_k[(N // BM, 1)](q, q, q, o, D ** -0.5, N, HEAD=D, BM=BM, BN=BN, num_warps=NW, num_stages=3)
paths = {}
with open(os.path.join(OUT, "triton_attn.ptx"), "w") as f:
    f.write(h.asm["ptx"])
paths["triton"] = os.path.join(OUT, "triton_attn.cubin")
with open(paths["triton"], "wb") as f:
    f.write(h.asm["cubin"])
ptx = os.path.join(OUT, "tilevm_attn.ptx")
subprocess.run([TILEVM, "ptx", os.path.join(HERE, "anchors", "triton_gpu_kernels.py"), "-k", "attn_k", "-D", f"N_CTX={N}",
                "-D", f"HEAD={D}", "-D", f"BM={BM}", "-D", f"BN={BN}", "--num-warps", str(NW), "--num-stages", "3",
                "--arg", f"Q=randn:f16:1x{N}x{D}", "--arg", f"K=randn:f16:1x{N}x{D}", "--arg", f"V=randn:f16:1x{N}x{D}",
                "--arg", f"O=empty:f16:1x{N}x{D}", "--arg", f"sm_scale={D ** -0.5}", "-o", ptx], check=True)
paths["tilevm"] = os.path.join(OUT, "tilevm_attn.cubin")
subprocess.run(["ptxas", "-arch=sm_90a", "-v", ptx, "-o", paths["tilevm"]], check=True)
hist = {}
for name, cubin in paths.items():
    text = sass(cubin)
    with open(os.path.join(OUT, f"{name}_attn.sass"), "w") as f:
        f.write(text)
    hist[name] = histogram(text)
print(f"Triton registers {h.n_regs}, spills {h.n_spills}")
print(f"| opcode (D={D}) | tilevm | Triton |\n|---|---|---|")
for op in sorted(set(hist["tilevm"]) | set(hist["triton"]), key=lambda o: -(hist["tilevm"][o] + hist["triton"][o])):
    if hist["tilevm"][op] != hist["triton"][op]:
        print(f"| {op} | {hist['tilevm'][op]} | {hist['triton'][op]} |")
print(f"| total | {sum(hist['tilevm'].values())} | {sum(hist['triton'].values())} |")

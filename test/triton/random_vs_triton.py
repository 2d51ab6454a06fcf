# random_vs_triton.py TILEVM - tl.randint / tl.rand / tl.randn in tilevm against Triton itself
# (its interpreter, so no GPU is needed) for a few seeds: run where Triton is installed (the GPU
# machine). Prints one line per seed and exits 1 on a mismatch.
import os, subprocess, sys, tempfile
os.environ["TRITON_INTERPRET"] = "1"
import numpy as np, torch, triton, triton.language as tl

KERNEL = '''
import triton
import triton.language as tl

@triton.jit
def rng(ri, ru, rn, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ri + offs, tl.randint(seed, offs))
    tl.store(ru + offs, tl.rand(seed, offs))
    tl.store(rn + offs, tl.randn(seed, offs))
'''

tilevm = sys.argv[1]
tmp = tempfile.mkdtemp()
src = os.path.join(tmp, "rng.py")
open(src, "w").write(KERNEL)
# One kernel file for both: Triton imports it, tilevm compiles it.
import importlib.util
spec = importlib.util.spec_from_file_location("rng_kernel", src)
kernel_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel_module)
rng = kernel_module.rng
ok = True
for seed in [0, 42, 123456789, -7]:
    n = 256
    ri = torch.zeros(n, dtype=torch.int32); ru = torch.zeros(n); rn = torch.zeros(n)
    rng[(n // 64,)](ri, ru, rn, seed, BLOCK=64)
    subprocess.run([tilevm, "run", src, "-k", "rng", "--grid", str(n // 64), "-D", "BLOCK=64",
                    "--arg", f"ri=zeros:i32:{n}", "--arg", f"ru=zeros:f32:{n}", "--arg", f"rn=zeros:f32:{n}",
                    "--arg", f"seed={seed}", "--save", f"ri={tmp}/ri.npy", "--save", f"ru={tmp}/ru.npy",
                    "--save", f"rn={tmp}/rn.npy", "-q"], check=True)
    ti, tu, tn = np.load(f"{tmp}/ri.npy"), np.load(f"{tmp}/ru.npy"), np.load(f"{tmp}/rn.npy")
    same_i = np.array_equal(ti, ri.numpy())
    same_u = np.array_equal(tu, ru.numpy())
    err_n = float(np.abs(tn - rn.numpy()).max())
    print(f"seed {seed}: randint identical {same_i}, rand identical {same_u}, randn max |diff| {err_n:.2e}")
    ok &= same_i and same_u and err_n < 1e-5
print("random_vs_triton:", "ok" if ok else "MISMATCH")
sys.exit(0 if ok else 1)

# tutorial08_configs.py TUTORIAL_08_PATH [M] - every autotune configuration of Triton's grouped-GEMM
# tutorial timed alone at the tutorial's second benchmark shape (four problems of M x 8192 x 8192,
# M default 1024), after the tutorial's own correctness checks (whose autotuning picks the
# configuration its tables use; printed). Run as `python3` (real Triton) and as `python3 -m tilevm
# --device cuda` in the same call; one line per configuration: engine, kernel, config, ms.
import os
import sys
import tempfile

import torch
import triton

engine = "tilevm" if "tilevm" in sys.modules else "triton"
source = open(sys.argv[1]).read()
cut = source.index("benchmark_square_matrices.run(")  # the tables: not run here
with tempfile.NamedTemporaryFile("w", suffix="_tutorial08.py", delete=False) as f:
    f.write(source[:cut])
sys.path.insert(0, os.path.dirname(f.name))
tut = __import__(os.path.basename(f.name)[:-3])  # runs the tutorial's checks (and its autotuning)
for kernel in (tut.grouped_matmul_kernel, tut.grouped_matmul_tma_kernel):
    print(f"{engine} {kernel.fn.__name__}: the tutorial's autotuner chose {kernel.best_config}", flush=True)

M, N, K, G = int(sys.argv[2]) if len(sys.argv) > 2 else 1024, 8192, 8192, 4
a = [torch.rand((M, K), device="cuda", dtype=torch.float16) for _ in range(G)]
b = [torch.rand((K, N), device="cuda", dtype=torch.float16) for _ in range(G)]
bt = [x.T.contiguous() for x in b]
c = [torch.empty((M, N), device="cuda", dtype=torch.float16) for _ in range(G)]
ptrs = lambda ts: torch.tensor([t.data_ptr() for t in ts], device="cuda")  # noqa: E731
sizes = torch.tensor([M, N, K] * G, dtype=torch.int32, device="cuda")
lds = torch.tensor([K, N, N] * G, dtype=torch.int32, device="cuda")
lds_t = torch.tensor([K, K, N] * G, dtype=torch.int32, device="cuda")
ref = [x.float() @ y.float() for x, y in zip(a, b)]
a_ptrs, c_ptrs = ptrs(a), ptrs(c)
cases = [(tut.grouped_matmul_kernel, ptrs(b), lds, {}), (tut.grouped_matmul_tma_kernel, ptrs(bt), lds_t,
                                                          {"FP8": False, "NUM_SM": tut.num_sms()})]
for kernel, b_ptrs, ld, extra in cases:
    for cfg in kernel.configs:
        meta = {**cfg.kwargs, **extra}
        grid = (meta["NUM_SM"], )
        run = lambda: kernel.fn[grid](a_ptrs, b_ptrs, c_ptrs, sizes, ld, G, **meta,  # noqa: E731
                                      num_warps=cfg.num_warps, num_stages=cfg.num_stages)
        try:
            run()
        except Exception as e:  # Triton's OutOfResources at launch: the configuration cannot run here
            print(f"{engine} {kernel.fn.__name__} {cfg}: cannot run ({type(e).__name__}: {str(e)[:120]})", flush=True)
            continue
        err = max((x.float() - r).abs().max().item() / r.abs().max().item() for x, r in zip(c, ref))
        ms = triton.testing.do_bench(run)
        print(f"{engine} {kernel.fn.__name__} {cfg}: {ms:.3f} ms (max rel err {err:.1e})", flush=True)

"""attention_lse_error.py PATH/06-fused-attention.py - how far Triton's tutorial 06 forward's saved
row statistic M (the log2-sum-exp of each query row's scores, m_i + log2(l_i)) lies from float64,
on whatever engine runs it: plain `python3` (Triton on the GPU) or `python3 -m tilevm` (the
interpreter on the CPU). Same seeded inputs on both; prints the error in float32 ulps of M."""
import math
import runpy
import sys

import torch

import triton

if not hasattr(torch, "float8_e5m2"):  # torch before 2.1: the tutorial only compares against it
    torch.float8_e5m2 = object()
tutorial = runpy.run_path(sys.argv[1], run_name="tutorial")
device = triton.runtime.driver.active.get_active_torch_device()
torch.manual_seed(0)
Z, H, N, D, sm_scale = 1, 2, 128, 64, 0.5
q, k, v = (torch.empty(Z, H, N, D).normal_(0.0, 0.5).half() for _ in range(3))
ref = (q.double() @ k.double().transpose(-1, -2) * sm_scale).logsumexp(-1) / math.log(2)
qd, kd, vd = (t.to(device).requires_grad_() for t in (q, k, v))
o = tutorial["attention"](qd, kd, vd, False, sm_scale, False)
M = o.grad_fn.saved_tensors[4].detach().double().cpu()
ulp = torch.from_numpy(__import__("numpy").spacing(M.float().numpy()).astype("float64"))
err = (M - ref).abs() / ulp
print(f"{device}: M[0, 0, 0] = {float(M[0, 0, 0]):.9g}, float64 {float(ref[0, 0, 0]):.9g}")
print(f"{device}: M against float64: max {err.max():.1f} ulp, mean {err.mean():.1f} ulp "
      f"(max abs {float((M - ref).abs().max()):.3g}; M {float(M.min()):.3f}..{float(M.max()):.3f})")

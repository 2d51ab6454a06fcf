"""tutorial05_check.py - run in tutorial 05's globals by `bench/profile_tutorial.py
05-layer-norm.py @bench/tutorial05_check.py`: the tutorial's own check (test_layer_norm at
1151 x 8192 f16, inputs drawn as it draws them, unseeded there) repeated on seeds 0..SEEDS-1,
printing each gradient's largest difference from torch's and whether the tutorial's atol=1e-2
assert would pass: how often the check passes by construction, on any engine. DEVICE (default
cuda; cpu for the interpreters: tilevm's, or Triton's under TRITON_INTERPRET=1) picks where the
tensors live; GEN (default DEVICE) where the inputs are drawn (GEN=cpu DEVICE=cuda runs the GPU
on the data a CPU run sees). SEEDS is a count (seeds 0..SEEDS-1) or a list (`default,0,1`;
`default` is torch's own initial CPU seed, the data the unseeded tutorial draws on the CPU).
Each seed's line ends with db's largest error against the float64 sum of dy, the same for
torch's db, and a digest of db's bits, so two engines' logs show whether they computed the same db.
"""
import hashlib
import os

import torch

M, N, dtype = 1151, 8192, torch.float16
fails = 0
DEVICE = os.environ.get("DEVICE", "cuda")
GEN = os.environ.get("GEN", DEVICE)
SEEDS = os.environ.get("SEEDS", "8")
seed_list = list(range(int(SEEDS))) if SEEDS.isdigit() else SEEDS.split(",")
seeds = len(seed_list)
for seed in seed_list:
    torch.manual_seed(67280421310721 if seed == "default" else int(seed))
    w = torch.rand((N, ), dtype=dtype, device=GEN).to(DEVICE).requires_grad_(True)
    b = torch.rand((N, ), dtype=dtype, device=GEN).to(DEVICE).requires_grad_(True)
    x = (-2.3 + 0.5 * torch.randn((M, N), dtype=dtype, device=GEN)).to(DEVICE)
    dy = (.1 * torch.randn_like(x, device=GEN)).to(DEVICE)
    x.requires_grad_(True)
    y_tri = layer_norm(x, (N, ), w, b, 1e-5)  # noqa: F821 (the tutorial's)
    y_ref = torch.nn.functional.layer_norm(x, (N, ), w, b, 1e-5).to(dtype)
    y_tri.backward(dy, retain_graph=True)
    tri = [t.grad.clone() for t in (x, w, b)]
    x.grad, w.grad, b.grad = None, None, None
    y_ref.backward(dy, retain_graph=True)
    ref = [t.grad.clone() for t in (x, w, b)]
    err = {"y": (y_tri - y_ref).abs().max().item()}
    err.update({k: (t - r).float().abs().max().item() for k, t, r in zip(("dx", "dw", "db"), tri, ref)})
    ok = all(v <= 1e-2 for v in err.values())
    fails += not ok
    exact = dy.double().sum(0)
    exact_err = [(t.double() - exact).abs().max().item() for t in (tri[2], ref[2])]
    digest = hashlib.sha1(tri[2].detach().cpu().numpy().tobytes()).hexdigest()[:12]
    print(f"seed {seed}: " + " ".join(f"{k} {v:.4f}" for k, v in err.items()) + ("" if ok else "  (assert fails)")
          + f"  db vs float64: kernel {exact_err[0]:.4f}, torch {exact_err[1]:.4f}  db {digest}")
print(f"RESULT tutorial 05 check: {seeds - fails} of {seeds} seeds pass atol=1e-2")

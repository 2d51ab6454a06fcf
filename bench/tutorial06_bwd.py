# tutorial06_bwd.py TUTORIAL_06_PATH [N_CTX ...] - the backward of Triton's fused-attention
# tutorial (its own `attention`, whose backward kernels run at the tutorial's fixed configuration)
# at batch 4, 32 heads, head dims 64 and 128, causal and not: first dQ, dK and dV compared with
# torch's SDPA backward (the tutorial's test_op inputs; a max error past 5e-2 is reported), then
# `o.backward(do)` timed as the tutorial's benchmark times it. Run as `python3` (real Triton) and
# as `python3 -m tilevm --device cuda` in the same call; one line per shape: engine, shape,
# milliseconds, TFLOP/s (the tutorial's count: 2.5 times the forward's, causal half).
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tutorial06_common import B, ENGINE as engine, H, load, shapes  # noqa: E402

tut = load(sys.argv[1])
for n_ctx, head, causal in shapes(sys.argv[2:]):
    torch.manual_seed(20)
    q, k, v = (torch.empty((B, H, n_ctx, head), dtype=torch.float16, device="cuda").normal_(0.0, 0.5).requires_grad_()
               for _ in range(3))
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5)
    do = torch.randn_like(ref)
    ref.backward(do)
    want = [t.grad.clone() for t in (q, k, v)]
    for t in (q, k, v):
        t.grad = None
    out = tut.attention(q, k, v, causal, 0.5, False)
    out.backward(do, retain_graph=True)  # timed again below
    errs = [(t.grad.float() - w.float()).abs().max().item() for t, w in zip((q, k, v), want)]
    verdict = "check ok" if max(errs) < 5e-2 else "CHECK FAILED"  # reported, so the other shapes still run
    ms = triton.testing.do_bench(lambda: out.backward(do, retain_graph=True))
    flops = 2.5 * 4 * B * H * n_ctx * n_ctx * head * (0.5 if causal else 1.0)
    print(f"{engine} bwd N={n_ctx} D={head} causal={causal}: {ms:.3f} ms {flops / ms / 1e9:.0f} TFLOP/s "
          f"({verdict}: max err dq {errs[0]:.4f} dk {errs[1]:.4f} dv {errs[2]:.4f})", flush=True)

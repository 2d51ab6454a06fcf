# tutorial06_fwd.py TUTORIAL_06_PATH [N_CTX ...] - the forward of Triton's fused-attention tutorial
# (its own `attention`, autotuned as the tutorial sets it up), timed at batch 4, 32 heads, head
# dims 64 and 128, causal and not, after a check against torch's SDPA. Run as `python3` (real
# Triton) and as `python3 -m tilevm --device cuda` (tilevm's GPU engine) in the same call; one
# line per shape: engine, shape, milliseconds, TFLOP/s (causal counts half the products).
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tutorial06_common import B, ENGINE as engine, H, load, shapes  # noqa: E402

tut = load(sys.argv[1])
for n_ctx, head, causal in shapes(sys.argv[2:]):
    torch.manual_seed(0)
    q, k, v = (torch.randn(B, H, n_ctx, head, device="cuda", dtype=torch.float16) for _ in range(3))
    scale = head ** -0.5
    out = tut.attention(q, k, v, causal, scale, False)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
    err = (out.float() - ref.float()).abs().max().item()
    assert err < 2e-2, (engine, n_ctx, head, causal, err)
    ms = triton.testing.do_bench(lambda: tut.attention(q, k, v, causal, scale, False))
    flops = 4 * B * H * n_ctx * n_ctx * head * (0.5 if causal else 1.0)
    cfg = tut._attn_fwd.best_config  # what each engine's autotuner chose
    picked = f"{cfg.kwargs.get('BLOCK_M')}x{cfg.kwargs.get('BLOCK_N')} w{cfg.num_warps} s{cfg.num_stages}" if cfg else "?"
    print(f"{engine} fwd N={n_ctx} D={head} causal={causal}: {ms:.3f} ms {flops / ms / 1e9:.0f} TFLOP/s "
          f"(max err {err:.4f}; config {picked})", flush=True)

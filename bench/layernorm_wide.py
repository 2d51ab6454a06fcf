"""layernorm_wide.py - run in tutorial 05's globals by `bench/profile_tutorial.py
05-layer-norm.py @bench/layernorm_wide.py`: its forward kernel launched directly, as the
tutorial's `layer_norm` launches it, at the benchmark's wide rows (M 4096, N from NS, default
8192,12288,15872; BLOCK_SIZE 16384 past 8192), timed with do_bench; one RESULT line per N in GB/s
as the tutorial counts them. Under real Triton it also prints the compiled kernel's registers and
spills and writes its PTX and cubin to $OUT/triton_layer_norm_fwd_N.{ptx,cubin}. Run under real Triton and under
`python3 -m tilevm --device cuda` in the same call (and under ncu: one launch per N after the
timing; TIMING=0 skips do_bench, so ncu's launches are the two per N)."""
import os

import torch
import triton

M = 4096
for N in [int(n) for n in os.environ.get("NS", "8192,12288,15872").split(",")]:
    x = -2.3 + 0.5 * torch.randn(M, N, device="cuda", dtype=torch.float16)
    w = torch.rand(N, device="cuda", dtype=torch.float16)
    b = torch.rand(N, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty((M, ), dtype=torch.float32, device="cuda")
    rstd = torch.empty((M, ), dtype=torch.float32, device="cuda")
    BLOCK_SIZE = min(65536 // x.element_size(), triton.next_power_of_2(N))
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)

    def launch():
        return _layer_norm_fwd_fused[(M, )](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,  # noqa: F821
                                            BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1)

    k = launch()
    ref = torch.nn.functional.layer_norm(x.float(), (N, ), w.float(), b.float(), 1e-5)
    err = (y.float() - ref).abs().max().item()
    ms = triton.testing.do_bench(launch) if os.environ.get("TIMING", "1") == "1" else float("nan")
    gbps = 2 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
    extra = ""
    if hasattr(k, "n_regs"):
        extra = f" registers {k.n_regs} spills {k.n_spills}"
        with open(os.path.join(os.environ.get("OUT", "."), f"triton_layer_norm_fwd_{N}.ptx"), "w") as f:
            f.write(k.asm["ptx"])
        with open(os.path.join(os.environ.get("OUT", "."), f"triton_layer_norm_fwd_{N}.cubin"), "wb") as f:
            f.write(k.asm["cubin"])
    print(f"RESULT N={N} BLOCK_SIZE={BLOCK_SIZE} warps={num_warps}: {ms * 1e3:.1f} us {gbps:.0f} GB/s "
          f"max error {err:.4f}{extra}", flush=True)
    launch()  # the launch ncu profiles (after do_bench's)
    torch.cuda.synchronize()

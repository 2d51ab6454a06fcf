"""tutorial05_backward.py - run in tutorial 05's globals by `bench/profile_tutorial.py
05-layer-norm.py @bench/tutorial05_backward.py`: its backward pass at the benchmark's largest
size (4096 x 15872 f16), timed three ways beside each other: the host's time to enqueue one
backward (autograd, allocations, both launches), do_bench of the backward as the tutorial's
benchmark calls it, and do_bench of the forward. One RESULT line."""
import time

import torch
import triton

M, N = 4096, 15872
x = (-2.3 + 0.5 * torch.randn(M, N, device="cuda", dtype=torch.float16)).requires_grad_(True)
w = torch.rand(N, device="cuda", dtype=torch.float16, requires_grad=True)
b = torch.rand(N, device="cuda", dtype=torch.float16, requires_grad=True)
y = layer_norm(x, (N,), w, b, 1e-5)  # noqa: F821 (the tutorial's)
dy = torch.randn_like(y)
for _ in range(5):
    y.backward(dy, retain_graph=True)
torch.cuda.synchronize()
host = []
for _ in range(30):
    t = time.perf_counter()
    y.backward(dy, retain_graph=True)
    host.append((time.perf_counter() - t) * 1e6)
    torch.cuda.synchronize()
host.sort()
bwd = triton.testing.do_bench(lambda: y.backward(dy, retain_graph=True), grad_to_none=[x], quantiles=[0.5, 0.2, 0.8])
fwd = triton.testing.do_bench(lambda: layer_norm(x, (N,), w, b, 1e-5), quantiles=[0.5, 0.2, 0.8])  # noqa: F821
print(f"RESULT backward: host enqueue median {host[15]:.1f} us (min {host[0]:.1f}); do_bench {[round(v, 4) for v in bwd]} ms; "
      f"forward do_bench {[round(v, 4) for v in fwd]} ms")

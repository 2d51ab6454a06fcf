# Triton's combine rewrites, which its GPU results show, on tilevm's engines: a 3-D product
# summed over K (test_core.py's test_dot_mulbroadcasted in its style) is a tf32 dot, and its
# `acc = t + acc` accumulates into that dot; `acc += tl.dot(a, b)` in a loop likewise. Results
# against float64 NumPy at tf32's tolerance.
import numpy as np
import torch

import triton
import triton.language as tl


@triton.jit
def mulbroadcast(Z, X, Y, K: tl.constexpr, N: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pidn = tl.program_id(1)
    pidm = tl.program_id(0)
    offm = tl.arange(0, BM)[:, None]
    offn = tl.arange(0, BN)[None, :]
    offak = tl.arange(0, BK)[None, :]
    offbk = tl.arange(0, BK)[:, None]
    acc = tl.full((BM, BN), 0.0, tl.float32)
    for k in range(0, K // BK):
        x = tl.load(X + ((pidm * K * BM) + (offm * K) + (k * BK) + offak))
        y = tl.load(Y + ((pidn * BN) + (offbk * N) + (k * N * BK) + offn))
        t = tl.sum(tl.expand_dims(x, axis=2) * tl.expand_dims(y, axis=0), axis=1)
        acc = t + acc
    tl.store(Z + ((pidm * BM * N) + (pidn * BN) + (offm * N) + offn), acc)


@triton.jit
def accumulate(Z, X, Y, K: tl.constexpr, N: tl.constexpr, BK: tl.constexpr):
    offm = tl.program_id(0) * 64 + tl.arange(0, 64)
    offn = tl.arange(0, N)
    offk = tl.arange(0, BK)
    acc = tl.zeros((64, N), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(X + offm[:, None] * K + (k + offk)[None, :])
        b = tl.load(Y + (k + offk)[:, None] * N + offn[None, :])
        acc += tl.dot(a, b)
    tl.store(Z + offm[:, None] * N + offn[None, :], acc)


dev = triton.runtime.driver.active.get_active_torch_device()
rng = np.random.default_rng()
M, N, K = 256, 192, 160
x = (rng.standard_normal((M, K)) * 0.1).astype(np.float32)
y = (rng.standard_normal((K, N)) * 0.1).astype(np.float32)
z = torch.zeros((M, N), dtype=torch.float32, device=dev)
mulbroadcast[(M // 128, N // 32)](z, torch.from_numpy(x).to(dev), torch.from_numpy(y).to(dev), K, N, 128, 32, 32)
np.testing.assert_allclose(z.cpu().numpy(), x.astype(np.float64) @ y.astype(np.float64), atol=0.01)

a = rng.standard_normal((128, 256)).astype(np.float16)
b = rng.standard_normal((256, 64)).astype(np.float16)
c = torch.zeros((128, 64), dtype=torch.float32, device=dev)
accumulate[(2, )](c, torch.from_numpy(a).to(dev), torch.from_numpy(b).to(dev), 256, 64, 32)
np.testing.assert_allclose(c.cpu().numpy(), a.astype(np.float64) @ b.astype(np.float64), rtol=1e-3, atol=1e-2)
print("combine rewrites: ok (sum of a broadcast product as a tf32 dot; acc += tl.dot)")

# tl.extra.cuda.num_warps() and num_threads() are the launch's num_warps and its 32 threads a warp,
# as constexprs (test_core.py's test_num_threads sizes a tile with one); a kernel compiled for one
# num_warps is not reused for another.
import torch

import triton
import triton.language as tl


@triton.jit
def kernel(Out):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    offs = tl.arange(0, num_threads)
    tl.store(Out + offs, 1)
    tl.store(Out + num_threads, tl.extra.cuda.num_warps())


for num_warps in (1, 2, 4, 8, 4):
    out = torch.zeros(num_warps * 32 + 1, dtype=torch.int32)
    kernel[(1, )](out, num_warps=num_warps)
    assert torch.sum(out[:-1]).item() == num_warps * 32 and out[-1].item() == num_warps, (num_warps, out)
out = torch.zeros(4 * 32 + 1, dtype=torch.int32)
kernel[(1, )](out)  # Triton's default: 4 warps
assert out[-1].item() == 4, out
print("num_warps builtins: ok (1, 2, 4, 8 warps and the default)")

# planted_defects.py - three defects Triton's users ship, for `python3 -m tilevm --diff triton`:
# on the GPU each runs without an error and gives a plausible result; the interpreter finds and
# locates each. Run on the GPU machine (real Triton):
#   PYTHONPATH=dist/py python3 -m tilevm --diff triton test/triton/planted_defects.py
# A cross-program race (a total kept with a load and a store, no atomic: lost updates, a result
# that varies run to run), an unmasked tail read (the last block sums past the tensor's end), and
# a kernel that accumulates into torch.empty's memory (never zeroed).
# test/python/diff_triton_planted.py runs it in CI over a stand-in Triton whose "GPU" behaves so.
import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def total_racy(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    old = tl.load(total_ptr)
    tl.store(total_ptr, old + s)  # RACE: every program reads and writes total, unordered


@triton.jit
def block_sums_unmasked(x_ptr, sums_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # TAIL: no mask; the last block reads past the tensor's end
    tl.store(sums_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def accumulate(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(acc_ptr + offs, mask=mask)  # EMPTY: acc came from torch.empty, never zeroed
    tl.store(acc_ptr + offs, acc + tl.load(x_ptr + offs, mask=mask), mask=mask)


torch.manual_seed(0)
n, BLOCK = 1 << 16, 256
x = torch.rand(n, device=DEVICE)
results = []
for _ in range(2):
    total = torch.zeros(1, device=DEVICE)
    total_racy[(triton.cdiv(n, BLOCK),)](x, total, n, BLOCK=BLOCK)
    results.append(total.item())
print(f"race: total {results[0]:.1f} then {results[1]:.1f}; the sum is {x.sum().item():.1f}")

m = 1000
y = torch.rand(m, device=DEVICE)
sums = torch.zeros(triton.cdiv(m, BLOCK), device=DEVICE)
block_sums_unmasked[(triton.cdiv(m, BLOCK),)](y, sums, BLOCK=BLOCK)
print(f"tail: last block's sum {sums[-1].item():.3f}; its {m % BLOCK} elements sum to {y[-(m % BLOCK):].sum().item():.3f}")

garbage = torch.full((m,), 7.0, device=DEVICE)  # freed: the caching allocator hands its block out again
del garbage
acc = torch.empty(m, device=DEVICE)
accumulate[(triton.cdiv(m, BLOCK),)](y, acc, m, BLOCK=BLOCK)
print(f"empty: acc[0] {acc[0].item():.3f} where x[0] is {y[0].item():.3f}")

# Warm launches of CUDA tensors under `python3 -m tilevm --device cuda` take the direct
# launcher (launcher.py, rt::DirectLaunch): no module load, no recompilation, and every change
# that compiled code depends on (alignment, an integer's divisibility or equality to 1, a CPU
# tensor where a CUDA one was) still gets code made for it. Results compared with torch each time.
import time

import torch
import triton
import triton.language as tl

import tilevm


@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, alpha, negate, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = alpha * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)
    if negate:
        v = -v
    tl.store(out_ptr + offs, v, mask=mask)


def run(x, y, n, alpha=2.0, negate=False):
    out = torch.zeros_like(y)
    axpy[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, alpha, negate, BLOCK=256)
    torch.cuda.synchronize()
    want = alpha * x[:n].cpu() + y[:n].cpu()
    torch.testing.assert_close(out[:n].cpu(), -want if negate else want)
    assert (out[n:] == 0).all(), "stored past n"
    return tilevm.last_launch


x = torch.randn(5000, device="cuda")
y = torch.randn(5000, device="cuda")
run(x, y, 5000)
first = run(x, y, 5000)
loads = first["module_loads"]
for _ in range(5):
    x.normal_()
    y.normal_()
    last = run(x, y, 5000)
assert last["module_loads"] == loads and last["cache_hits"] >= first["cache_hits"] + 5, (first, last)
assert last["programs"] == 20 and last["copied_bytes"] == 0 and last["findings"] == 0, last
assert last["direct"], last

# What the compiled code was specialized on changes: each case gets its own code, right results.
run(x, y, 4096)             # n divisible by 16
run(x, y, 1)                # n equal to 1
run(x, y, 4097)
run(x[1:], y[1:], 4000)     # addresses 4 bytes past 16-byte alignment
run(x, y, 5000, alpha=-0.5, negate=True)
run(x, y, 5000, negate=1 == 1)
assert tilevm.last_launch["module_loads"] > loads

# A CPU tensor where the key saw CUDA ones: the direct launcher declines, the full launch copies.
xc, yc = x.cpu(), y.cpu()
out = torch.zeros_like(yc)
axpy[(20,)](xc, yc, out, 5000, 2.0, False, BLOCK=256)
torch.testing.assert_close(out, 2.0 * xc + yc)
assert tilevm.last_launch["copied_bytes"] > 0, tilevm.last_launch

# On torch's current stream, as Triton launches.
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    out = torch.zeros_like(y)
    for _ in range(3):
        axpy[(20,)](x, y, out, 5000, 2.0, False, BLOCK=256)
s.synchronize()
torch.testing.assert_close(out.cpu(), 2.0 * x.cpu() + y.cpu())

# warmup, then the compiled kernel launched as tutorial 02 does, many times: one module load.
before = tilevm.last_launch["module_loads"]
for _ in range(50):
    k = axpy.warmup(x, y, out, 5000, 2.0, False, BLOCK=256, grid=(1,))
    k._init_handles()
    k[(20, 1, 1)](x, y, out, 5000, 2.0, False, BLOCK=256)
torch.cuda.synchronize()
torch.testing.assert_close(out.cpu(), 2.0 * x.cpu() + y.cpu())
assert tilevm.last_launch["module_loads"] == before, tilevm.last_launch

# A host-made TensorDescriptor (tutorial 06's form) takes the direct launcher too: its base,
# shapes and strides are the kernel's parameters; a new block shape or shape divisibility gets
# its own code.
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402


@triton.jit
def desc_scale(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    y_desc.store([m, n], x_desc.load([m, n]) * 3.0)


def run_desc(rows, cols, bm, bn):
    a = torch.randn(rows, cols, device="cuda")
    b = torch.zeros_like(a)
    xd, yd = TensorDescriptor.from_tensor(a, [bm, bn]), TensorDescriptor.from_tensor(b, [bm, bn])
    desc_scale[(triton.cdiv(rows, bm), triton.cdiv(cols, bn))](xd, yd, BM=bm, BN=bn)
    torch.cuda.synchronize()
    torch.testing.assert_close(b.cpu(), a.cpu() * 3.0)
    return tilevm.last_launch


run_desc(100, 64, 32, 32)
first = run_desc(100, 64, 32, 32)
for _ in range(3):
    last = run_desc(100, 64, 32, 32)
assert last["module_loads"] == first["module_loads"] and last["copied_bytes"] == 0 and last["direct"], (first, last)
assert last["cache_hits"] >= first["cache_hits"] + 3, (first, last)
run_desc(96, 64, 32, 32)   # rows divisible by 16
run_desc(100, 64, 16, 32)  # another block
assert tilevm.last_launch["module_loads"] > last["module_loads"]


# A pointer table that is a CUDA tensor of device addresses (tutorial 08's grouped GEMM): the
# kernel makes pointers from it, and warm launches go direct.
@triton.jit
def table_scale(ptrs, sizes, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    p = tl.load(ptrs + g).to(tl.pointer_type(tl.float32))
    n = tl.load(sizes + g)
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, tl.load(p + offs, mask=offs < n) * 2.0, mask=offs < n)


arrays = [torch.randn(n, device="cuda") for n in (100, 37, 256)]
want = [a.cpu() * 8.0 for a in arrays]
table = torch.tensor([a.data_ptr() for a in arrays], device="cuda", dtype=torch.int64)
sizes = torch.tensor([a.numel() for a in arrays], device="cuda", dtype=torch.int32)
for _ in range(3):
    table_scale[(3,)](table, sizes, BLOCK=256)
torch.cuda.synchronize()
for a, w in zip(arrays, want):
    torch.testing.assert_close(a.cpu(), w)
assert tilevm.last_launch["direct"], tilevm.last_launch

n = 2000
t = time.perf_counter()
for _ in range(n):
    axpy[(20,)](x, y, out, 5000, 2.0, False, BLOCK=256)
torch.cuda.synchronize()
print(f"direct_launch: ok ({(time.perf_counter() - t) / n * 1e6:.1f} us per warm launch)")

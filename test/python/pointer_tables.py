# Pointer tables in the style of Triton's tutorial 08 (grouped GEMM): int64 tensors of
# `data_ptr()` values of tensors and arrays the kernel is never passed, turned into pointers
# with `.to(tl.pointer_type(...))`. The interpreter maps each address to the live tensor or
# array holding it and checks accesses against that memory; results against NumPy.
import numpy as np
import torch

import tilevm
import triton
import triton.language as tl


@triton.jit
def grouped_axpy(src_ptrs, dst_ptrs, sizes, alpha, BLOCK: tl.constexpr):
    # Problem g: dst_g[:n_g] = alpha * src_g[:n_g] + g, both arrays named only by address.
    g = tl.program_id(0)
    n = tl.load(sizes + g)
    src = tl.load(src_ptrs + g).to(tl.pointer_type(tl.float32))
    dst = tl.load(dst_ptrs + g).to(tl.pointer_type(tl.float32))
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(dst + offs, alpha * tl.load(src + offs, mask=m) + g, mask=m)


@triton.jit
def grouped_rowsum_f16(ptrs, lds, out, ROWS: tl.constexpr, COLS: tl.constexpr):
    # Row sums of f16 matrices given by address and leading dimension (a strided view's rows).
    g = tl.program_id(0)
    a = tl.load(ptrs + g).to(tl.pointer_type(tl.float16))
    ld = tl.load(lds + g)
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    x = tl.load(a + r[:, None] * ld + c[None, :]).to(tl.float32)
    tl.store(out + g * ROWS + r, tl.sum(x, axis=1))


def table(addresses):
    return torch.tensor(addresses, dtype=torch.int64)


def expect_kernel_error(run, *needles):
    try:
        run()
    except tilevm.KernelError as e:
        for needle in needles:
            assert needle in e.report, (needle, e.report)
        return e.report
    raise AssertionError("no KernelError")


rng = np.random.default_rng()
sizes = [50, 100, 7]
if tilevm.options["device"] != "cpu":
    # On the GPU engine tables hold CUDA tensors' device addresses (tutorial 08 under --device
    # cuda): used in place, results against torch.
    dev = triton.runtime.driver.active.get_active_torch_device()
    src = [torch.randn(n, device=dev) for n in sizes]
    dst = [torch.zeros(n, device=dev) for n in sizes]
    grouped_axpy[(3, )](torch.tensor([s.data_ptr() for s in src], device=dev),
                        torch.tensor([d.data_ptr() for d in dst], device=dev), torch.tensor(sizes, dtype=torch.int32, device=dev),
                        0.5, BLOCK=32)
    for g in range(3):
        torch.testing.assert_close(dst[g], 0.5 * src[g] + g)
    print("pointer_tables: ok (device addresses of CUDA tensors, in place)")
    raise SystemExit(0)
# Sources: a torch tensor, a NumPy array and a NumPy view inside a bigger array; destinations:
# torch tensors. None of them is a kernel argument.
src = [torch.from_numpy(rng.standard_normal(sizes[0]).astype(np.float32)),
       rng.standard_normal(sizes[1]).astype(np.float32)]
big = rng.standard_normal(64).astype(np.float32)
src.append(big[20:20 + sizes[2]])
dst = [torch.zeros(n, dtype=torch.float32) for n in sizes]


def address(x):
    return x.data_ptr() if isinstance(x, torch.Tensor) else x.__array_interface__["data"][0]


grouped_axpy[(3, )](table([address(s) for s in src]), table([address(d) for d in dst]),
                    torch.tensor(sizes, dtype=torch.int32), 0.5, BLOCK=32)
for g in range(3):
    ref = 0.5 * np.asarray(src[g], dtype=np.float64) + g
    triton.testing.assert_close(dst[g].numpy(), ref, atol=1e-6, rtol=1e-6)
assert tilevm.last_launch["findings"] == 0

# f16 matrices, the second a strided view (every other row of a bigger tensor).
m0 = torch.from_numpy(rng.standard_normal((16, 32)).astype(np.float16))
m1_base = torch.from_numpy(rng.standard_normal((32, 32)).astype(np.float16))
m1 = m1_base[::2]
out = torch.zeros(2 * 16, dtype=torch.float32)
grouped_rowsum_f16[(2, )](table([m0.data_ptr(), m1.data_ptr()]), torch.tensor([m0.stride(0), m1.stride(0)],
                                                                               dtype=torch.int32), out, ROWS=16, COLS=32)
for g, m in enumerate([m0, m1]):
    ref = m.numpy().astype(np.float64).sum(axis=1)
    triton.testing.assert_close(out[16 * g:16 * (g + 1)].numpy(), ref, atol=1e-2, rtol=1e-3)

# An overrun through the table: problem 1 says 101 elements where its source holds 100. The
# finding names the array the address lies in, with the element index.
dst1_before = dst[1].clone()
report = expect_kernel_error(
    lambda: grouped_axpy[(3, )](table([address(s) for s in src]), table([address(d) for d in dst]),
                                torch.tensor([50, 101, 7], dtype=torch.int32), 0.5, BLOCK=32),
    "[100] is 1 element past the end of ndarray@0x", "out of bounds")
assert f"ndarray@{hex(address(src[1]))}" in report, report

# An address that no array holds (a Python object's): a finding naming the address, nothing read.
stray = object()
report = expect_kernel_error(
    lambda: grouped_axpy[(1, )](table([id(stray)]), table([address(dst[0])]), torch.tensor([8], dtype=torch.int32),
                                1.0, BLOCK=8),
    f"load at address {hex(id(stray))}, which no buffer of the launch holds",
    "no argument's array, live NumPy array or torch CPU tensor holds it")

# A read-only array cannot be mapped for a kernel that stores through pointers made from integers.
frozen = np.arange(8, dtype=np.float32)
frozen.setflags(write=False)
report = expect_kernel_error(
    lambda: grouped_axpy[(1, )](table([address(frozen)]), table([address(dst[0])]), torch.tensor([8], dtype=torch.int32),
                                1.0, BLOCK=8), "which is read-only")

# The GPU engine copies host arrays to the GPU: a table of host addresses is refused before any
# device is opened (so this runs without one too).
if tilevm.options["device"] == "cpu":
    tilevm.options["device"] = "cuda"
    try:
        grouped_axpy[(3, )](table([address(s) for s in src]), table([address(d) for d in dst]),
                            torch.tensor(sizes, dtype=torch.int32), 0.5, BLOCK=32)
    except ValueError as e:
        assert "the address of host memory" in str(e) and "'src_ptrs'" in str(e), e
    else:
        raise AssertionError("a host-address table reached the GPU engine")
    finally:
        tilevm.options["device"] = "cpu"
print("pointer_tables: ok")

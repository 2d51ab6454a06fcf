# JITFunction.warmup as Triton 3.x's host API means it (the fused-softmax tutorial's use): a
# compiled kernel for these arguments, nothing run; its metadata, n_regs / n_spills after
# _init_handles(), and launching it with kernel[grid](every argument, constexprs included).
import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=num_stages):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        e = tl.exp(z)
        tl.store(out_ptr + row * out_stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


rng = np.random.default_rng(3)
x = rng.standard_normal((97, 181)).astype(np.float32)
y = np.full_like(x, 7.0)
BLOCK = triton.next_power_of_2(x.shape[1])

k = softmax_rows.warmup(y, x, x.shape[1], y.shape[1], x.shape[0], x.shape[1], BLOCK=BLOCK, num_stages=2, num_warps=8,
                        grid=(1, ))
# Compiled, not run: the output is untouched.
assert (y == 7.0).all(), "warmup ran the kernel"
assert k.metadata.num_warps == 8 and k.metadata.num_stages == 2 and k.metadata.name == "softmax_rows"
# Warming up again for the same arguments gives the same compiled kernel (Triton's cache).
again = softmax_rows.warmup(y, x, x.shape[1], y.shape[1], x.shape[0], x.shape[1], BLOCK=BLOCK, num_stages=2, num_warps=8,
                            grid=(1, ))
assert again is k

on_gpu = str(tilevm.options["device"]).startswith("cuda")
try:
    k._init_handles()
    sized = True
except RuntimeError as e:
    # Only on the interpreter, and only when the numbers cannot be had (no ptxas, no code
    # generator): it says why rather than make one up.
    assert not on_gpu, e
    assert "ptxas" in str(e) or "code generator" in str(e), e
    sized = False
if sized:
    assert isinstance(k.n_regs, int) and 0 < k.n_regs <= 255, k.n_regs
    assert isinstance(k.n_spills, int) and k.n_spills >= 0, k.n_spills
    assert isinstance(k.metadata.shared, int) and k.metadata.shared > 0, k.metadata.shared  # the reductions' scratch
    print(f"n_regs {k.n_regs}, n_spills {k.n_spills}, shared {k.metadata.shared} bytes "
          f"({'the driver' if on_gpu else 'ptxas -v on the modeled sm_90a'})")
    # Tutorial 02's occupancy arithmetic works on them.
    props = triton.runtime.driver.active.utils.get_device_properties(0)
    occupancy = min(props["max_num_regs"] // (k.n_regs * props["warpSize"] * 8), props["max_shared_mem"] // k.metadata.shared)
    assert occupancy >= 1, occupancy

# Where ptxas cannot be found, the interpreter's numbers are a RuntimeError saying so (a fresh
# constexpr, so nothing comes from the cache).
if not on_gpu:
    import triton.compiler as tc
    found = tc._find_ptxas
    tc._find_ptxas = lambda: None
    try:
        k2 = softmax_rows.warmup(y, x, x.shape[1], y.shape[1], x.shape[0], x.shape[1], BLOCK=BLOCK, num_stages=3,
                                 num_warps=8, grid=(1, ))
        try:
            k2._init_handles()
        except RuntimeError as e:
            assert "ptxas" in str(e) or "code generator" in str(e), e
        else:
            raise AssertionError(f"n_regs {k2.n_regs} without ptxas")
        try:
            k2.metadata.shared
        except RuntimeError:
            pass
        else:
            raise AssertionError("metadata.shared without ptxas")
    finally:
        tc._find_ptxas = found

# Launched with every argument, constexprs included, as Triton's compiled kernels are.
k[(13, 1, 1)](y, x, x.shape[1], y.shape[1], x.shape[0], x.shape[1], BLOCK, 2)
x64 = x.astype(np.float64)
ref = np.exp(x64 - x64.max(axis=1, keepdims=True))
ref /= ref.sum(axis=1, keepdims=True)
np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-6)

# A constexpr other than the one compiled in, or an argument of another type: a TypeError, and
# nothing runs.
y[...] = 7.0
for bad in [(y, x, x.shape[1], y.shape[1], x.shape[0], x.shape[1], BLOCK * 2, 2),
            (y, x.astype(np.float16), x.shape[1], y.shape[1], x.shape[0], x.shape[1], BLOCK, 2)]:
    try:
        k[(13, )](*bad)
    except TypeError as e:
        assert "compiled for" in str(e), e
    else:
        raise AssertionError("a launch unlike the compiled kernel ran")
assert (y == 7.0).all()
print("warmup: compiled without running, launched as compiled")

# @triton.jit(repr=f): the compiled kernel is named by f from its specialization (Triton's
# test_value_specialization): parameter types, constexprs, and integers equal to 1.


def named(spec):
    ones = "_".join(k for k, v in spec.constants.items() if isinstance(k, str) and v == 1)
    return f"kernel_{spec.signature['value1']}_{ones}"


@triton.jit(repr=named)
def specialized(value1, is_one, X):
    pass


for value, ty in [(-2**31, "i32"), (2**31, "i64"), (2**63, "u64")]:
    h = specialized.warmup(value, 1, x, grid=(1, ))
    assert h.name == f"kernel_{ty}_is_one", h.name
print("warmup: repr names the compiled kernel from its specialization")

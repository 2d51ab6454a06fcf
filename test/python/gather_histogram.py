# tl.gather and tl.histogram in the style of Triton's test_core.py, on fresh random inputs,
# against NumPy: gathers along each axis of 1-D and 2-D tensors (floats move as their bits),
# histograms with and without a mask, and an index out of range reported as a finding.
import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def gather_2d(src_ptr, idx_ptr, out_ptr, axis: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr, I0: tl.constexpr,
              I1: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
    idx = tl.load(idx_ptr + tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :])
    tl.store(out_ptr + tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :], tl.gather(src, idx, axis))


@triton.jit
def gather_1d(src_ptr, idx_ptr, out_ptr, S: tl.constexpr, I: tl.constexpr):
    out = tl.gather(tl.load(src_ptr + tl.arange(0, S)), tl.load(idx_ptr + tl.arange(0, I)), 0)
    tl.store(out_ptr + tl.arange(0, I), out)


@triton.jit
def histogram_kernel(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.arange(0, 2 * M if MASKED else M)
    x = tl.load(x_ptr + offs)
    if MASKED:
        z = tl.histogram(x, N, mask=offs < M)
    else:
        z = tl.histogram(x, N)
    tl.store(z_ptr + tl.arange(0, N), z)


rng = np.random.default_rng()
for src_shape, idx_shape, axis in [([4, 4], [8, 4], 0), ([128, 64], [256, 64], 0), ([128, 64], [128, 128], 1)]:
    for dtype in (np.float32, np.int16, np.float64):
        src = rng.standard_normal(src_shape).astype(dtype) if dtype != np.int16 else rng.integers(-2**15, 2**15, src_shape).astype(dtype)
        idx = rng.integers(0, src_shape[axis], idx_shape).astype(np.int32)
        out = np.empty(idx_shape, dtype)
        gather_2d[(1,)](src, idx, out, axis, *src_shape, *idx_shape)
        assert np.array_equal(out, np.take_along_axis(src, idx, axis)), (src_shape, idx_shape, axis, dtype)
src = np.array([np.nan, -0.0, np.inf, 1.0] * 8, dtype=np.float32)
idx = rng.integers(0, 32, 64).astype(np.int64)
out = np.empty(64, np.float32)
gather_1d[(1,)](src, idx, out, 32, 64)
assert np.array_equal(out.view(np.uint32), src[idx].view(np.uint32)), "gather changed bits"
# Triton's test_histogram sizes, and more bins than threads and elements (8 x 512), with values
# past the bins and below 0 (not counted), int32 and uint8 inputs (uint8 codes past 127 counted as
# such), masked and not.
for M, N in [[2048, 2], [1024, 8], [1024, 128], [256, 512], [32, 512], [8, 512], [8, 2], [4096, 256]]:
    for masked in (False, True):
        for dtype in (np.int32, np.uint8):
            if dtype == np.uint8 and N > 256:
                continue
            lo = -2 if dtype == np.int32 else 0
            hi = min(N + 3, 256) if dtype == np.uint8 else N + 3
            x = rng.integers(lo, hi, (2 * M if masked else M,)).astype(dtype)
            z = np.empty(N, np.int32)
            histogram_kernel[(1,)](x, z, M, N, masked)
            ref = np.bincount(x[:M].astype(np.int64) - lo, minlength=hi - lo)[-lo:-lo + N]
            assert np.array_equal(z, ref), (M, N, masked, dtype)
if tilevm.options["device"] == "cpu":  # a finding of the interpreter's (on a GPU: a device assert)
    bad = np.array([3, 40], dtype=np.int32)
    tilevm.options["warn"] = False
    try:
        gather_1d[(1,)](np.zeros(32, np.float32), np.resize(bad, 64), np.empty(64, np.float32), 32, 64)
        raise AssertionError("an index out of range was not reported")
    except tilevm.KernelError as e:
        assert "gather: index out of range" in str(e), e
print("gather_histogram: gathers, histograms and the out-of-range index agree with NumPy")

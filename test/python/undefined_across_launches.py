# Undefined values across launches: a kernel that stores masked-off load lanes (no `other`)
# leaves those elements undefined (a warning); the next launch that reads them on the same
# array is the error. A host write in between defines them, and a new array at the same address
# starts defined. Runs on the interpreter only (the GPU does not track undefined values).
import warnings

import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def copy_masked(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n))  # lanes >= n: undefined


@triton.jit
def double(src, dst, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs) * 2)


def undefined_store(src, tmp):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        copy_masked[(1,)](src, tmp, 10, BLOCK=16)
    assert any("warning: poison-store" in str(x.message) for x in w), [str(x.message) for x in w]


def expect_error(src, dst):
    try:
        double[(1,)](src, dst, BLOCK=16)
    except tilevm.KernelError as e:
        assert "load reads undefined element" in str(e) and "[10]" in str(e), str(e)
        return
    raise AssertionError("reading elements an earlier launch left undefined was not reported")


if tilevm.options["device"] == "cpu":
    src = np.arange(16, dtype=np.float32)
    tmp = np.zeros(16, dtype=np.float32)
    out = np.zeros(16, dtype=np.float32)
    undefined_store(src, tmp)
    expect_error(tmp, out)
    expect_error(tmp[:], out)  # a view of the same array: the same memory

    # A host write defines the elements: no finding.
    tmp[10:] = 1.0
    double[(1,)](tmp, out, BLOCK=16)
    assert np.array_equal(out, np.concatenate([2 * src[:10], np.full(6, 2.0, np.float32)]))

    # A launch that writes them defines them too.
    undefined_store(src, tmp)
    double[(1,)](src, tmp, BLOCK=16)
    double[(1,)](tmp, out, BLOCK=16)
    assert np.array_equal(out, 4 * src)

    # A new array on the same memory, with the same bytes, where a dead one was: defined.
    memory = bytearray(64)
    first = np.frombuffer(memory, dtype=np.float32)
    undefined_store(src, first)
    expect_error(first, out)
    del first
    second = np.frombuffer(memory, dtype=np.float32)
    double[(1,)](second, out, BLOCK=16)
    print("undefined values carried across launches: ok")
else:
    print("undefined values carried across launches: interpreter only, skipped on", tilevm.options["device"])

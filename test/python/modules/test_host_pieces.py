"""Run by run_scripts.sh as `python3 -m tilevm -m pytest -q -p no:cacheprovider THIS`: pytest
itself runs under tilevm, as Triton's unit tests run, and its tests see tilevm's `triton`."""
import subprocess
import sys

import pytest
import torch

import triton
import triton.language as tl
from triton._internal_testing import is_interpreter, to_numpy, to_triton, numpy_random


@triton.jit
def mix_signs(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) % tl.load(y_ptr + offs))


def test_signedness_error_matches_triton():
    x = to_triton(numpy_random(16, "uint16"), device="cpu")
    y = to_triton(numpy_random(16, "int16"), device="cpu")
    with pytest.raises(triton.TritonError, match="Cannot use .* because they have different signedness"):
        mix_signs[(1, )](x, y, y, BLOCK=16)


def test_unsigned_remainder_runs():
    x, y = numpy_random(16, "uint16"), numpy_random(16, "uint16", rs=None, low=1)
    out = to_triton(numpy_random(16, "uint16"), device="cpu")
    mix_signs[(1, )](to_triton(x, device="cpu"), to_triton(y, device="cpu"), out, BLOCK=16)
    assert (to_numpy(out) == x % y).all()


def test_interpreter_and_child():
    assert is_interpreter()
    child = subprocess.run([sys.executable, "-c", "import triton; print(triton.__version__)"], capture_output=True,
                           text=True)
    assert child.stdout.strip() == triton.__version__


def test_torch_float():
    x = torch.ones(4)
    assert x.sum() == 4


@pytest.fixture
def with_allocator():  # as Triton's conftest has it
    from triton.runtime._allocation import NullAllocator
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    try:
        yield
    finally:
        triton.set_allocator(NullAllocator())


def test_allocator_kept(with_allocator):
    from triton.runtime._allocation import NullAllocator, _allocator
    assert _allocator.get()(16, 16, None).numel() == 16
    with pytest.raises(RuntimeError, match="no allocator was set"):
        NullAllocator()(16, 16, None)

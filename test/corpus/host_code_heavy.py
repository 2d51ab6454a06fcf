# A kernel file full of host code: classes, dataclasses, match, async, comprehensions, lambdas
# with defaults, walrus, star-args, f-strings, type hints, decorators of every shape, a
# __main__ block, and kernels defined under module-level if/else and try/except.
from __future__ import annotations

import dataclasses
import functools
import os
from typing import Callable, Optional

import triton
import triton.language as tl

HAS_FAST_PATH = True  # an os.environ switch here is undecidable to the CLI (module-if.test)
USE_ENV = os.environ.get("FAST", "1") == "1"
CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 128) for w in (2, 4) if b * w <= 512]
TABLE = {k: v for k, v in zip("abc", range(3))}
UNPACK_A, UNPACK_B = 3, 4


@dataclasses.dataclass(frozen=True)
class Options:
    block: int = 128
    scale: float = dataclasses.field(default=1.0)

    @property
    def grid(self) -> tuple[int, ...]:
        return (triton.cdiv(1024, self.block),)


class Runner:
    """A host class with methods that look like kernels but are not."""

    def __init__(self, *args, **kwargs):
        self.args = [*args, *kwargs.values()]

    @staticmethod
    def jit(fn):
        return fn

    async def fetch(self):
        async with self.lock:
            await self.sleep(0)

    def describe(self, value):
        match value:
            case {"kind": kind, **rest} if kind != "x":
                return f"{kind!r}: {rest}"
            case [first, *_]:
                return first
            case _:
                return None


def helper(x, *, scale: Optional[float] = None, cb: Callable = lambda v=2, *a, **k: v) -> float:
    if (n := len(x)) > 10:
        return n
    return sum(x) * (scale or 1.0)


if HAS_FAST_PATH:
    @triton.jit
    def fast_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * UNPACK_B, mask=m)
else:
    def fast_kernel(*args):
        raise RuntimeError("no fast path")

try:
    @triton.jit
    def guarded_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) + UNPACK_A, mask=m)
except Exception as exc:  # pragma: no cover
    print(f"no triton: {exc}")


@functools.wraps(helper)
def wrapped(*a, **k):
    return helper(*a, **k)


if __name__ == "__main__":
    @triton.jit
    def main_only_kernel(x):
        pass
    print(Runner(1, b=2).describe({"kind": "y", "z": 1}))

# RUN: -k fast_kernel -D BLOCK=64 --grid 2
# ARGS: x_ptr=randn:f32:100 y_ptr=empty:f32:100 n=100
# REF: y_ptr = x_ptr * 4
# EXPECT: y_ptr
# RUN: -k guarded_kernel -D BLOCK=64 --grid 2
# ARGS: x_ptr=randn:f32:100 y_ptr=empty:f32:100 n=100
# REF: y_ptr = x_ptr + 3
# EXPECT: y_ptr

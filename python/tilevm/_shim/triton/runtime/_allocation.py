"""triton.runtime._allocation: set_allocator (triton.set_allocator) and NullAllocator, the
allocator before a program sets one (Triton's tests reset to it). A kernel that needed global
scratch memory would fail in it; tilevm launches none that does (its device-made descriptors
need no workspace), so the allocator set is kept and never called."""
from contextvars import ContextVar


class NullAllocator:
    def __call__(self, size, alignment, stream):
        raise RuntimeError("Kernel requires a runtime memory allocation, but no allocator was set. "
                           "Use triton.set_allocator to specify an allocator.")


_allocator = ContextVar("_allocator", default=NullAllocator())


def set_allocator(allocator):
    _allocator.set(allocator)

"""triton.runtime._allocation: the allocator of the global scratch memory a kernel may need at
launch (triton.set_allocator). tilevm launches no kernel that asks for global scratch memory, so
the allocator a program sets is kept (for programs that set and read it) and never called."""
from contextvars import ContextVar


class NullAllocator:
    """The allocator before one is set: a kernel that needed scratch memory would fail here."""

    def __call__(self, size, alignment, stream):
        raise RuntimeError("Kernel requires a runtime memory allocation, but no allocator was set. "
                           "Use triton.set_allocator to specify an allocator.")


_NULL_ALLOCATOR = NullAllocator()
_allocator = ContextVar("_allocator", default=_NULL_ALLOCATOR)


def set_allocator(allocator):
    """Sets the function `(size, alignment, stream) -> buffer` called for scratch memory."""
    _allocator.set(allocator)

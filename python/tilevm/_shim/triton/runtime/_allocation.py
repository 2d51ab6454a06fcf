"""triton.runtime._allocation: NullAllocator, the allocator before a program sets one with
triton.set_allocator (Triton's tests reset to it). A kernel that needed global scratch memory
would fail in it; tilevm launches none that does, so no allocator is ever called."""


class NullAllocator:
    def __call__(self, size, alignment, stream):
        raise RuntimeError("Kernel requires a runtime memory allocation, but no allocator was set. "
                           "Use triton.set_allocator to specify an allocator.")

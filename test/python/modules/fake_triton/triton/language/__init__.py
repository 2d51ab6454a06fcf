"""triton.language as far as a kernel's host side needs it (tilevm compiles the kernel's text)."""


class constexpr:
    def __init__(self, value):
        self.value = value

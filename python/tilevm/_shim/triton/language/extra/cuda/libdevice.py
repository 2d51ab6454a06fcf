"""triton.language.extra.cuda.libdevice for host imports: the same stubs as
triton.language.extra.libdevice (a kernel resolves either to the frontend's functions)."""
from triton.language.extra.libdevice import *  # noqa: F401,F403
from triton.language.extra.libdevice import NAMES

__all__ = list(NAMES)

"""triton.language.extra.cuda for host imports (`from triton.language.extra.cuda import libdevice`)."""
from . import libdevice  # noqa: F401

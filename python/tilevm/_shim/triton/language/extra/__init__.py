"""triton.language.extra for host imports (`from triton.language.extra import libdevice`): the
functions are the frontend's; a kernel names them through this module."""
from . import libdevice  # noqa: F401
from . import cuda  # noqa: F401

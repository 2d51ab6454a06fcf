"""triton.language.extra.cuda for host code: `from triton.language.extra.cuda import libdevice`,
and the functions a kernel may be given as arguments (`func = tl.extra.cuda.globaltimer`,
passed to a tl.constexpr parameter): the frontend compiles them by name; on the host they only
stand for themselves."""
from . import libdevice  # noqa: F401
from .._kernel_only import kernel_only

globaltimer = kernel_only(__name__, "globaltimer")
smid = kernel_only(__name__, "smid")
num_warps = kernel_only(__name__, "num_warps")
num_threads = kernel_only(__name__, "num_threads")

"""triton.language.extra.cuda for host code: `from triton.language.extra.cuda import libdevice`,
and the functions a kernel may be given as arguments (`func = tl.extra.cuda.globaltimer`,
passed to a tl.constexpr parameter): the frontend compiles them by name; on the host they only
stand for themselves."""
from . import libdevice  # noqa: F401


def _kernel_only(name):
    def function(*args, **kwargs):
        raise RuntimeError(f"triton.language.extra.cuda.{name} can only be called inside a @triton.jit function")
    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    return function


globaltimer = _kernel_only("globaltimer")
smid = _kernel_only("smid")
num_warps = _kernel_only("num_warps")
num_threads = _kernel_only("num_threads")

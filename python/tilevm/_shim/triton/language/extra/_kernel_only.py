"""A host stand-in for a function only kernels call (libdevice's, tl.extra.cuda's): named as the
function, in its module, so the frontend resolves it by that name; called on the host, it says so."""


def kernel_only(module, name):
    def function(*args, **kwargs):
        raise RuntimeError(f"{module}.{name} can only be called inside a @triton.jit function")
    function.__name__ = function.__qualname__ = name
    function.__module__ = module
    return function

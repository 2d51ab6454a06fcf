"""A module whose attributes come from a module-level __getattr__ (PEP 562), as lazy-loading
packages define them: every name it is asked for exists."""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return 5

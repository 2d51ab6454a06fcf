"""triton.backends.driver: DriverBase, the class Triton's drivers derive from (the active one is
an instance: `isinstance(triton.runtime.driver.active, DriverBase)`)."""


class DriverBase:
    """A backend's driver: its target, its torch device, its utilities."""

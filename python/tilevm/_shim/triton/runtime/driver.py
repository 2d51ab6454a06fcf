"""triton.runtime.driver: DriverConfig, Triton's holder of the default and active drivers, made
when first asked for (`triton.runtime.driver` is its instance, as in Triton). The driver is
tilevm's (runtime/__init__.py)."""


class DriverConfig:

    def __init__(self):
        self._default = None
        self._active = None

    @property
    def default(self):
        if self._default is None:
            from . import _Active  # triton.runtime is whole by the time a driver is asked for
            self._default = _Active()
        return self._default

    @property
    def active(self):
        if self._active is None:
            self._active = self.default
        return self._active

    def set_active(self, driver):
        self._active = driver

    def reset_active(self):
        self._active = self.default


driver = DriverConfig()

"""triton.backends: what Triton's backends share, as host code imports it (driver.DriverBase,
compiler.GPUTarget). tilevm's one driver is runtime/__init__.py's."""
from . import compiler, driver  # noqa: F401

"""triton.runtime.driver as a module, for `import triton.runtime.driver as driver` (Triton's
tests' conftest): `active` is the driver that `triton.runtime.driver.active` is (runtime/__init__.py).
Importing it makes the module `triton.runtime.driver`, so it carries the same `active`."""
from . import driver as _driver  # the driver object runtime/__init__.py made, before this module replaces it

active = _driver.active

# A package in the layout of real projects: kernels in ops/, helpers and constants in common/.
from .common.constants import EPS_DEFAULT  # noqa: F401

"""triton.errors: TritonError, the base of every error Triton raises (tilevm/errors.py)."""
from tilevm.errors import TritonError  # noqa: F401

"""triton.compiler.errors: CompilationError, raised for a kernel tilevm's frontend cannot compile,
with the frontend's located diagnostic (tilevm/errors.py)."""
from tilevm.errors import CompilationError  # noqa: F401

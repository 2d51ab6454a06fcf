"""triton.compiler for host code: CompilationError, which a kernel that does not compile raises."""
from .errors import CompilationError  # noqa: F401

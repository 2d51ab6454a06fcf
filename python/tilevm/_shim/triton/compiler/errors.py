"""triton.compiler.errors: the compile errors Triton's programs and tests import from here
(tilevm.errors defines them; a failed tl.static_assert is CompileTimeAssertionFailure)."""
from tilevm.errors import CompilationError, CompileTimeAssertionFailure  # noqa: F401

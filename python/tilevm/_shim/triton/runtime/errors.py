"""triton.runtime.errors: the runtime's error classes, as Triton defines them (all TritonErrors).
InterpreterError is tilevm's (tilevm/errors.py): on the interpreter, a kernel that does not
compile raises InterpreterCompilationError (a CompilationError and an InterpreterError) and a
launch whose checks fail tilevm.KernelError (an InterpreterError); the others are here for
programs that name them."""
from tilevm.errors import InterpreterError, TritonError  # noqa: F401


class OutOfResources(TritonError):
    """A kernel needing more of a resource (shared memory, registers) than the GPU has."""

    def __init__(self, required, limit, name):
        super().__init__(required, limit, name)
        self.required, self.limit, self.name = required, limit, name

    def __str__(self):
        return (f"out of resource: {self.name}, Required: {self.required}, Hardware limit: {self.limit}. "
                "Reducing block sizes or `num_stages` may help.")

    def __reduce__(self):
        return type(self), (self.required, self.limit, self.name)


class _MessageError(TritonError):
    """A Triton error that is its message, printed after the class's `what`."""
    what = ""

    def __init__(self, error_message=None):
        super().__init__(error_message)
        self.error_message = error_message

    def __str__(self):
        return f"{self.what}: {self.error_message or ''}"


class PTXASError(_MessageError):
    """ptxas refused the generated PTX."""
    what = "PTXAS error"


class AutotunerError(_MessageError):
    """The autotuner could not run any configuration."""
    what = "Autotuner error"

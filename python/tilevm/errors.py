"""The exceptions Triton's programs catch, as tilevm raises them: TritonError (the base of every
error Triton raises), CompilationError (a kernel that does not compile) and InterpreterError
(what Triton's interpreter raises for any error in a kernel it runs). The `triton` stand-in
exports them where Triton does (triton.TritonError, triton.CompilationError,
triton.compiler.CompilationError and triton.runtime.errors.InterpreterError)."""


class TritonError(Exception):
    """Base class for all errors raised by Triton (and by tilevm where Triton would)."""


class _Where:
    """The place of an error in a kernel's source, as Triton's `node` gives it (1-based line,
    0-based column)."""

    def __init__(self, lineno, col_offset):
        self.lineno, self.col_offset = lineno, col_offset


class CompilationError(TritonError):
    """A kernel that does not compile. Raised by tilevm's frontend: str() is its located
    diagnostic (`file:line:col: error: MESSAGE`, the source line and a caret); `error_message`
    is MESSAGE alone, `file`, `lineno` and `col_offset` (0-based) say where. `__cause__` is a
    ValueError holding MESSAGE, as Triton's cause is the semantic error its code generator
    caught. Constructed by a program as Triton's is: CompilationError(src, node, message)."""

    source_line_count_max_in_message = 12

    def __init__(self, src, node, error_message=None):
        self.src, self.node, self.error_message = src, node, error_message
        self.file = getattr(node, "file", None)
        self.lineno = getattr(node, "lineno", None)
        self.col_offset = getattr(node, "col_offset", None)
        self.message = self._format_message()
        super().__init__(self.message)

    def _format_message(self):
        """Triton's text: `at LINE:COL:`, the source up to that line and a caret, the message."""
        node = self.node
        if self.src is None:
            excerpt = " <source unavailable>"
        elif hasattr(node, "lineno"):
            lines = self.src.split("\n")[:node.lineno][-self.source_line_count_max_in_message:]
            excerpt = "\n".join(lines + [" " * node.col_offset + "^"]) if lines else " <source empty>"
        else:
            excerpt = self.src
        message = f"at {node.lineno}:{node.col_offset}:\n{excerpt}" if hasattr(node, "lineno") else excerpt
        if self.error_message:
            message += "\n" + self.error_message
        return message

    @classmethod
    def from_diagnostic(cls, rendered, file, line, col, message):
        """The error for a frontend diagnostic: `rendered` is its text, line and col 1-based
        (0 when unknown); a failed tl.static_assert is a CompileTimeAssertionFailure, as Triton's."""
        if cls is CompilationError and message.startswith("static_assert failed"):
            cls = CompileTimeAssertionFailure
        e = cls.__new__(cls)
        node = _Where(line, max(col - 1, 0))
        node.file = file
        e.src, e.node, e.error_message = None, node, message
        e.file, e.lineno, e.col_offset = file, line, node.col_offset
        e.message = rendered.rstrip("\n")
        Exception.__init__(e, e.message)
        # Triton's cause is the semantic error its code generator caught; a failed static_assert
        # is raised as itself, with none.
        e.__cause__ = None if issubclass(cls, CompileTimeAssertionFailure) else ValueError(message)
        return e

    def __str__(self):
        return self.message

    def __reduce__(self):
        if self.src is None:
            return _rebuild_diagnostic, (type(self), self.message, self.file, self.lineno, self.col_offset + 1,
                                         self.error_message)
        return type(self), (self.src, self.node, self.error_message)


def locate_in_function(e, jit_fn):
    """Adds Triton's `at LINE:COL:` after a frontend diagnostic that lies in jit_fn's own lines
    (LINE counted from its `def`, COL 0-based in its dedented source, as Triton counts them);
    tilevm's `file:line:col: error:` text stays first. Returns e."""
    if not isinstance(e, CompilationError) or e.src is not None or not e.lineno or e.file != getattr(jit_fn, "source_path", None):
        return e
    first = getattr(jit_fn, "def_file_line_number", None)
    if first is None or not first <= e.lineno < first + jit_fn.src.count("\n") + 1:
        return e
    line, col = e.lineno - first + 1, max(e.col_offset - getattr(jit_fn, "_indent", 0), 0)
    e.message = f"{e.message}\nat {line}:{col}: line {line} of {jit_fn.__name__}, column {col} (as Triton counts them)"
    e.args = (e.message, )
    return e


class CompileTimeAssertionFailure(CompilationError):
    """A tl.static_assert that failed while the kernel compiled (Triton's class: its autotuner
    skips a configuration that raises it)."""


def _rebuild_diagnostic(cls, rendered, file, line, col, message):
    return cls.from_diagnostic(rendered, file, line, col, message)


class InterpreterError(TritonError):
    """An error in a kernel that an interpreter ran: Triton's interpreter wraps whatever its
    kernel's Python raised (a failed device_assert, a semantic error) in it. tilevm's
    interpreter raises it as KernelError (a launch whose checks failed) and
    InterpreterCompilationError (a kernel launched there that does not compile)."""

    def __init__(self, error_message=None):
        super().__init__(error_message)
        self.error_message = error_message

    def __str__(self):
        return self.error_message or ""


class InterpreterCompilationError(CompilationError, InterpreterError):
    """A kernel launched on tilevm's interpreter that does not compile: a CompilationError, as
    Triton's compiler raises, and an InterpreterError, as Triton's interpreter raises for the same
    kernel (tests write `CompilationError if not is_interpreter() else InterpreterError`). Its
    text, attributes and ValueError cause are CompilationError's."""


class InterpreterCompileTimeAssertionFailure(CompileTimeAssertionFailure, InterpreterCompilationError):
    """A failed tl.static_assert in a kernel launched on tilevm's interpreter: Triton's
    CompileTimeAssertionFailure, and the InterpreterError Triton's interpreter raises."""


# On the interpreter, the class a compile error becomes (launcher.py).
INTERPRETER_CLASSES = {CompilationError: InterpreterCompilationError,
                       CompileTimeAssertionFailure: InterpreterCompileTimeAssertionFailure}

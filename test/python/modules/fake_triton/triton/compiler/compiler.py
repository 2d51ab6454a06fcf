"""CompiledKernel as real Triton's, as far as --diff triton reads it: `src.fn` (the JITFunction),
`metadata`, and kernel[grid](*every argument) launching it (through the JITFunction's device)."""
import types


class ASTSource:
    def __init__(self, fn):
        self.fn = fn


class CompiledKernel:
    def __init__(self, fn, num_warps=4, num_stages=3):
        self.src = ASTSource(fn)
        self.metadata = types.SimpleNamespace(num_warps=num_warps, num_stages=num_stages)

    def __getitem__(self, grid):
        def runner(*args, stream=None):
            return self.src.fn.device(*args)
        return runner

"""triton.compiler for tilevm: the compiled kernel `JITFunction.warmup` returns (Triton's
CompiledKernel): `metadata` (name, num_warps, num_stages, shared, target), `n_regs` and
`n_spills` after `_init_handles()`, and `kernel[grid](*args)` launching exactly what was compiled;
and `triton.compile(ASTSource(fn, signature, constexprs))`, which compiles a kernel from its
parameter types alone (Triton's tests of its compile errors call it): tilevm's frontend compiles
it and raises Triton's errors (`errors.py`); the result holds the tile IR as `asm["ttir"]`.

Where the numbers come from:
- On the GPU engine (`--device cuda`) the warmup loads the kernel on the GPU without running it,
  and they are what the driver reports of the loaded function (cuFuncGetAttribute): NUM_REGS,
  LOCAL_SIZE_BYTES / 4 as Triton counts spills, and shared = static + dynamic shared bytes.
- On the interpreter no GPU code exists, and a CPU has no such registers. The interpreter
  presents the GPU tilevm targets by default (the H200 of `get_device_properties`, sm_90a), so the
  numbers are those of the PTX tilevm's GPU engine emits for it, sized by `ptxas -v` of the CUDA
  toolkit (`ptxas` on PATH, $CUDA_HOME/bin or /usr/local/cuda/bin): registers per thread, spills as
  stack-frame bytes / 4, shared = ptxas's static bytes + the launch's dynamic bytes. Without
  ptxas, or in a build without the code generator, reading them raises RuntimeError saying why:
  never a made-up number.
"""
import inspect
import os
import re
import shutil
import subprocess
import tempfile

import tilevm
from tilevm import _tilevm
from tilevm.errors import CompilationError  # noqa: F401 (triton.compiler.CompilationError)
from tilevm import errors as _errors
from . import errors  # noqa: F401 (triton.compiler.errors)
from ..backends.compiler import GPUTarget
from ..runtime.errors import OutOfResources

# The target the interpreter presents (triton.runtime: the H200's properties).
MODELED_ARCH = "sm_90a"


def _find_ptxas():
    found = shutil.which("ptxas")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    return None


def ptxas_sizes(ptx, arch):
    """(registers, stack-frame bytes, static shared bytes) that `ptxas -v` reports for the PTX's
    entry, or (None, why) when ptxas is not there or fails."""
    ptxas = _find_ptxas()
    if ptxas is None:
        return None, "ptxas (the CUDA toolkit) is not on PATH, $CUDA_HOME/bin or /usr/local/cuda/bin"
    with tempfile.TemporaryDirectory(prefix="tilevm-ptxas-") as d:
        src = os.path.join(d, "kernel.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        p = subprocess.run([ptxas, f"-arch={arch}", "-v", "-o", os.path.join(d, "kernel.cubin"), src],
                           capture_output=True, text=True)
    log = p.stdout + p.stderr
    if p.returncode != 0:
        return None, f"ptxas failed on the PTX tilevm emitted: {log.strip()[:400]}"
    regs = re.search(r"Used (\d+) registers", log)
    stack = re.search(r"(\d+) bytes stack frame", log)
    smem = re.search(r"(\d+) bytes smem", log)
    if regs is None:
        return None, f"ptxas -v printed no register count: {log.strip()[:400]}"
    return (int(regs.group(1)), int(stack.group(1)) if stack else 0, int(smem.group(1)) if smem else 0), None


class KernelMetadata:
    """Triton's CompiledKernel.metadata: what the compiler decided (`shared` on first reading)."""

    def __init__(self, kernel, name, num_warps, num_stages, target):
        self._kernel = kernel
        self.name, self.num_warps, self.num_stages, self.target = name, num_warps, num_stages, target
        self.num_ctas, self.cluster_dims = 1, (1, 1, 1)

    @property
    def shared(self):
        """Shared memory per program in bytes (see the module's note for where it comes from)."""
        return self._kernel._sizes()["shared"]

    def __repr__(self):
        return f"KernelMetadata(name={self.name!r}, num_warps={self.num_warps}, num_stages={self.num_stages}, target={self.target})"


class CompiledKernel:
    """A kernel compiled for one signature and one set of constexprs (Triton's CompiledKernel)."""

    def __init__(self, jit_fn, warm, num_warps, num_stages, name=None):
        self.fn = jit_fn
        self.name = name or jit_fn.__name__
        self.signature, self.defines = warm["signature"], dict(warm["defines"])
        self._options = {"num_warps": num_warps, "num_stages": num_stages, "maxnreg": warm["maxnreg"],
                         "fp_fusion": warm["fp_fusion"]}
        on_gpu = "gpu" in warm
        self._gpu = warm.get("gpu")
        target = GPUTarget("cuda", int(self._gpu["arch"][3:5]), 32) if on_gpu else GPUTarget("cpu", 0, 32)
        self.metadata = KernelMetadata(self, self.name, num_warps, num_stages, target)
        self._computed = None
        self._why = None
        if not on_gpu:
            self._interpreter_sizes(warm, num_warps, num_stages)
        self.n_regs = self.n_spills = self.n_max_threads = None
        self._handles = False
        self._asm_source, self._asm = warm.get("asm_source"), None

    @property
    def asm(self):
        """Triton's: {"ttir": the tile IR, "llir" and "ptx": the LLVM IR and PTX of tilevm's GPU engine}
        (launcher.kernel_asm)."""
        if self._asm is None:
            from tilevm import launcher
            self._asm = launcher.kernel_asm(self._asm_source)
        return self._asm

    def _interpreter_sizes(self, warm, num_warps, num_stages):
        if not hasattr(_tilevm, "ptx"):
            self._why = "this build has no GPU code generator (LLVM 19 was not found when it was built)"
            return
        serial, unit = self.fn._tilevm_unit()
        try:
            ptx = _tilevm.ptx(self.fn.source_path, self.name, self.signature, self.defines, warm["launch_args"], MODELED_ARCH,
                              num_warps, num_stages, unit=unit, unit_key=serial, maxnreg=warm["maxnreg"],
                              fp_fusion=warm["fp_fusion"])
        except ValueError as e:  # the code generator cannot lower this kernel yet
            self._why = f"tilevm's GPU code generator cannot compile this kernel: {e}"
            return
        sizes, why = ptxas_sizes(ptx["ptx"], MODELED_ARCH)
        if sizes is None:
            self._why = why
            return
        regs, stack, smem = sizes
        self._computed = {"n_regs": regs, "n_spills": stack // 4, "shared": smem + ptx["dynamic_shared"],
                          "n_max_threads": 1024, "source": f"ptxas -v, {MODELED_ARCH}"}

    def _sizes(self):
        if self._gpu is not None:
            g = self._gpu
            return {"n_regs": g["registers"], "n_spills": max(0, g["local_bytes"]) // 4,
                    "shared": max(0, g["static_shared"]) + g["dynamic_shared"], "n_max_threads": 1024,
                    "source": "the driver (cuFuncGetAttribute)"}
        if self._computed is None:
            raise RuntimeError(f"{self.name}: registers, spills and shared memory are numbers of GPU code; on the interpreter "
                               f"they are those of the PTX tilevm would run on the modeled {MODELED_ARCH}, and here: {self._why}")
        return self._computed

    def _init_handles(self):
        """Triton loads the kernel here; tilevm loaded it at warmup (GPU engine) or needs nothing
        (interpreter). Sets n_regs, n_spills, n_max_threads; raises OutOfResources as Triton does."""
        if self._handles:
            return
        s = self._sizes()
        self.n_regs, self.n_spills, self.n_max_threads = s["n_regs"], s["n_spills"], s["n_max_threads"]
        from ..runtime import driver
        limit = driver.active.utils.get_device_properties(0)["max_shared_mem"]
        if s["shared"] > limit:
            raise OutOfResources(s["shared"], limit, "shared memory")
        self._handles = True

    def __getitem__(self, grid):
        def runner(*args, stream=None, **kwargs):
            return self._launch(grid, args, kwargs)
        return runner

    def _launch(self, grid, args, kwargs):
        # Every parameter comes positionally or by name, constexprs included (as Triton's
        # launcher takes them); types and constexprs must be those compiled (else a TypeError and
        # nothing runs).
        from tilevm import launcher
        return launcher.launch(self.fn, grid, args, kwargs, num_warps=self._options["num_warps"],
                               num_stages=self._options["num_stages"], maxnreg=self._options["maxnreg"],
                               fp_fusion=self._options["fp_fusion"],
                               expect=(self.signature, self.defines))


def warmup(jit_fn, args, grid, kwargs):
    """JITFunction.warmup(*args, grid=..., **constexprs_and_options): the kernel compiled for
    these arguments (and, on the GPU engine, loaded), nothing run; cached per signature,
    constexprs, options and specialization as Triton's cache is."""
    from tilevm import launcher
    from ..runtime.jit import LAUNCH_OPTIONS
    meta = {k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS or k in jit_fn.arg_names}

    # As Triton's parse_options: a launch option is read from the keywords even where it also
    # binds a parameter of that name (tutorial 02's num_stages).
    num_warps, num_stages = kwargs.get("num_warps") or 4, kwargs.get("num_stages") or 1
    maxnreg, fp_fusion = kwargs.get("maxnreg"), kwargs.get("enable_fp_fusion")
    warm = launcher.launch(jit_fn, grid, args, meta, num_warps=num_warps, num_stages=num_stages, warmup=True,
                           maxnreg=maxnreg, fp_fusion=fp_fusion)
    serial, _ = jit_fn._tilevm_unit()
    key = (serial, warm["signature"], tuple(sorted(warm["defines"].items())), num_warps, num_stages, maxnreg, warm["fp_fusion"],
           str(tilevm.options["device"]), warm["spec"])
    cache = jit_fn.__dict__.setdefault("_tilevm_compiled", {})
    if key not in cache:
        cache[key] = CompiledKernel(jit_fn, warm, num_warps, num_stages, _specialized_name(jit_fn, args, meta, warm))
    return cache[key]


def _specialized_name(jit_fn, args, meta, warm):
    """The name `@triton.jit(repr=f)` gives the compiled kernel: f(specialization), whose
    `signature` maps each runtime parameter to its type ("i32", "*fp32"; "constexpr" for an
    integer argument equal to 1, which Triton specializes) and `constants` each constexpr and
    specialized parameter to its value. None without `repr`."""
    repr_fn = getattr(jit_fn, "_repr", None)
    if repr_fn is None:
        return None
    import types
    named = dict(zip(jit_fn.arg_names, args))
    named.update(meta)
    signature = dict(entry.split(": ", 1) for entry in warm["signature"].split(", ") if entry)
    constants = {k: v for k, v in named.items() if k not in signature}
    for arg in warm["launch_args"]:
        if arg[0] == "int" and arg[2] == 1 and arg[1] in signature:
            signature[arg[1]], constants[arg[1]] = "constexpr", 1
    return repr_fn(types.SimpleNamespace(signature=signature, constants=constants))


class ASTSource:
    """Triton's ASTSource: a @triton.jit function with its parameters' types (`signature`: name ->
    "i32", "*fp16", ..., or "constexpr") and constexpr values (`constexprs`: name, or Triton's
    (index,) key, -> value)."""

    def __init__(self, fn, signature, constexprs=None, attrs=None):
        self.fn, self.signature, self.attrs = fn, dict(signature), attrs
        names = list(getattr(fn, "arg_names", []))
        self.constexprs = {}
        for k, v in (constexprs or {}).items():
            if isinstance(k, tuple) and len(k) == 1 and isinstance(k[0], int) and k[0] < len(names):
                k = names[k[0]]
            self.constexprs[k] = v


class CompiledSource:
    """What triton.compile gives back here: the kernel's name and its tile IR (`asm["ttir"]`)."""

    def __init__(self, name, text):
        self.name, self.asm = name, {"ttir": text}


def compile(src, target=None, options=None):
    """Triton's triton.compile for an ASTSource: the kernel compiled by tilevm's frontend with
    these types and constexprs, or Triton's CompilationError (a failed static_assert:
    CompileTimeAssertionFailure) located in the kernel's source. A parameter with neither a type
    nor a value is a TypeError. Of `options`, num_warps is read (tl.extra.cuda.num_warps())."""
    from tilevm import launcher, source_unit
    fn = src.fn
    jit = source_unit.jit_of(fn)
    if jit is None:
        raise TypeError(f"triton.compile: {fn!r} is not a @triton.jit function")
    entries, defines = [], {}
    for p in inspect.signature(jit.fn).parameters.values():
        if p.name in src.constexprs:
            defines[p.name] = launcher.define_text(p.name, src.constexprs[p.name], True)
        elif src.signature.get(p.name, "constexpr") != "constexpr":
            entries.append(f"{p.name}: {src.signature[p.name]}")
        elif p.default is inspect.Parameter.empty:
            raise TypeError(f"triton.compile: parameter '{p.name}' of {jit.__name__} has no type in the signature and no "
                            "constexpr value")
    serial, unit = jit._tilevm_unit()
    try:
        name, text = _tilevm.compile_unit(unit, serial, ", ".join(entries), defines,
                                          num_warps=int((options or {}).get("num_warps", 4)))
    except CompilationError as e:
        raise _errors.locate_in_function(e, jit)
    return CompiledSource(name, text)

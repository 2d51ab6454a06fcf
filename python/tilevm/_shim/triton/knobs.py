"""triton.knobs: Triton 3.x's configuration module, with what each knob means on tilevm.

Triton's shape: groups (`knobs.runtime`, `knobs.compilation`, `knobs.cache`, `knobs.autotuning`,
...) of knobs that read their environment variable (`TRITON_INTERPRET`, ...) unless a program set
them, setting one writes the variable for child processes (`propagate_env`), and each group has
`scope()`, `copy()`, `reset()`, `knobs` and `knob_descriptors` (Triton's test fixtures use them).

Each knob is one of three kinds here, and says which:
- honoured: `runtime.interpret` tells where kernels run (True on the interpreter, False under
  `--device cuda`; setting the other value raises, since the engine is chosen by `--device` or
  `tilevm.options["device"]`), `autotuning.print` prints Triton's summary of a timed autotune,
  `autotuning.rep` is the milliseconds of launches it times each configuration over,
  `runtime.debug` turns on Triton's integer overflow checks (device asserts are checked always);
- without effect, accepted: what changes nothing tilevm computes (cache directories, which
  tilevm does not have: compiled kernels live in the process; line info; the autotuner's
  warmup);
- refused: any other value than the default raises NotImplementedError naming the knob, as
  does adding a hook, so nothing is silently ignored. Unknown knob names raise AttributeError.
docs/python.md lists them."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import tilevm


class Env:
    """Triton's `knobs.env`: assigning it to a knob drops the program's value (the environment
    variable is read again)."""


env = Env()

propagate_env = True

HONOURED, NO_EFFECT, REFUSED = "honoured", "without effect", "refused"


def setenv(key, value):
    if not propagate_env or key is None:
        return
    if value is not None:
        os.environ[key] = value
    elif key in os.environ:
        del os.environ[key]


def toenv(val):
    if val is None:
        return (None, )
    if type(val) is bool:
        return ("1" if val else "0", )
    if type(val) in (str, int):
        return (str(val), )
    return None


def _getenv_bool(key, default):
    val = os.environ.get(key) if key else None
    if val is None:
        return default
    val = val.strip().lower()
    if val in ("1", "true", "on"):
        return True
    if val in ("0", "false", "off"):
        return False
    return default


class env_base:
    """A knob: the program's value if it set one, else its environment variable, else the
    default. `kind` is HONOURED, NO_EFFECT or REFUSED; `why` says what tilevm does instead."""

    def __init__(self, key, default=None, kind=REFUSED, why=""):
        self.key, self.default, self.kind, self.why = key, default, kind, why

    def __set_name__(self, objclass, name):
        self.name = name
        self.qualname = f"triton.knobs.{objclass.__name__[:-len('_knobs')]}.{name}"

    def __get__(self, obj, objclass=None):
        if obj is None:
            return self
        if self.name in obj.__dict__:
            return self.transform(obj.__dict__[self.name])
        return self.get()

    def get(self):
        val = os.environ.get(self.key) if self.key else None
        return self.default if val is None else self.parse(val)

    def parse(self, text):
        return text

    def transform(self, val):
        return val

    def __set__(self, obj, value):
        if isinstance(value, Env):
            obj.__dict__.pop(self.name, None)
            return
        self.check(value)
        obj.__dict__[self.name] = value
        if env_val := toenv(value):
            setenv(self.key, env_val[0])

    def __delete__(self, obj):
        obj.__dict__.pop(self.name, None)

    def accepts(self, value):
        """Whether tilevm can do what this value asks (for a refused knob: only the default)."""
        return self.kind != REFUSED or value == self.default

    def check(self, value):
        if not self.accepts(value):
            raise NotImplementedError(f"{self.qualname} = {value!r}: tilevm does not honour this knob"
                                      f"{' (' + self.why + ')' if self.why else ''}; only {self.default!r} is accepted")


class env_str(env_base):
    pass


class env_str_callable_default(env_base):

    def __init__(self, key, default_factory, kind=REFUSED, why=""):
        super().__init__(key, None, kind, why)
        self.default_factory = default_factory

    def get(self):
        val = os.environ.get(self.key)
        return self.default_factory() if val is None else val


class env_bool(env_base):

    def __init__(self, key, default=False, kind=REFUSED, why=""):
        super().__init__(key, default, kind, why)

    def get(self):
        return _getenv_bool(self.key, self.default)

    def accepts(self, value):
        return self.kind != REFUSED or bool(value) == self.default


class env_int(env_base):

    def __init__(self, key, default=0, kind=REFUSED, why=""):
        super().__init__(key, default, kind, why)

    def parse(self, text):
        try:
            return int(text)
        except ValueError as exc:
            raise RuntimeError(f"Unable to use {self.key}={text}: expected int") from exc


class env_opt_str(env_base):
    pass


class env_opt_bool(env_base):

    def get(self):
        return _getenv_bool(self.key, None)


class env_class(env_base):
    """A class named MODULE:CLASS (cache managers): refused, tilevm has no cache to manage."""


class hook:
    """A callable Triton calls at some point of compiling or launching (a plain attribute in
    Triton, no variable): only None is accepted, since tilevm's compiler and launcher call no
    Python hooks."""

    def __init__(self, why="tilevm's compiler and launcher call no Python hooks"):
        self.why = why

    def __set_name__(self, objclass, name):
        self.name = name
        self.qualname = f"triton.knobs.{objclass.__name__[:-len('_knobs')]}.{name}"

    def __get__(self, obj, objclass=None):
        return self if obj is None else obj.__dict__.get(self.name)

    def __set__(self, obj, value):
        if value is not None:
            raise NotImplementedError(f"{self.qualname} = {value!r}: tilevm does not honour this knob ({self.why})")
        obj.__dict__.pop(self.name, None)


class HookChain:
    """Triton's chain of launch or load hooks: tilevm calls none, so adding one raises."""

    def __init__(self, reversed=False, name="a hook chain"):
        self.calls = []
        self.reversed = reversed
        self.name = name

    def add(self, func):
        raise NotImplementedError(f"triton.knobs.runtime.{self.name}.add(...): tilevm's launcher calls no Python "
                                  "launch or load hooks")

    def remove(self, func):
        if func in self.calls:
            self.calls.remove(func)

    def __call__(self, *args, **kwargs):
        for call in self.calls if not self.reversed else reversed(self.calls):
            call(*args, **kwargs)


class NvidiaTool:
    """Triton's (path, version) of a CUDA tool."""

    def __init__(self, path, version):
        self.path, self.version = path, version

    def __repr__(self):
        return f"NvidiaTool(path={self.path!r}, version={self.version!r})"


class env_nvidia_tool(env_base):
    """A CUDA tool: read as the one found on PATH, $CUDA_HOME/bin or /usr/local/cuda/bin (where
    tilevm's compiled-kernel metadata finds ptxas); setting another path is refused."""

    def __init__(self, binary):
        super().__init__(f"TRITON_{binary.upper().replace('-', '_')}_PATH", None, REFUSED,
                         "tilevm finds CUDA tools on PATH, $CUDA_HOME/bin or /usr/local/cuda/bin")
        self.binary = binary

    def get(self):
        import re
        import subprocess
        dirs = [os.path.join(os.environ.get("CUDA_HOME", ""), "bin"), "/usr/local/cuda/bin"]
        path = shutil.which(self.binary) or next(
            (os.path.join(d, self.binary) for d in dirs if os.access(os.path.join(d, self.binary), os.X_OK)), None)
        if path is not None:
            try:
                out = subprocess.check_output([path, "--version"], stderr=subprocess.STDOUT).decode()
                m = re.search(r".*release (\d+\.\d+).*", out, flags=re.MULTILINE)
                if m:
                    return NvidiaTool(path, m.group(1))
            except (subprocess.CalledProcessError, OSError):
                pass
        raise RuntimeError(f"Cannot find {self.binary}")


class base_knobs:

    def __setattr__(self, name, value):
        group = f"triton.knobs.{type(self).__name__[:-len('_knobs')]}"
        if not hasattr(type(self), name):
            raise AttributeError(f"{group} has no knob {name!r} (tilevm knows Triton's upstream knobs)")
        if isinstance(getattr(type(self), name), HookChain):
            raise NotImplementedError(f"{group}.{name} = {value!r}: tilevm's launcher calls no Python launch or "
                                      "load hooks")
        object.__setattr__(self, name, value)

    @property
    def knob_descriptors(self):
        return {k: v for k, v in type(self).__dict__.items() if isinstance(v, env_base)}

    @property
    def knobs(self):
        return {k: getattr(self, k) for k in self.knob_descriptors}

    def copy(self):
        res = type(self)()
        res.__dict__.update(self.__dict__)
        return res

    def reset(self):
        for knob in self.knob_descriptors:
            delattr(self, knob)
        return self

    @contextmanager
    def scope(self):
        try:
            initial_env = {knob.key: os.environ.get(knob.key) for knob in self.knob_descriptors.values() if knob.key}
            orig = dict(self.__dict__)
            yield
        finally:
            self.__dict__.clear()
            self.__dict__.update(orig)
            for k, v in initial_env.items():
                if v is not None:
                    os.environ[k] = v
                elif k in os.environ:
                    del os.environ[k]


_NO_GPU_BUILD = "tilevm runs no native compiler or CUDA toolchain of Triton's"


class build_knobs(base_knobs):
    """How Triton builds its launcher stubs: tilevm builds none."""
    cc = env_opt_str("CC", kind=NO_EFFECT, why="tilevm compiles no launcher stub")
    cudacrt_path = env_opt_str("TRITON_CUDACRT_PATH", why=_NO_GPU_BUILD)
    cudart_path = env_opt_str("TRITON_CUDART_PATH", why=_NO_GPU_BUILD)
    impl = hook("tilevm compiles no launcher stub")

    @property
    def backend_dirs(self):
        return {path for path in (self.cudacrt_path, self.cudart_path) if path is not None}


_NO_DISK_CACHE = "tilevm keeps compiled kernels in the process, not on disk"


class redis_knobs(base_knobs):
    key_format = env_str("TRITON_REDIS_KEY_FORMAT", "triton:{key}:{filename}", why=_NO_DISK_CACHE)
    host = env_str("TRITON_REDIS_HOST", "localhost", why=_NO_DISK_CACHE)
    port = env_int("TRITON_REDIS_PORT", 6379, why=_NO_DISK_CACHE)


class cache_knobs(base_knobs):
    home_dir = env_str("TRITON_HOME", os.path.expanduser("~/"), NO_EFFECT, _NO_DISK_CACHE)
    dump_dir = env_str_callable_default("TRITON_DUMP_DIR", lambda: cache.get_triton_dir("dump"), NO_EFFECT,
                                        _NO_DISK_CACHE)
    override_dir = env_str_callable_default("TRITON_OVERRIDE_DIR", lambda: cache.get_triton_dir("override"),
                                            NO_EFFECT, _NO_DISK_CACHE)
    dir = env_str_callable_default("TRITON_CACHE_DIR", lambda: cache.get_triton_dir("cache"), NO_EFFECT,
                                   _NO_DISK_CACHE)
    manager_class = env_class("TRITON_CACHE_MANAGER", why=_NO_DISK_CACHE)
    remote_manager_class = env_class("TRITON_REMOTE_CACHE_BACKEND", why=_NO_DISK_CACHE)

    def get_triton_dir(self, dirname):
        return os.path.join(self.home_dir, ".triton", dirname)


_NO_IR = "tilevm's compiler keeps no Triton IR stages to dump or override"


class compilation_knobs(base_knobs):
    override = env_bool("TRITON_KERNEL_OVERRIDE", why=_NO_IR)
    dump_ir = env_bool("TRITON_KERNEL_DUMP", why=_NO_IR)
    dump_ir_extract_di_local_variables = env_bool("LLVM_EXTRACT_DI_LOCAL_VARIABLES", why=_NO_IR)
    store_binary_only = env_bool("TRITON_STORE_BINARY_ONLY", kind=NO_EFFECT, why=_NO_DISK_CACHE)
    always_compile = env_bool("TRITON_ALWAYS_COMPILE", why="tilevm reuses a kernel compiled in this process")
    use_ir_loc = env_opt_str("USE_IR_LOC", why=_NO_IR)
    use_ptx_loc = env_bool("USE_PTX_LOC", why=_NO_IR)
    enable_asan = env_bool("TRITON_ENABLE_ASAN", why="the interpreter checks bounds itself (--check)")
    disable_line_info = env_bool("TRITON_DISABLE_LINE_INFO", kind=NO_EFFECT,
                                 why="tilevm's findings always name the source line")
    front_end_debugging = env_bool("TRITON_FRONT_END_DEBUGGING", why="tilevm's frontend is not Triton's")
    allow_non_constexpr_globals = env_bool("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS",
                                           why="a kernel reads only constexpr globals (docs/python.md)")
    instrumentation_mode = env_str("TRITON_INSTRUMENTATION_MODE", "", why="tilevm has no instrumentation passes")
    listener = hook("tilevm's compiler calls no Python listener")


class autotuning_knobs(base_knobs):
    cache = env_bool("TRITON_CACHE_AUTOTUNING", kind=NO_EFFECT,
                     why="results are kept in the process, not on disk: the same configuration is chosen")
    print = env_bool("TRITON_PRINT_AUTOTUNING", kind=HONOURED)
    dump_best_config_ir = env_bool("TRITON_KERNEL_DUMP_BEST_CONFIG", why=_NO_IR)
    warmup = env_int("TRITON_AUTOTUNE_WARMUP_MS", 25, NO_EFFECT,
                     "the first 3 launches of a configuration estimate its time and warm it")
    rep = env_int("TRITON_AUTOTUNE_REP_MS", 100, HONOURED)
    listener = hook("tilevm's autotuner calls no Python listener")


class _interpret(env_bool):
    """Where kernels run: True on tilevm's interpreter, False on its GPU engine (--device cuda).
    The engine is chosen by --device or tilevm.options["device"], so only that value is accepted."""

    def __init__(self):
        super().__init__("TRITON_INTERPRET", kind=HONOURED)

    def get(self):
        return not str(tilevm.options.get("device", "cpu")).startswith("cuda")

    def transform(self, val):
        return self.get()

    def accepts(self, value):
        return bool(value) == self.get()

    def check(self, value):
        if not self.accepts(value):
            engine = "the interpreter (--device cpu)" if self.get() else "the GPU engine (--device cuda)"
            raise NotImplementedError(f"{self.qualname} = {value!r}: kernels run on {engine}; choose the engine with "
                                      "python3 -m tilevm --device, or tilevm.options['device']")


class runtime_knobs(base_knobs):
    interpret = _interpret()
    debug = env_bool("TRITON_DEBUG", kind=HONOURED,
                     why="integer +, -, * assert that they do not overflow, as Triton's debug mode (device_assert "
                         "is checked always)")
    sanitize_overflow = env_bool("TRITON_SANITIZE_OVERFLOW", why="tilevm checks integer overflow in debug mode (runtime.debug)")
    override_arch = env_opt_str("TRITON_OVERRIDE_ARCH", why="tilevm's GPU engine compiles for the GPU it runs on")

    launch_enter_hook = HookChain(name="launch_enter_hook")
    launch_exit_hook = HookChain(reversed=True, name="launch_exit_hook")
    kernel_load_start_hook = HookChain(name="kernel_load_start_hook")
    kernel_load_end_hook = HookChain(reversed=True, name="kernel_load_end_hook")

    jit_cache_hook = hook()
    jit_post_compile_hook = hook()
    add_stages_inspection_hook = hook("tilevm's compiler has no Triton pipeline stages")


class _fp32_default(env_opt_str):
    """tl.dot's input_precision for fp32 operands when the call gives none: tilevm's is tf32
    (Triton's default); other defaults are refused (pass input_precision= to tl.dot)."""

    def __init__(self):
        super().__init__("TRITON_F32_DEFAULT", why="tl.dot defaults to tf32; pass input_precision= to tl.dot")

    def accepts(self, value):
        return value in (None, "tf32")


class language_knobs(base_knobs):
    fp32_default = _fp32_default()
    default_fp_fusion = env_bool("TRITON_DEFAULT_FP_FUSION", True, HONOURED,
                                 "a launch without enable_fp_fusion= fuses products into fma on both engines when set")


class nvidia_knobs(base_knobs):
    cuobjdump = env_nvidia_tool("cuobjdump")
    nvdisasm = env_nvidia_tool("nvdisasm")
    ptxas = env_nvidia_tool("ptxas")
    ptxas_blackwell = env_nvidia_tool("ptxas-blackwell")

    dump_nvptx = env_bool("NVPTX_ENABLE_DUMP", why=_NO_IR)
    disable_ptxas_opt = env_bool("DISABLE_PTXAS_OPT", why="tilevm's GPU engine loads PTX through the driver")
    ptxas_options = env_opt_str("PTXAS_OPTIONS", why="tilevm's GPU engine loads PTX through the driver")
    mock_ptx_version = env_opt_str("TRITON_MOCK_PTX_VERSION", why="tilevm emits one PTX version")
    dump_ptxas_log = env_bool("TRITON_DUMP_PTXAS_LOG", why="tilevm's GPU engine loads PTX through the driver")
    libdevice_path = env_opt_str("TRITON_LIBDEVICE_PATH", why="tilevm's libdevice functions are its own")
    libcuda_path = env_opt_str("TRITON_LIBCUDA_PATH", why="tilevm loads the CUDA driver the system's loader finds")


_NOT_AMD = "tilevm has no AMD backend"


class amd_knobs(base_knobs):
    use_buffer_ops = env_bool("AMDGCN_USE_BUFFER_OPS", True, why=_NOT_AMD)
    use_buffer_atomics = env_bool("AMDGCN_USE_BUFFER_ATOMICS", True, why=_NOT_AMD)
    buffer_ops_analyze_small_tensor_range = env_bool("AMDGCN_ANALYZE_SMALL_TENSOR_RANGE", False, why=_NOT_AMD)
    dump_amdgcn = env_bool("AMDGCN_ENABLE_DUMP", why=_NOT_AMD)
    libhip_path = env_opt_str("TRITON_LIBHIP_PATH", why=_NOT_AMD)
    use_block_pingpong = env_opt_bool("TRITON_HIP_USE_BLOCK_PINGPONG", why=_NOT_AMD)
    use_in_thread_transpose = env_opt_bool("TRITON_HIP_USE_IN_THREAD_TRANSPOSE", why=_NOT_AMD)
    use_async_copy = env_opt_bool("TRITON_HIP_USE_ASYNC_COPY", why=_NOT_AMD)
    scalarize_packed_fops = env_bool("AMDGCN_SCALARIZE_PACKED_FOPS", why=_NOT_AMD)


_NO_PROTON = "tilevm has no Proton profiler"


class proton_knobs(base_knobs):
    disable = env_bool("TRITON_PROTON_DISABLE", False, why=_NO_PROTON)
    cupti_lib_dir = env_opt_str("TRITON_CUPTI_LIB_PATH", why=_NO_PROTON)
    enable_nvtx = env_bool("TRITON_ENABLE_NVTX", True, why=_NO_PROTON)


build = build_knobs()
redis = redis_knobs()
cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()
proton = proton_knobs()


def refresh_knobs():
    """Triton's: re-read the knobs it caches at import (tilevm caches none)."""

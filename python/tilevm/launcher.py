"""Binds a Python call `kernel[grid](*args, **meta)` to tilevm: NumPy arrays and torch CPU tensors
by pointer (no copies), Python and NumPy scalars typed as Triton types them, constexprs as
compile-time values; compiles the kernel's own file with tilevm's frontend (cached) and launches it."""
import inspect
import sys

import tilevm
from . import _tilevm
from . import diff_snapshot as snapshot
from . import errors
from . import source_unit

_DTYPES = {"float16": "fp16", "float32": "fp32", "float64": "fp64", "bfloat16": "bf16", "int8": "i8",
           "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
           "uint64": "u64", "bool": "i1",
           # torch 2's fp8 dtypes (Triton's float8e4nv and float8e5; the fnuz ones, AMD's, as Triton names them)
           "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16"}


# Triton's dtype names (a TensorWrapper's dtype: triton.reinterpret) as tilevm's.
_TRITON_DTYPES = {"int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
                  "uint32": "u32", "uint64": "u64", "fp16": "fp16", "bf16": "bf16", "fp32": "fp32", "fp64": "fp64",
                  "fp8e5": "fp8e5", "fp8e4nv": "fp8e4nv", "fp8e4b15": "fp8e4b15", "fp8e5b16": "fp8e5b16", "fp8e4b8": "fp8e4b8"}


def _is_tensor_wrapper(x):
    t = type(x)
    return t.__name__ == "TensorWrapper" and t.__module__.startswith("triton")


def _array_info(x):
    """(address, allocation start, allocation bytes, dtype name, numel, read-only, owner) of a NumPy
    array or torch tensor, or None. The owner is the array whose memory it is (the root of its views),
    for telling the same memory from a later array at the same address. A TensorWrapper is its
    base's memory with the wrapper's dtype (a Triton name: "uint32", "fp16")."""
    if type(x).__name__ in ("Tensor", "Parameter") and hasattr(x, "data_ptr"):  # torch, without its slow isinstance
        return _tensor_info(x)
    if _is_tensor_wrapper(x):
        info = _array_info(x.base)
        if info is None:
            return None
        addr, start, nbytes, _, numel, readonly, owner = info
        return addr, start, nbytes, "triton:" + str(x.dtype.name), numel, readonly, owner
    if hasattr(x, "__array_interface__") and hasattr(x, "dtype") and hasattr(x, "nbytes"):
        base = x
        while getattr(base, "base", None) is not None and hasattr(base.base, "__array_interface__"):
            base = base.base
        start = base.__array_interface__["data"][0]
        flags = getattr(x, "flags", None)
        readonly = x.__array_interface__["data"][1] or (flags is not None and not flags.writeable)
        return x.__array_interface__["data"][0], start, base.nbytes, str(x.dtype), x.size, readonly, base
    if hasattr(x, "data_ptr") and hasattr(x, "element_size"):
        return _tensor_info(x)
    return None


def _tensor_info(x):
    """_array_info of a torch tensor (or an object with its data_ptr and storage methods)."""
    if getattr(x, "is_cuda", False) and tilevm.options["device"] == "cpu":
        raise ValueError("a CUDA tensor: the interpreter reads host memory; run with --device cuda (or move it .cpu())")
    start, nbytes = snapshot.tensor_storage(x)
    root = snapshot.tensor_root(x)
    dtype = _TORCH_DTYPES.get(x.dtype)
    if dtype is None:
        dtype = _TORCH_DTYPES[x.dtype] = str(x.dtype).replace("torch.", "")
    return x.data_ptr(), start, nbytes, dtype, x.numel(), False, root


_TORCH_DTYPES = {}  # torch.float32 -> "float32", as each is first seen


def _numpy_scalar(v):
    """A NumPy scalar (np.int64(7), np.float32(1.5)): a value of its dtype, not an array."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(v, np.generic)


def _scalar_type(v):
    if _numpy_scalar(v):
        if str(v.dtype) not in _DTYPES:
            raise TypeError(f"a NumPy scalar of dtype {v.dtype} is not supported")
        return _DTYPES[str(v.dtype)]
    if isinstance(v, bool):
        return "i1"
    if isinstance(v, int):
        if -2**31 <= v < 2**31:
            return "i32"
        if -2**63 <= v < 2**63:
            return "i64"
        if 0 <= v < 2**64:
            return "u64"
        raise OverflowError(f"integer argument {v} does not fit 64 bits")  # Triton's class
    if isinstance(v, float):
        return "fp32"
    return None


def define_text(name, v, constexpr=False):
    """The constexpr text of argument `name`'s value (the frontend parses and checks it). A tuple
    (or list) given to a tl.constexpr parameter is the tuple of its elements' texts; another object
    given to one is "!a TYPE" (the kernel may take it, not use it); a value no text can stand for
    (a function, an array given for a constexpr, an object for a runtime parameter) is a TypeError
    here, not its repr handed on."""
    if type(v).__name__ == "constexpr" and type(v).__module__.startswith("triton"):
        v = v.value
    if isinstance(v, (tuple, list)) and constexpr:
        items = [define_text(f"{name}[{i}]", e, True) for i, e in enumerate(v)]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):  # quoted: a string stays a string ("nan", "", a uuid), never a number
        return '"' + v + '"'
    if isinstance(getattr(v, "name", None), str) and not callable(v):  # a dtype (Triton's or NumPy's)
        return v.name
    what = type(v).__qualname__ if type(v).__module__ == "builtins" else f"{type(v).__module__}.{type(v).__qualname__}"
    if constexpr and not callable(v) and not hasattr(v, "data_ptr"):
        # Any other object given for a tl.constexpr parameter (a uuid, as Triton's tests pass to
        # defeat its cache): the kernel may take it; naming it there is the frontend's located error.
        return f"!a {what}"
    raise TypeError(f"argument '{name}': a {what}: tilevm passes arrays, tensors, numbers, strings, None, dtypes, "
                    "tl.constexpr values and tuples of them to kernels (functions and other objects as arguments are "
                    "not supported yet)")


class _Binder:
    """What a launch needs of a kernel's signature, worked out once per kernel: its parameter
    names in order, which are constexprs, and a plain function with the kernel's parameters and
    defaults that returns them as a tuple, so CPython itself binds a call (and raises its own
    TypeError for extra, repeated or missing arguments)."""

    def __init__(self, jit_fn):
        fn = jit_fn.fn
        self.kernel = jit_fn
        sig = inspect.signature(fn)
        self.names = list(sig.parameters)
        self.name_set = frozenset(self.names)
        self.constexpr = [jit_fn.is_constexpr(p) for p in sig.parameters.values()]
        self.annotated = {n: _annotated_type(p.annotation) for n, p in sig.parameters.items()}
        bare = sig.replace(parameters=[p.replace(annotation=inspect.Parameter.empty, default=inspect.Parameter.empty)
                                       for p in sig.parameters.values()], return_annotation=inspect.Signature.empty)
        namespace = {}
        exec(f"def {fn.__name__}{bare}:\n    return ({''.join(n + ', ' for n in self.names)})", namespace)
        self.bind = namespace[fn.__name__]
        self.bind.__defaults__, self.bind.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
        self.bind.__qualname__ = fn.__qualname__
        self.direct = {}  # launch key -> _Direct (the GPU engine's warm launches)
        self.units = {}  # (unit serial, JIT functions given as arguments) -> (serial, unit, used globals)


def debug_mode(jit_fn, debug):
    """Triton's debug option for a launch: the launch's `debug=`, else the @triton.jit's, else
    knobs.runtime.debug (TRITON_DEBUG). In debug mode integer +, - and * under 64 bits assert
    that they do not overflow, as Triton's sanitize_overflow (device_assert is checked always)."""
    if debug is None:
        debug = getattr(jit_fn, "debug", None)
    if debug is None:
        knobs = sys.modules.get("triton.knobs")
        debug = knobs is not None and knobs.runtime.debug
    return bool(debug)


def default_fp_fusion():
    """Triton's knobs.language.default_fp_fusion (True: Triton's default) for launches that give
    no enable_fp_fusion."""
    knobs = sys.modules.get("triton.knobs")
    return True if knobs is None else bool(knobs.language.default_fp_fusion)


# Triton's type_canonicalisation_dict for scalars, in tilevm's spellings: what a parameter
# annotation may name.
_ANNOTATION_TYPES = {**_TRITON_DTYPES, **{v: v for v in _TRITON_DTYPES.values()}, "bool": "i1", "float16": "fp16",
                     "bfloat16": "bf16", "float32": "fp32", "float64": "fp64"}


def _annotated_type(a):
    """The scalar type a parameter's annotation names, as Triton's _normalize_ty reads it (a tl
    dtype, or its name as a string, `tl.` optional): Triton makes it the argument's type. None for
    any other annotation (torch.Tensor, int, a pointer type), which Triton ignores as a type."""
    if type(a).__name__ == "dtype" and isinstance(getattr(a, "name", None), str):
        return _ANNOTATION_TYPES.get(a.name)
    if isinstance(a, str):
        name = a.strip()
        return _ANNOTATION_TYPES.get(name[3:] if name.startswith("tl.") else name)
    return None


def _annotated_value(name, v, t):
    """Argument `name`'s Python number as type `t` (its annotation's), or Triton's error classes."""
    if t.startswith(("fp", "bf")):
        if not isinstance(v, (int, float)):
            raise TypeError(f"argument '{name}': {v!r} is not a number, but the parameter is annotated {t}")
        return float(v)
    if not isinstance(v, int):
        raise TypeError(f"argument '{name}': {v!r} is not an integer, but the parameter is annotated {t}")
    bits = int(t[1:])
    lo, hi = (0, 2**bits - 1) if t[0] == "u" or t == "i1" else (-2**(bits - 1), 2**(bits - 1) - 1)
    if not lo <= v <= hi:
        raise OverflowError(f"argument '{name}': {v} does not fit the parameter's annotated type {t} [{lo}, {hi}]")
    return int(v)


def _binder(jit_fn):
    b = jit_fn.__dict__.get("_tilevm_binder")
    if b is None:
        b = jit_fn._tilevm_binder = _Binder(jit_fn)
    return b


def _unit_with(b, base, functions):
    """(serial, unit) of the kernel whose unit is `base` (serial, unit), built again with the JIT
    functions given as arguments ({name: function}, names as in the constexprs: "@name"); one
    per set of functions, whose globals are checked at each reuse as the kernel's are."""
    key = (base[0], tuple((name, id(f)) for name, f in functions.items()))
    entry = b.units.get(key)
    if entry is None or any(f is not g for f, g in zip(functions.values(), entry[3])):
        unit, used = source_unit.build(b.kernel, functions)
        entry = b.units[key] = (source_unit.next_serial(), unit, used, tuple(functions.values()))
    else:
        source_unit.check_globals(entry[2])
    return entry[0], entry[1]


def _element_type(name, dtype):
    """tilevm's name of an array's dtype (NumPy's or torch's name, or a TensorWrapper's Triton name
    as "triton:NAME"), or the TypeError naming argument `name`."""
    ty = _TRITON_DTYPES.get(dtype[len("triton:"):]) if dtype.startswith("triton:") else _DTYPES.get(dtype)
    if ty is None:
        raise TypeError(f"argument '{name}': dtype {dtype.replace('triton:', '')} is not supported")
    return ty


def _descriptor(v):
    """Whether v is a host-made tensor descriptor (triton.tools.tensor_descriptor)."""
    return type(v).__name__ == "TensorDescriptor" and hasattr(v, "block_shape") and hasattr(v, "base")


def _descriptor_args(name, d):
    """The signature entry and launch arguments of a TensorDescriptor: its base (a buffer), then
    each dimension's shape and stride as i64 (the frontend's NAME.base, NAME.shapeK, NAME.strideK)."""
    info = _array_info(d.base)
    if info is None:
        raise TypeError(f"argument '{name}': a TensorDescriptor's base must be a torch tensor or NumPy array")
    addr, start, nbytes, dtype, numel, readonly, owner = info
    ty = _element_type(name, dtype)
    block = "x".join(str(int(b)) for b in d.block_shape) + (":nan" if d.padding == "nan" else "")
    args = [("buffer", f"{name}.base", start, nbytes, ty, nbytes // _itemsize(ty), addr, bool(readonly), owner)]
    for field, values in (("shape", d.shape), ("stride", d.strides)):
        for k, v in enumerate(values):
            args.append(("int", f"{name}.{field}{k}", int(v), "i64"))
    return f"{name}: tensordesc<*{ty}:{block}>", args


class LaunchResult(dict):
    """What kernel[grid](...) gives back: the launch's numbers as a dict (programs, seconds,
    findings, report, ...) and, as Triton's CompiledKernel, `asm`: the kernel's tile IR ("ttir")
    and the PTX tilevm's GPU engine builds for it ("ptx"; for the GPU's arch under --device cuda,
    for the modeled sm_90a on the interpreter; absent where the build has no code generator or
    it cannot lower the kernel), made when first read."""

    def __init__(self, numbers, source):
        super().__init__(numbers)
        self._source, self._asm = source, None

    def __getitem__(self, key):
        """A number by its name; or, as Triton's CompiledKernel[grid], a launcher of the kernel
        as compiled: called with every argument (constexprs included), whose types and
        constexprs must be those compiled (else a TypeError and nothing runs)."""
        if isinstance(key, str):
            return super().__getitem__(key)
        jit_fn, _, _, _, _, num_warps, num_stages, maxnreg, fp_fusion, debug, _ = self._source
        expect = (self.get("signature"), self.get("defines"))

        def runner(*args, stream=None, **kwargs):
            return launch(jit_fn, key, args, kwargs, num_warps=num_warps, num_stages=num_stages, maxnreg=maxnreg,
                          fp_fusion=fp_fusion, debug=debug, expect=expect)
        return runner

    @property
    def asm(self):
        if self._asm is None:
            self._asm = kernel_asm(self._source)
        return self._asm


def kernel_asm(source):
    """Triton's `asm` of a compiled kernel: {"ttir": tile IR, "llir": LLVM IR, "ptx": PTX} from a launch's
    (jit_fn, (serial, unit), signature, defines, launch_args, num_warps, num_stages, maxnreg, fp_fusion,
    debug, arch);
    no "llir" or "ptx" without the code generator or where it cannot lower the kernel."""
    jit_fn, (serial, unit), signature, defines, launch_args, num_warps, num_stages, maxnreg, fp_fusion, debug, arch = source
    asm = {"ttir": _tilevm.compile_unit(unit, serial, signature, defines, fp_fusion=fp_fusion, num_warps=num_warps,
                                        debug=debug)[1]}
    if hasattr(_tilevm, "ptx"):
        try:
            gpu = _tilevm.ptx(jit_fn.source_path, jit_fn.__name__, signature, defines, launch_args,
                              arch or "sm_90a", num_warps, num_stages, unit=unit, unit_key=serial,
                              maxnreg=maxnreg, fp_fusion=fp_fusion, debug=debug, llir=True)
            asm["llir"], asm["ptx"] = gpu["llir"], gpu["ptx"]
        except ValueError:  # the code generator cannot lower this kernel (yet)
            pass
    return asm


class _Direct:
    """What a launch key's first launch worked out: the GPU engine's direct launcher of the
    kernel it loaded (_tilevm.DirectLaunch), the signature and constexprs, what a warmup returns
    (with what `asm` is made from) and the rest of a launch's result."""
    __slots__ = ("launcher", "signature", "defines", "warm", "result")

    def __init__(self, launcher, signature, defines, warm, result):
        self.launcher, self.signature, self.defines, self.warm, self.result = launcher, signature, defines, warm, result


def _direct_key(b, values, serial, num_warps, num_stages, maxnreg, fp_fusion, debug, o):
    """(key, runtime values) of a launch on the GPU engine that a direct launcher can take: every
    argument a torch tensor, a Python int, float or bool, a TensorDescriptor over a torch tensor
    (its base, shapes and strides, the parameters _descriptor_args makes), or a constexpr; the key
    holds what compiled code depends on (types, constexprs, Triton's specialization of pointers and
    integers by 16 and integers by 1, a descriptor's block and padding, the options). None for any
    other launch."""
    if any(b.annotated.values()):  # annotated parameters convert their values: the full path does that
        return None
    key, runtime = [serial, num_warps, num_stages, maxnreg, fp_fusion, debug, tuple(o.values())], []
    for v, constexpr in zip(values, b.constexpr):
        t = type(v)
        if constexpr or v is None or t is str:
            key.append((t, v))
        elif t is bool:
            key.append((t, v))
            runtime.append(v)
        elif t is int:
            if not -2**63 <= v < 2**64:
                return None
            key.append((t, -2**31 <= v < 2**31, v < 2**63, v % 16 == 0, v == 1))
            runtime.append(v)
        elif t is float:
            key.append(t)
            runtime.append(v)
        elif t.__name__ in ("Tensor", "Parameter") and hasattr(v, "data_ptr"):
            p = v.data_ptr()
            key.append((v.dtype, p % 16 == 0))
            runtime.append(p)
        elif _descriptor(v) and type(v.base).__name__ in ("Tensor", "Parameter") and hasattr(v.base, "data_ptr"):
            shape, strides = [int(x) for x in v.shape], [int(x) for x in v.strides]
            p, fields = v.base.data_ptr(), shape + strides
            if not all(-2**63 <= x < 2**63 for x in fields):
                return None
            # Strides are specialized on the power of two up to 16 dividing them (strideDivisorOf).
            key.append((t, v.base.dtype, p % 16 == 0, tuple(int(x) for x in v.block_shape), v.padding,
                        tuple((x % 16 == 0, x == 1) for x in shape),
                        tuple((min(x & -x, 16) if x else 16, x == 1) for x in strides)))
            runtime.append(p)
            runtime.extend(fields)
        else:
            return None
    return tuple(key), tuple(runtime)


def _grid(grid, b, values, kwargs):
    """The launch grid as 3 ints (a callable grid gets the arguments by name, and the options)."""
    if callable(grid):
        grid = grid({**dict(zip(b.names, values)), **kwargs})
    grid = tuple(grid)
    return grid + (1,) * (3 - len(grid))


def _expected(jit_fn, expect, signature, defines):
    if expect is not None and (signature, defines) != expect:
        raise TypeError(f"{jit_fn.__name__}: compiled for ({expect[0]}) with constexprs {expect[1]}, launched with "
                        f"({signature}) and {defines}: warm up a kernel for each")


def launch(jit_fn, grid, args, kwargs, num_warps=4, num_stages=1, repeat=1, warmup=False, expect=None, access="",
           programs=(), maxnreg=None, fp_fusion=None, debug=None):
    """Launches (or, with `warmup`, only compiles) jit_fn over the grid; `expect`: the (signature,
    constexprs) a compiled kernel was made for, which this call must have (else nothing runs);
    `access`: on the interpreter, the array argument whose writers the result's "writers" holds
    (per element of its allocation, the first writing program's linear id + 1, uint32 bytes);
    `programs`: on the interpreter, run only these (ascending linear ids: a sample of the grid);
    `maxnreg`: Triton's, the registers a GPU thread may have (None: ptxas decides); `fp_fusion`:
    Triton's enable_fp_fusion, a product added or subtracted in its block fused into one fma on
    both engines (None: knobs.language.default_fp_fusion, True unless changed); `debug`: Triton's
    debug option (None: the jit's, else knobs.runtime.debug; debug_mode())."""
    # Triton's options check (CUDAOptions), its class and words; the range is the engines' own.
    if not (isinstance(num_warps, int) and num_warps > 0 and num_warps & (num_warps - 1) == 0):
        raise AssertionError("num_warps must be a power of 2")
    maxnreg = maxnreg or 0
    fp_fusion = default_fp_fusion() if fp_fusion is None else bool(fp_fusion)
    debug = debug_mode(jit_fn, debug)
    b = _binder(jit_fn)
    # Keywords that are not parameters are Triton's launch options (ignored); the rest bind as a
    # Python call would.
    named = {k: v for k, v in kwargs.items() if k in b.name_set}
    values = b.bind(*args, **named)
    o = tilevm.options
    # A warm launch of CUDA tensors on the GPU engine: the key, then the direct launcher (no
    # marshalling, no lookups in the extension); it declines (and the full path runs) when an
    # argument is not what it was specialized for.
    direct_key = unit_info = None
    if o["device"] != "cpu" and repeat == 1:
        unit_info = jit_fn._tilevm_unit()
        direct_key = _direct_key(b, values, unit_info[0], num_warps, num_stages, maxnreg, fp_fusion, debug, o)
        try:
            entry = b.direct.get(direct_key[0]) if direct_key else None
        except TypeError:  # an unhashable constexpr or option
            entry = direct_key = None
        if entry is not None:
            _expected(jit_fn, expect, entry.signature, entry.defines)
            if warmup:
                return entry.warm
            g = _grid(grid, b, values, kwargs)
            if entry.launcher.launch(g, direct_key[1], _current_stream(o["device"])):
                result = LaunchResult(entry.result, entry.warm["asm_source"])
                result["programs"], result["direct"] = g[0] * g[1] * g[2], True
                (result["bytecode_encodes"], result["prepares"], result["module_loads"],
                 result["cache_hits"]) = _tilevm.cache_counters()
                tilevm.last_launch = result
                return result
    grid = _grid(grid, b, values, kwargs)
    defines, entries, launch_args = {}, [], []
    functions = {}  # JIT functions given as arguments, by argument (path) name

    def argument(name, v, constexpr):
        if source_unit.jit_of(v) is not None or source_unit.triton_function(v):  # a constexpr, as in Triton: the kernel calls it
            functions[name] = v
            defines[name] = "@" + name
            return
        if _descriptor(v) and not constexpr:
            if "." in name:
                raise TypeError(f"argument '{name}': a tensor descriptor inside a tuple argument is not supported")
            entry, more = _descriptor_args(name, v)
            entries.append(entry)
            launch_args.extend(more)
            return
        if isinstance(v, tuple) and not constexpr:
            # A tuple argument, as Triton's: each element is passed as an argument would be, as
            # NAME.PATH (INDEX, or INDEX_FIELD for a named tuple's field); the kernel sees the tuple.
            if not v:
                defines[name] = "()"
            fields = getattr(type(v), "_fields", None)
            for i, e in enumerate(v):
                constant = type(e).__name__ == "constexpr" and type(e).__module__.startswith("triton")
                argument(f"{name}.{i}" + (f"_{fields[i]}" if fields else ""), e, constant)
            return
        scalar = isinstance(v, (int, float, bool)) or _numpy_scalar(v)
        info = None if (scalar or constexpr or v is None or isinstance(v, str)) else _array_info(v)
        if constexpr or v is None or isinstance(v, str) or (not scalar and info is None):
            defines[name] = define_text(name, v, constexpr)
            return
        if info is not None:
            addr, start, nbytes, dtype, numel, readonly, owner = info
            ty = _element_type(name, dtype)
            entries.append(f"{name}: *{ty}")
            # The buffer is the whole allocation the pointer lies in (bounds are checked against it).
            launch_args.append(("buffer", name, start, nbytes, ty, nbytes // _itemsize(ty), addr, bool(readonly), owner))
            return
        value = v.item() if _numpy_scalar(v) else v
        t = b.annotated.get(name)  # Triton types an annotated parameter by its annotation
        if t is not None:
            value = _annotated_value(name, value, t)
        else:
            t = _scalar_type(v)
        entries.append(f"{name}: {t}")
        launch_args.append(("float" if t.startswith(("fp", "bf")) else "int", name, value, t))

    for name, v, constexpr in zip(b.names, values, b.constexpr):
        argument(name, v, constexpr)
    signature = ", ".join(entries)
    _expected(jit_fn, expect, signature, defines)
    # Every launch option is checked by tilevm's one options checker (the CLI's messages).
    options = {name: o[name] for name in _tilevm.LAUNCH_OPTIONS if name in o}
    options.update(grid=grid, num_warps=num_warps, num_stages=num_stages, maxnreg=maxnreg, repeat=repeat)
    # The kernel compiles from its live source and the values its names hold (source_unit.py),
    # resolved once per source; the extension caches the compiled kernel per unit, signature and
    # constexprs.
    try:
        serial, unit = unit_info or jit_fn._tilevm_unit()  # resolved once per launch
        if functions:
            serial, unit = _unit_with(b, (serial, unit), functions)
        result = _tilevm.launch(jit_fn.source_path, jit_fn.__name__, signature, defines, [], launch_args, options,
                                unit=unit, unit_key=serial, stream=_current_stream(o["device"]), warmup=warmup,
                                access=access, programs=list(programs), fp_fusion=fp_fusion, debug=debug)
    except errors.CompilationError as e:
        errors.locate_in_function(e, jit_fn)
        # On the interpreter it is also Triton's InterpreterError, which Triton's interpreter
        # raises for the same kernel; the same object, cause and traceback.
        if o["device"] == "cpu" and type(e) in errors.INTERPRETER_CLASSES:
            e.__class__ = errors.INTERPRETER_CLASSES[type(e)]
        raise
    result["signature"], result["defines"] = signature, defines
    direct = result.pop("direct")
    result["direct"] = False  # this launch went the full way (a later one may go direct)
    source = (jit_fn, (serial, unit), signature, defines, launch_args, num_warps, num_stages, maxnreg, fp_fusion, debug,
              (result.get("gpu") or {}).get("arch"))
    result = LaunchResult(result, source)
    if warmup or direct is not None:  # what a warmup's compiled kernel is cached by
        result["spec"] = _specialization(launch_args)
    # What a warmup's result carries besides the launch's (JITFunction.warmup's compiled kernel).
    compiled = {"launch_args": launch_args, "asm_source": source, "maxnreg": maxnreg, "fp_fusion": fp_fusion}
    if direct is not None and direct_key is not None and not (result["findings"] or result["warnings"] or result["printed"]):
        # What a later warmup of the same key returns: a warmup's result, but for the grid.
        warm = {k: v for k, v in result.items() if k in ("signature", "defines", "spec", "gpu")}
        warm.update(compiled)
        b.direct[direct_key[0]] = _Direct(direct, signature, defines, warm, {k: v for k, v in result.items() if k != "gpu"})
    if warmup:  # compiled (and on the GPU engine loaded), nothing run
        result.update(compiled, grid=grid)
        return result
    tilevm.last_launch = result  # programs, seconds, copied_bytes (GPU engine), findings, warnings, notes, report
    if result["printed"]:
        print(result["printed"], end="")
    # Errors fail the launch; warnings (stores of undefined lanes) are Python warnings; notes
    # (benign races: identical values written by unordered programs) stay in last_launch["report"].
    if result["findings"] and not o["warn"]:
        raise tilevm.KernelError(result["report"], jit_fn.__name__)
    if result["findings"] or result["warnings"]:
        import warnings
        warnings.warn(f"tilevm: kernel {jit_fn.__name__}:\n{result['report']}")
    return result


def _current_stream(device):
    """torch's current CUDA stream on the GPU engine (Triton launches on it), else 0."""
    if device == "cpu":
        return 0
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # Triton's way: no Stream object made
    ordinal = int(device.split(":")[1]) if ":" in device else 0
    if raw is not None:
        return raw(ordinal)
    if not torch.cuda.is_available():
        return 0
    return torch.cuda.current_stream(ordinal).cuda_stream


def _specialization(launch_args):
    """What compiled code depends on beyond types: Triton's divisibility by 16 (pointers'
    addresses, integers' values) and integers equal to 1."""
    spec = []
    for a in launch_args:
        if a[0] == "buffer":
            spec.append(a[6] % 16 == 0)
        elif a[0] == "int":
            spec.append((int(a[2]) % 16 == 0, int(a[2]) == 1))
    return tuple(spec)


def _itemsize(ty):
    """Bytes per element of a tilevm dtype name (fp16, u32, i1, ...)."""
    return {"fp16": 2, "bf16": 2, "fp32": 4, "fp64": 8, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8,
            "u64": 8, "i1": 1, "fp8e5": 1, "fp8e4nv": 1, "fp8e4b15": 1, "fp8e5b16": 1, "fp8e4b8": 1}[ty]

"""triton.language.core for host code: the dtypes (named and grouped as Triton names them:
`tl.float16.name == "fp16"`, `dtype.SINT_TYPES`, ...), pointer types, `constexpr` and its
`constexpr_type`, and the host-side enums kernels are given (`ReductionOrdering`,
`PropagateNan`). Kernel bodies never run here: tilevm's frontend compiles them from source, and
reads these objects only as the values a kernel's globals and arguments hold."""
from enum import Enum


def must_use_result(x, s=True):
    """Triton's marker on a function whose result must be used (`@triton.must_use_result`, or
    `@triton.must_use_result("why")`): kept on the function; tilevm's frontend does not check it
    (docs/language.md)."""
    if isinstance(x, str):
        return lambda fn: must_use_result(fn, x)
    x._must_use_result = s
    return x


def _aggregate(cls):
    """Triton's @tl.core._aggregate (a class of tensors with @triton.jit methods, made in a
    kernel): not in tilevm's language; the class is returned as it is, and a kernel that uses it
    gets the frontend's located error naming it."""
    return cls


def _unwrap(v):
    return v.value if isinstance(v, constexpr) else v


class base_type:
    def __eq__(self, other):
        raise NotImplementedError("Types must implement __eq__")

    def __ne__(self, other):
        return not (self == other)


class base_value:
    pass


class tensor(base_value):
    """tl.tensor for host code: annotations (`x: tl.tensor`) and isinstance() outside kernels (no
    host value is one). Inside a kernel the frontend answers isinstance(x, tl.tensor) itself."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tl.tensor values exist only inside @triton.jit functions")


class constexpr_type(base_type):
    """The type of a compile-time value: equal when the values are."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and self.value == other.value

    def __repr__(self):
        return f"constexpr_type[{self.value}]"

    def __hash__(self):
        return hash(self.value)

    def mangle(self):
        return repr(self)


class constexpr(base_value):
    """A value known at compile time (a kernel's constexpr argument or global)."""

    def __init__(self, value=None):
        while isinstance(value, constexpr):
            value = value.value
        self.value = value
        self.type = constexpr_type(value)

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __hash__(self):
        return hash((self.value, self.type))

    def __index__(self):
        return self.value

    def __bool__(self):
        return bool(self.value)

    def __eq__(self, other):
        return self.value == _unwrap(other)

    def __ne__(self, other):
        return self.value != _unwrap(other)

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __str__(self):
        return str(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)


_BITS = {"int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
         "fp8e4b15": 8, "fp8e4nv": 8, "fp8e4b8": 8, "fp8e5": 8, "fp8e5b16": 8, "fp16": 16, "bf16": 16, "fp32": 32,
         "fp64": 64, "void": 0}
# (mantissa bits, exponent bias) of each floating-point type.
_FP = {"fp8e4b15": (3, 15), "fp8e4nv": (3, 7), "fp8e4b8": (3, 8), "fp8e5": (2, 15), "fp8e5b16": (2, 16), "fp16": (10, 15),
       "bf16": (7, 127), "fp32": (23, 127), "fp64": (52, 1023)}


class dtype(base_type):
    """A scalar type, by Triton's name (int1, int8...uint64, fp8e4nv, fp8e5, fp16, bf16, fp32,
    fp64, void), with Triton's groups and predicates."""

    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16", "fp16", "bf16", "fp32", "fp64"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    class SIGNEDNESS(Enum):
        SIGNED = 0
        UNSIGNED = 1

    class KIND(Enum):
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    def __init__(self, name):
        name = _unwrap(name)
        if not dtype.is_dtype(name):
            raise ValueError(f"unknown dtype {name!r}: expected one of "
                             f"{', '.join(dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES + dtype.OTHER_TYPES)}")
        self.name = name
        self.primitive_bitwidth = _BITS[name]
        self.itemsize = self.primitive_bitwidth // 8
        if name in dtype.SINT_TYPES or name in dtype.UINT_TYPES:
            self.int_signedness = dtype.SIGNEDNESS.SIGNED if name in dtype.SINT_TYPES else dtype.SIGNEDNESS.UNSIGNED
            self.int_bitwidth = self.primitive_bitwidth
        elif name in _FP:
            self.fp_mantissa_width, self.exponent_bias = _FP[name]

    @staticmethod
    def is_dtype(type_str):
        return type_str in dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES + dtype.OTHER_TYPES

    def is_fp8(self):
        return "fp8" in self.name

    def is_floating(self):
        return self.name in dtype.FP_TYPES

    def is_standard_floating(self):
        return self.name in dtype.STANDARD_FP_TYPES

    def is_int_signed(self):
        return self.name in dtype.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in dtype.UINT_TYPES

    def is_int(self):
        return self.name in dtype.SINT_TYPES + dtype.UINT_TYPES

    def is_bool(self):
        return self.name == "int1"

    def is_void(self):
        return self.name == "void"

    def __getattr__(self, name):
        # is_fp16(), is_uint32(), is_bf16(), ... : one predicate per type name, as Triton has.
        if name.startswith("is_") and dtype.is_dtype(name[3:]):
            return lambda: self.name == name[3:]
        raise AttributeError(f"'dtype' object has no attribute '{name}'")

    @staticmethod
    def is_block():
        return False

    @staticmethod
    def is_ptr():
        return False

    @staticmethod
    def is_const():
        return False

    def kind(self):
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        return dtype.KIND.INTEGRAL if self.is_int() else dtype.KIND.FLOATING

    def get_int_max_value(self):
        if self.is_int_signed():
            return 2**(self.int_bitwidth - 1) - 1
        if self.is_int_unsigned():
            return 2**self.int_bitwidth - 1
        raise TypeError(f"{self.name} is not an integer type")

    def get_int_min_value(self):
        if self.is_int_signed():
            return -(2**(self.int_bitwidth - 1))
        if self.is_int_unsigned():
            return 0
        raise TypeError(f"{self.name} is not an integer type")

    @property
    def scalar(self):
        return self

    def __eq__(self, other):
        other = _unwrap(other)
        return isinstance(other, dtype) and type(other) is type(self) and self.name == other.name

    def __hash__(self):
        return hash((self.name, ))

    def __str__(self):
        return self.name

    def codegen_name(self):
        if self.name.startswith("fp"):
            return "float" + self.name[2:]
        if self.name.startswith("bf"):
            return "bfloat" + self.name[2:]
        return self.name

    @property
    def cache_key_part(self):
        return self.name

    def __repr__(self):
        return f"triton.language.{self.codegen_name()}"

    def mangle(self):
        if self.is_int():
            return ("i" if self.int_signedness == dtype.SIGNEDNESS.SIGNED else "u") + str(self.int_bitwidth)
        return self.name


class pointer_type(dtype):
    """A pointer to `element_ty` (its name, as Triton's: `pointer<fp32>`)."""

    def __init__(self, element_ty, address_space=1, const=False):
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"element_ty has type `{type(element_ty).__name__}`; expected `dtype`.")
        self.element_ty, self.address_space, self.const = element_ty, address_space, const
        self.name = f"pointer<{element_ty}>" if not const else f"const_pointer<{element_ty}>"
        self.primitive_bitwidth, self.itemsize = 64, 8

    def is_ptr(self):
        return True

    def is_const(self):
        return self.const

    def __eq__(self, other):
        other = _unwrap(other)
        return isinstance(other, pointer_type) and self.element_ty == other.element_ty and \
            self.address_space == other.address_space and self.const == other.const

    def __hash__(self):
        return hash((self.name, self.address_space))

    def __repr__(self):
        return self.__str__()

    @property
    def scalar(self):
        return self

    def mangle(self):
        return f"P{self.element_ty.mangle()}"


class const:
    """Triton's `tl.const` annotation (a pointer the kernel does not store through)."""


void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e5 = dtype("fp8e5")
float8e5b16 = dtype("fp8e5b16")
float8e4nv = dtype("fp8e4nv")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)


def get_int_dtype(bitwidth, signed):
    return {(1, False): int1, (8, True): int8, (16, True): int16, (32, True): int32, (64, True): int64, (8, False): uint8,
            (16, False): uint16, (32, False): uint32, (64, False): uint64}[(bitwidth, bool(signed))]


def str_to_ty(name, c=None):
    """The dtype of a signature's type name (`*fp32` a pointer, `u1`/`i32`/`fp16` scalars), as
    Triton's str_to_ty reads them."""
    const = False
    if name[0] == "*":
        name = name[1:]
        const = False
        if name[0] == "k":
            name, const = name[1:], True
        return pointer_type(str_to_ty(name), const=const)
    if name == "constexpr":
        return constexpr_type(c)
    table = {"fp8e4nv": float8e4nv, "fp8e4b8": float8e4b8, "fp8e5": float8e5, "fp8e5b16": float8e5b16,
             "fp8e4b15": float8e4b15, "fp16": float16, "bf16": bfloat16, "fp32": float32, "fp64": float64, "i1": int1,
             "u1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64, "u8": uint8, "u16": uint16, "u32": uint32,
             "u64": uint64, "B": int1, "void": void}
    if name not in table:
        raise TypeError(f"str_to_ty: unknown type {name!r}")
    return table[name]


class ReductionOrderingBase:
    """How a reduction orders its additions (a kernel's reduction_ordering argument)."""


class ReductionOrdering(ReductionOrderingBase):
    """One reduction ordering strategy: ReductionOrdering.UNORDERED or .INNER_TREE."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, ReductionOrdering) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"ReductionOrdering.{self.name.upper()}"


ReductionOrdering.UNORDERED = ReductionOrdering("unordered")
ReductionOrdering.INNER_TREE = ReductionOrdering("inner_tree")


class PropagateNan(Enum):
    """Whether tl.minimum/tl.maximum propagate NaNs (Triton's ir.PROPAGATE_NAN)."""
    NONE = 0
    ALL = 0xFFFF

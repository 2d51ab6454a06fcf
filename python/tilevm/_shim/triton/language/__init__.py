"""triton.language for host code: `tl.constexpr` and the dtypes. Kernel bodies are compiled by
tilevm's frontend from the live function's source; these objects serve annotations, host code
and the values a kernel's globals hold (a `tl.constexpr(7)`, `tl.float16`)."""


class constexpr:
    def __init__(self, value=None):
        self.value = value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"


class dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"triton.language.{self.name}"

    def __str__(self):
        return self.name


for _name in ("int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
              "float32", "float64"):
    globals()[_name] = dtype(_name)
float8e5 = dtype("fp8e5")
float8e4nv = dtype("fp8e4nv")


def pointer_type(element_ty):
    return dtype(f"pointer<{element_ty}>")

"""triton._utils: type_canonicalisation_dict, the canonical short name of every dtype spelling
(`float16` -> `fp16`, `uint32` -> `u32`, `bool` -> `u1`), as Triton's signatures write them."""

type_canonicalisation_dict = {
    "bool": "u1", "int1": "u1", "uint1": "u1", "i1": "u1",
    "float8e4nv": "fp8e4nv", "float8e5": "fp8e5", "float8e4b15": "fp8e4b15", "float8_e4m3fn": "fp8e4nv",
    "float8e4b8": "fp8e4b8", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2": "fp8e5", "float8e5b16": "fp8e5b16",
    "float8_e5m2fnuz": "fp8e5b16", "float8_e8m0fnu": "u8",
    "half": "fp16", "float16": "fp16", "bfloat16": "bf16", "float": "fp32", "float32": "fp32", "double": "fp64",
    "float64": "fp64",
    "int8": "i8", "int16": "i16", "int": "i32", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "void": "void",
}
for _v in list(type_canonicalisation_dict.values()):
    type_canonicalisation_dict[_v] = _v


def canonicalize_dtype(dtype):
    """The canonical name of a dtype (a tl.dtype, a torch or NumPy dtype, or its name)."""
    return type_canonicalisation_dict[str(dtype).split(".")[-1]]

// Value.cpp - dtype names and value descriptions.
#include "frontend/Value.h"

#include <map>

namespace tilevm::frontend {

namespace {
std::string kindName(ir::ScalarKind k, bool u) {
  using ir::ScalarKind;
  switch (k) {
    case ScalarKind::I1: return "int1";
    case ScalarKind::I8: return u ? "uint8" : "int8";
    case ScalarKind::I16: return u ? "uint16" : "int16";
    case ScalarKind::I32: return u ? "uint32" : "int32";
    case ScalarKind::I64: return u ? "uint64" : "int64";
    case ScalarKind::F16: return "fp16";
    case ScalarKind::BF16: return "bf16";
    case ScalarKind::F32: return "fp32";
    case ScalarKind::F64: return "fp64";
    case ScalarKind::Ptr: return "pointer";
    case ScalarKind::F8E5: return "fp8e5";
    case ScalarKind::F8E4NV: return "fp8e4nv";
    case ScalarKind::F8E4B15: return "fp8e4b15";
    case ScalarKind::F8E5B16: return "fp8e5b16";
    case ScalarKind::F8E4B8: return "fp8e4b8";
  }
  return "?";
}
}  // namespace

std::string DType::name() const {
  if (isPtr()) return std::string(pointeeConst ? "const " : "") + "pointer<" + kindName(pointee, pointeeUnsigned) + ">";
  return kindName(kind, isUnsigned);
}

bool parseDTypeName(const std::string& raw, DType& out) {
  using ir::ScalarKind;
  if (!raw.empty() && raw[0] == '*') {
    if (raw.size() > 1 && raw[1] == '*') return false;  // no pointers to pointers (and no recursion per '*')
    DType e;
    if (!parseDTypeName(raw.substr(1), e) || e.isPtr()) return false;
    out = DType::ptrTo(e);
    return true;
  }
  static const std::map<std::string, DType> names = {
      {"int1", DType::of(ScalarKind::I1)},     {"i1", DType::of(ScalarKind::I1)},
      {"bool", DType::of(ScalarKind::I1)},     {"int8", DType::of(ScalarKind::I8)},
      {"i8", DType::of(ScalarKind::I8)},       {"int16", DType::of(ScalarKind::I16)},
      {"i16", DType::of(ScalarKind::I16)},     {"int32", DType::of(ScalarKind::I32)},
      {"i32", DType::of(ScalarKind::I32)},     {"int64", DType::of(ScalarKind::I64)},
      {"i64", DType::of(ScalarKind::I64)},     {"uint8", DType::of(ScalarKind::I8, true)},
      {"u8", DType::of(ScalarKind::I8, true)}, {"uint16", DType::of(ScalarKind::I16, true)},
      {"u16", DType::of(ScalarKind::I16, true)}, {"uint32", DType::of(ScalarKind::I32, true)},
      {"u32", DType::of(ScalarKind::I32, true)}, {"uint64", DType::of(ScalarKind::I64, true)},
      {"u64", DType::of(ScalarKind::I64, true)}, {"fp16", DType::of(ScalarKind::F16)},
      {"f16", DType::of(ScalarKind::F16)},     {"float16", DType::of(ScalarKind::F16)},
      {"bf16", DType::of(ScalarKind::BF16)},   {"bfloat16", DType::of(ScalarKind::BF16)},
      {"fp32", DType::of(ScalarKind::F32)},    {"f32", DType::of(ScalarKind::F32)},
      {"float32", DType::of(ScalarKind::F32)}, {"float", DType::of(ScalarKind::F32)},
      {"fp64", DType::of(ScalarKind::F64)},    {"f64", DType::of(ScalarKind::F64)},
      {"float64", DType::of(ScalarKind::F64)}, {"double", DType::of(ScalarKind::F64)},
      {"fp8e5", DType::of(ScalarKind::F8E5)},  {"float8e5", DType::of(ScalarKind::F8E5)},
      {"fp8e4nv", DType::of(ScalarKind::F8E4NV)}, {"float8e4nv", DType::of(ScalarKind::F8E4NV)},
      {"fp8e4b15", DType::of(ScalarKind::F8E4B15)}, {"float8e4b15", DType::of(ScalarKind::F8E4B15)},
      {"fp8e5b16", DType::of(ScalarKind::F8E5B16)}, {"float8e5b16", DType::of(ScalarKind::F8E5B16)},
      {"fp8e4b8", DType::of(ScalarKind::F8E4B8)}, {"float8e4b8", DType::of(ScalarKind::F8E4B8)},
      {"f8e5", DType::of(ScalarKind::F8E5)},    {"f8e4nv", DType::of(ScalarKind::F8E4NV)},
      {"f8e4b15", DType::of(ScalarKind::F8E4B15)}, {"f8e5b16", DType::of(ScalarKind::F8E5B16)},
      {"f8e4b8", DType::of(ScalarKind::F8E4B8)},
      {"float8_e5m2", DType::of(ScalarKind::F8E5)}, {"float8_e4m3fn", DType::of(ScalarKind::F8E4NV)},
      {"float8_e5m2fnuz", DType::of(ScalarKind::F8E5B16)}, {"float8_e4m3fnuz", DType::of(ScalarKind::F8E4B8)},
  };
  auto it = names.find(raw);
  if (it == names.end()) return false;
  out = it->second;
  return true;
}

std::string CV::describe() const {
  switch (kind) {
    case K::None: return "None";
    case K::Bool: return std::string("constexpr ") + (i ? "True" : "False");
    case K::Int: return "constexpr " + intText();
    case K::Float: return "constexpr " + std::to_string(f);
    case K::Str: return "string '" + s + "'";
    case K::DType: return "dtype " + dtype.name();
    case K::Tuple: return "tuple of " + std::to_string(elts.size());
    case K::Tensor:
      return value->type.isScalar() ? dtype.name() + " scalar" : value->type.str() + " (" + dtype.name() + ")";
    case K::Function: return "function " + fn->name;
    case K::Module: return "module " + s;
    case K::Builtin: return "builtin " + s;
    case K::Method: return "method " + s;
    case K::Slice: return "slice";
    case K::BlockPtr: return s == "block_ptr" ? "block pointer" : "tensor descriptor";
    case K::TupleType: return "named tuple type " + s;
    case K::Opaque: return s;
    case K::HostFunction: return "constexpr function " + s;
    case K::ConstexprType: return "constexpr_type[" + elts[0].describe() + "]";
  }
  return "?";
}

}  // namespace tilevm::frontend

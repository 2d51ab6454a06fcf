// Value.h - what a name holds while a kernel is lowered: Triton dtypes (with signedness, which
// the IR leaves to ops) and compile-time values (constexprs, dtypes, tensors, functions, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "frontend/Ast.h"
#include "ir/IR.h"

namespace tilevm::frontend {

/// A Triton dtype: an IR element kind plus signedness; pointers carry their pointee's.
struct DType {
  ir::ScalarKind kind = ir::ScalarKind::I32;
  bool isUnsigned = false;
  ir::ScalarKind pointee = ir::ScalarKind::I32;  ///< when kind == Ptr
  bool pointeeUnsigned = false;
  bool pointeeConst = false;  ///< a pointer to constant data (Triton's `tl.const` parameter): never stored to

  static DType of(ir::ScalarKind k, bool u = false) { return DType{k, u, ir::ScalarKind::I32, false, false}; }
  static DType ptrTo(const DType& e, bool isConst = false) { return DType{ir::ScalarKind::Ptr, false, e.kind, e.isUnsigned, isConst}; }
  bool isPtr() const { return kind == ir::ScalarKind::Ptr; }
  bool isInt() const { return kind <= ir::ScalarKind::I64; }
  bool isBool() const { return kind == ir::ScalarKind::I1; }
  /// f16, bf16, f32, f64: the kinds arithmetic computes in (Triton's is_floating() also
  /// holds for the fp8 dtypes, which are storage formats here: isFp8()).
  bool isFloat() const { return kind >= ir::ScalarKind::F16 && kind <= ir::ScalarKind::F64; }
  bool isFp8() const { return ir::isFp8(kind); }
  bool isSigned() const { return isInt() && !isUnsigned; }
  unsigned bits() const { return ir::bitWidth(kind); }
  DType element() const { return of(pointee, pointeeUnsigned); }
  ir::ElemType elem() const { return isPtr() ? ir::ElemType::ptrTo(pointee) : ir::ElemType{kind, ir::ScalarKind::I32}; }
  /// Triton's spelling: int32, uint8, fp16, bf16, pointer<fp32>.
  std::string name() const;
  bool operator==(const DType& o) const {
    return kind == o.kind && (!isInt() || isUnsigned == o.isUnsigned) &&
           (!isPtr() || (pointee == o.pointee && pointeeUnsigned == o.pointeeUnsigned && pointeeConst == o.pointeeConst));
  }
};

/// Parses a dtype name as Triton spells it (`fp32`, `float32`, `int8`, `uint32`, `bf16`, `i32`,
/// `f16`, `*fp16` for pointers). Returns false if unknown.
bool parseDTypeName(const std::string& name, DType& out);

struct CV;

/// Python called at compile time: a source unit's `@triton.constexpr_function`s, which Triton
/// runs in Python on constexpr arguments (the Python door supplies one; the CLI has none).
class HostCaller {
 public:
  virtual ~HostCaller() = default;
  /// Calls function `index` of the unit; its result as a compile-time value, or why not (the
  /// exception Python raised, or a result tilevm cannot use).
  virtual std::variant<CV, std::string> call(size_t index, const std::vector<CV>& args,
                                             const std::vector<std::pair<std::string, CV>>& kwargs) const = 0;
};

/// A compile-time value.
struct CV {
  enum class K {
    None,
    Bool,      ///< i
    Int,       ///< i
    Float,     ///< f
    Str,       ///< s
    DType,     ///< dtype
    Tuple,     ///< elts (tuples and lists)
    Tensor,    ///< value (an IR scalar or tile) and dtype (its element dtype)
    Function,  ///< fn: a @triton.jit function
    Module,    ///< s: a dotted module path (`triton.language`), or pymod: a project module
    Builtin,   ///< s: a builtin's canonical name (`tl.load`, `min`) ...
    Method,    ///< s: a tensor method name bound to elts[0] (`x.to`)
    Slice,     ///< elts: lower, upper, step (None where absent)
    BlockPtr,  ///< s: "block_ptr" or "tensor_descriptor"; ints: block shape; elts: base, then
               ///< shape, strides (i64 scalars) and, for block pointers, offsets (i32 scalars)
    TupleType,  ///< s: a named tuple class's name, fields: its fields (calling it makes one)
    Opaque,     ///< s: what a Python object tilevm cannot use is (`a uuid.UUID`), given for a
                ///< tl.constexpr parameter: naming it in the kernel is an error
    HostFunction,  ///< s: a @triton.constexpr_function's name, i: its index for host->call
    ConstexprType,  ///< elts[0]: the value; Triton's constexpr_type(v), a constexpr's `.type`
  };
  K kind = K::None;
  int64_t i = 0;
  bool u64 = false;  ///< Int: i's bits are an unsigned value from 2^63 to 2^64 - 1 (Triton types it uint64)
  double f = 0;
  std::string s;
  DType dtype;
  std::vector<CV> elts;
  ir::Value* value = nullptr;
  const FunctionDef* fn = nullptr;
  const PyModule* pymod = nullptr;
  std::vector<int64_t> ints;
  std::vector<std::string> fields;  ///< a named tuple's field names, one per element (Tuple)
  const HostCaller* host = nullptr;  ///< HostFunction: who calls it

  static CV none() { return CV{}; }
  static CV boolean(bool b) { CV v; v.kind = K::Bool; v.i = b; return v; }
  static CV integer(int64_t x) { CV v; v.kind = K::Int; v.i = x; return v; }
  /// How errors name the range pythonInt() holds.
  static constexpr const char* kIntRange = "Triton's constexpr integers: -2^63 to 2^64 - 1";
  /// A Python integer, if Triton can hold it: -2^63 to 2^64 - 1 (past INT64_MAX, a uint64).
  static std::optional<CV> pythonInt(__int128 x) {
    if (x < __int128(INT64_MIN) || x > __int128(UINT64_MAX)) return std::nullopt;
    CV v = integer(int64_t(uint64_t(x)));
    v.u64 = x > __int128(INT64_MAX);
    return v;
  }
  static CV real(double x) { CV v; v.kind = K::Float; v.f = x; return v; }
  static CV str(std::string x) { CV v; v.kind = K::Str; v.s = std::move(x); return v; }
  static CV type(DType t) { CV v; v.kind = K::DType; v.dtype = t; return v; }
  static CV tensor(ir::Value* val, DType t) { CV v; v.kind = K::Tensor; v.value = val; v.dtype = t; return v; }
  static CV tuple(std::vector<CV> e) { CV v; v.kind = K::Tuple; v.elts = std::move(e); return v; }
  static CV builtin(std::string n) { CV v; v.kind = K::Builtin; v.s = std::move(n); return v; }
  static CV module(std::string p) { CV v; v.kind = K::Module; v.s = std::move(p); return v; }
  /// Triton's constexpr_type(value): what a constexpr's `.type` is.
  static CV constexprType(CV value) { CV v; v.kind = K::ConstexprType; v.elts.push_back(std::move(value)); return v; }

  bool isTensor() const { return kind == K::Tensor; }
  bool isNumber() const { return kind == K::Int || kind == K::Float || kind == K::Bool; }
  /// A Python number or bool known at compile time.
  bool isConstexpr() const { return isNumber(); }
  double asDouble() const { return kind == K::Float ? f : u64 ? double(uint64_t(i)) : double(i); }
  /// An Int's or Bool's exact value (a u64 one past INT64_MAX too).
  __int128 wide() const { return u64 ? __int128(uint64_t(i)) : __int128(i); }
  /// An Int's value as Python prints it.
  std::string intText() const { return u64 ? std::to_string(uint64_t(i)) : std::to_string(i); }
  const ir::Type& type() const { return value->type; }
  /// Human description for errors: "int32 scalar", "tile<64xf32> (fp32)", "constexpr 3", ...
  std::string describe() const;
};

}  // namespace tilevm::frontend

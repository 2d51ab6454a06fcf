// Types.h - element types and tile types of the tile IR (scalars are rank-0 tiles).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tilevm::ir {

/// The kind of one element. `Ptr` is a global-memory pointer whose pointee is a non-pointer kind.
/// The fp8 kinds (Triton's float8e5 = e5m2, float8e4nv = e4m3fn, float8e4b15, float8e5b16 =
/// e5m2fnuz, float8e4b8 = e4m3fnuz) are storage formats: loaded, stored, bitcast, converted to
/// and from the wider floats, and dot operands; no arithmetic computes in them (isFloat() is false).
enum class ScalarKind : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64, Ptr, F8E5, F8E4NV, F8E4B15, F8E5B16, F8E4B8 };

/// Largest tile rank and element count the IR accepts (Triton's TRITON_MAX_TENSOR_NUMEL). Triton
/// sets no rank limit; its own tests reshape to rank 9, and 12 leaves room past that.
inline constexpr unsigned kMaxRank = 12;
inline constexpr int64_t kMaxTileElements = int64_t(1) << 20;
/// Largest unroll factor a loop may ask for (Triton's loop_unroll_factor; code size multiplies).
inline constexpr int64_t kMaxUnrollFactor = 64;

/// An element type: a scalar kind, or `ptr<pointee>`.
struct ElemType {
  ScalarKind kind = ScalarKind::I32;
  ScalarKind pointee = ScalarKind::I32;  ///< meaningful only when kind == Ptr

  static ElemType ptrTo(ScalarKind p) { return {ScalarKind::Ptr, p}; }
  bool isInt() const { return kind <= ScalarKind::I64; }
  bool isFloat() const { return kind >= ScalarKind::F16 && kind <= ScalarKind::F64; }
  bool isPtr() const { return kind == ScalarKind::Ptr; }
  /// One of the 8-bit float storage formats.
  bool isFp8() const { return kind >= ScalarKind::F8E5; }
  /// Bits per element (pointers are 64-bit).
  unsigned bitWidth() const;
  bool operator==(const ElemType& o) const {
    return kind == o.kind && (kind != ScalarKind::Ptr || pointee == o.pointee);
  }
};

/// Bits of a non-pointer scalar kind.
unsigned bitWidth(ScalarKind k);
/// Text name of a non-pointer kind ("i32", "bf16"); nullopt for Ptr.
std::string_view scalarName(ScalarKind k);
/// Inverse of scalarName.
std::optional<ScalarKind> scalarFromName(std::string_view name);
/// True for the fp8 storage kinds.
inline bool isFp8(ScalarKind k) { return k >= ScalarKind::F8E5; }

/// A dot of f16 inputs into an f16 accumulator (Triton's `out_dtype=float16`) accumulates in
/// f16, as the tensor cores do: each kHalfAccumulationStep elements of K are summed in f32 from
/// zero, then added to the accumulator in f32 and rounded to f16. Every other dot accumulates in
/// f32 (f64, i32) and rounds once, at the end. Both engines follow this; docs/ir.md.
inline constexpr int64_t kHalfAccumulationStep = 16;
inline bool accumulatesInHalf(ScalarKind in, ScalarKind acc) { return in == ScalarKind::F16 && acc == ScalarKind::F16; }

/// The layout of an fp8 kind: exponent and mantissa bits, exponent bias, whether the all-ones
/// exponent holds inf/NaN as in IEEE (e5m2), only NaN at all-ones mantissa (e4m3fn, e4b15), or
/// whether the only NaN is the negative-zero pattern 0x80 (the fnuz kinds, which have no -0).
struct Fp8Format {
  unsigned expBits, manBits;
  int bias;
  enum Special : uint8_t { Ieee, NanOnlyAllOnes, Fnuz } special;
};
/// Format of an fp8 kind (k must be one).
Fp8Format fp8Format(ScalarKind k);

/// A value's type: an element type and a static row-major shape of rank 0 (scalar) to kMaxRank.
class Type {
 public:
  Type() = default;
  explicit Type(ElemType elem) : elem_(elem) {}
  Type(ElemType elem, std::span<const int64_t> shape);
  static Type scalar(ScalarKind k) { return Type(ElemType{k, ScalarKind::I32}); }
  static Type tile(ScalarKind k, std::span<const int64_t> shape) { return Type(ElemType{k, ScalarKind::I32}, shape); }

  const ElemType& elem() const { return elem_; }
  unsigned rank() const { return rank_; }
  bool isScalar() const { return rank_ == 0; }
  std::span<const int64_t> shape() const { return {dims_.data(), rank_}; }
  int64_t dim(unsigned i) const { return dims_[i]; }
  /// Number of elements (1 for a scalar).
  int64_t numElements() const;
  bool isInt() const { return elem_.isInt(); }
  bool isFloat() const { return elem_.isFloat(); }
  bool isPtr() const { return elem_.isPtr(); }
  bool isFp8() const { return elem_.isFp8(); }

  Type withElem(ElemType e) const { Type t = *this; t.elem_ = e; return t; }
  Type withElem(ScalarKind k) const { return withElem(ElemType{k, ScalarKind::I32}); }
  Type withShape(std::span<const int64_t> shape) const { return Type(elem_, shape); }
  bool sameShape(const Type& o) const;
  bool operator==(const Type& o) const { return elem_ == o.elem_ && sameShape(o); }

  /// Text form: `f32`, `ptr<f16>`, `tile<64x64xf32>`.
  std::string str() const;

 private:
  ElemType elem_;
  uint8_t rank_ = 0;
  std::array<int64_t, kMaxRank> dims_{};
};

/// Text form of an element type.
std::string elemTypeStr(ElemType e);

}  // namespace tilevm::ir

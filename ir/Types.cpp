// Types.cpp - element and tile type helpers.
#include "ir/Types.h"

#include <cassert>

namespace tilevm::ir {

namespace {
struct KindName { ScalarKind kind; std::string_view name; unsigned bits; };
constexpr KindName kKinds[] = {
    {ScalarKind::I1, "i1", 1},    {ScalarKind::I8, "i8", 8},     {ScalarKind::I16, "i16", 16},
    {ScalarKind::I32, "i32", 32}, {ScalarKind::I64, "i64", 64},  {ScalarKind::F16, "f16", 16},
    {ScalarKind::BF16, "bf16", 16}, {ScalarKind::F32, "f32", 32}, {ScalarKind::F64, "f64", 64},
    {ScalarKind::F8E5, "f8e5", 8}, {ScalarKind::F8E4NV, "f8e4nv", 8}, {ScalarKind::F8E4B15, "f8e4b15", 8},
    {ScalarKind::F8E5B16, "f8e5b16", 8}, {ScalarKind::F8E4B8, "f8e4b8", 8},
};
}  // namespace

unsigned bitWidth(ScalarKind k) {
  for (const auto& kn : kKinds)
    if (kn.kind == k) return kn.bits;
  return 64;  // Ptr
}

Fp8Format fp8Format(ScalarKind k) {
  switch (k) {
    case ScalarKind::F8E5: return {5, 2, 15, Fp8Format::Ieee};
    case ScalarKind::F8E4NV: return {4, 3, 7, Fp8Format::NanOnlyAllOnes};
    case ScalarKind::F8E4B15: return {4, 3, 15, Fp8Format::NanOnlyAllOnes};
    case ScalarKind::F8E5B16: return {5, 2, 16, Fp8Format::Fnuz};
    case ScalarKind::F8E4B8: return {4, 3, 8, Fp8Format::Fnuz};
    default: break;
  }
  assert(false && "fp8Format of a non-fp8 kind");
  return {5, 2, 15, Fp8Format::Ieee};
}

unsigned ElemType::bitWidth() const { return ir::bitWidth(kind); }

std::string_view scalarName(ScalarKind k) {
  for (const auto& kn : kKinds)
    if (kn.kind == k) return kn.name;
  return "ptr";
}

std::optional<ScalarKind> scalarFromName(std::string_view name) {
  for (const auto& kn : kKinds)
    if (kn.name == name) return kn.kind;
  return std::nullopt;
}

Type::Type(ElemType elem, std::span<const int64_t> shape) : elem_(elem) {
  assert(shape.size() <= kMaxRank && "rank checked by the caller");
  rank_ = static_cast<uint8_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) dims_[i] = shape[i];
}

int64_t Type::numElements() const {
  int64_t n = 1;
  for (unsigned i = 0; i < rank_; ++i) n *= dims_[i];
  return n;
}

bool Type::sameShape(const Type& o) const {
  if (rank_ != o.rank_) return false;
  for (unsigned i = 0; i < rank_; ++i)
    if (dims_[i] != o.dims_[i]) return false;
  return true;
}

std::string elemTypeStr(ElemType e) {
  if (e.isPtr()) return "ptr<" + std::string(scalarName(e.pointee)) + ">";
  return std::string(scalarName(e.kind));
}

std::string Type::str() const {
  if (rank_ == 0) return elemTypeStr(elem_);
  std::string s = "tile<";
  for (unsigned i = 0; i < rank_; ++i) s += std::to_string(dims_[i]) + "x";
  return s + elemTypeStr(elem_) + ">";
}

}  // namespace tilevm::ir

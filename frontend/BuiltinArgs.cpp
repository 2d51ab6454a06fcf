// BuiltinArgs.cpp - argument binding for builtins.
#include "frontend/BuiltinArgs.h"

#include <algorithm>

namespace tilevm::frontend {

Args::Args(Lowerer& L, CallArgs& call, const std::string& fn, std::initializer_list<const char*> names)
    : L_(L), call_(call), fn_(fn) {
  size_t varargAt = SIZE_MAX;
  for (const char* n : names) {
    if (std::string(n) == "*") {
      varargAt = names_.size();
      continue;
    }
    names_.push_back(n);
  }
  values_.resize(names_.size());
  bound_.assign(names_.size(), false);
  exprs_.assign(names_.size(), nullptr);
  for (size_t i = 0; i < call.pos.size(); ++i) {
    size_t slot = i;
    if (varargAt != SIZE_MAX && i >= varargAt) {
      rest_.push_back(call.pos[i]);
      continue;
    }
    if (slot >= names_.size())
      L.fail(*call.site, fn + "() takes at most " + std::to_string(names_.size()) + " positional arguments but " +
                             std::to_string(call.pos.size()) + " were given");
    values_[slot] = call.pos[i];
    bound_[slot] = true;
    exprs_[slot] = i < call.posExprs.size() ? call.posExprs[i] : nullptr;
  }
  for (const auto& [name, v] : call.kw) {
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end()) L.fail(*call.site, fn + "() got an unexpected keyword argument '" + name + "'");
    size_t slot = size_t(it - names_.begin());
    if (bound_[slot]) L.fail(*call.site, fn + "() got multiple values for argument '" + name + "'");
    values_[slot] = v;
    bound_[slot] = true;
  }
}

const CV& Args::get(size_t i) const {
  if (!has(i)) L_.fail(*call_.site, fn_ + "() missing required argument '" + names_[i] + "'");
  return values_[i];
}

int64_t Args::intArg(size_t i) const {
  const CV& v = get(i);
  if (v.kind != CV::K::Int && v.kind != CV::K::Bool)
    L_.fail(at(i), "argument '" + names_[i] + "' of " + fn_ + "() must be a constexpr integer, got " + v.describe());
  if (v.u64) L_.fail(at(i), "argument '" + names_[i] + "' of " + fn_ + "() must fit int64, got " + v.describe());
  return v.i;
}

bool Args::boolOr(size_t i, bool fallback) const {
  if (!has(i)) return fallback;
  const CV& v = get(i);
  if (!v.isNumber()) L_.fail(at(i), "argument '" + names_[i] + "' of " + fn_ + "() must be a constexpr bool");
  return v.asDouble() != 0;
}

std::string Args::strOr(size_t i, std::string fallback) const {
  if (!has(i)) return fallback;
  const CV& v = get(i);
  if (v.kind != CV::K::Str) L_.fail(at(i), "argument '" + names_[i] + "' of " + fn_ + "() must be a string");
  return v.s;
}

std::vector<int64_t> Args::shapeArg(size_t i) const {
  const CV& v = get(i);
  std::vector<int64_t> shape;
  auto dim = [&](const CV& d) {
    if (d.kind != CV::K::Int) L_.fail(at(i), "shape dimensions of " + fn_ + "() must be constexpr integers, got " + d.describe());
    if (d.i <= 0 || d.u64) L_.fail(at(i), "shape dimensions must be positive and fit int64, got " + d.describe());
    shape.push_back(d.i);
  };
  if (v.kind == CV::K::Tuple) for (const CV& d : v.elts) dim(d);
  else dim(v);
  if (shape.size() > ir::kMaxRank) L_.fail(at(i), "tiles are limited to rank " + std::to_string(ir::kMaxRank));
  L_.checkTileShape(shape, at(i), "tl." + fn_);
  return shape;
}

DType Args::dtypeArg(size_t i) const {
  const CV& v = get(i);
  if (v.kind != CV::K::DType) L_.fail(at(i), "argument '" + names_[i] + "' of " + fn_ + "() must be a dtype, got " + v.describe());
  return v.dtype;
}

void requireF32OrF64(Lowerer& L, const CV& x, const Expr& at, bool f32Only) {
  if (x.isTensor() && x.dtype.kind != ir::ScalarKind::F32 && (f32Only || x.dtype.kind != ir::ScalarKind::F64))
    L.fail(at, std::string("Expected dtype ") + (f32Only ? "['fp32']" : "['fp32', 'fp64']") + " but got " + x.dtype.name());
}

}  // namespace tilevm::frontend

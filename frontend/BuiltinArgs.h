// BuiltinArgs.h - binds a builtin call's positional and keyword arguments to parameter names,
// with Triton's error messages for missing and unexpected arguments.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "frontend/Lowerer.h"

namespace tilevm::frontend {

/// Arguments of one builtin call, bound by name. Parameters after `*` in `names` collect the
/// remaining positional arguments (`rest()`).
class Args {
 public:
  Args(Lowerer& L, CallArgs& call, const std::string& fn, std::initializer_list<const char*> names);

  bool has(size_t i) const { return i < bound_.size() && bound_[i] && values_[i].kind != CV::K::None; }
  const CV& get(size_t i) const;
  CV getOr(size_t i, CV fallback) const { return has(i) ? values_[i] : fallback; }
  /// Whether argument i was passed, None included (has() counts None as absent).
  bool given(size_t i) const { return i < bound_.size() && bound_[i]; }
  /// Argument i as passed, None included; a missing one is an error.
  const CV& value(size_t i) const { return given(i) ? values_[i] : get(i); }
  /// The source expression of argument i (the call site if it was a keyword or default).
  const Expr& at(size_t i) const { return i < exprs_.size() && exprs_[i] ? *exprs_[i] : *call_.site; }
  const Expr& site() const { return *call_.site; }
  const std::vector<CV>& rest() const { return rest_; }
  /// A constexpr integer argument.
  int64_t intArg(size_t i) const;
  int64_t intOr(size_t i, int64_t fallback) const { return has(i) ? intArg(i) : fallback; }
  bool boolOr(size_t i, bool fallback) const;
  std::string strOr(size_t i, std::string fallback) const;
  /// A shape: a constexpr int or a tuple/list of them.
  std::vector<int64_t> shapeArg(size_t i) const;
  DType dtypeArg(size_t i) const;
  /// A tensor argument (numbers are turned into tensors of their default dtype).
  CV tensor(size_t i) const { return L_.toTensor(get(i), at(i)); }

 private:
  Lowerer& L_;
  CallArgs& call_;
  std::string fn_;
  std::vector<std::string> names_;
  std::vector<CV> values_;
  std::vector<bool> bound_;
  std::vector<const Expr*> exprs_;
  std::vector<CV> rest_;
};

/// Triton's math functions accept only fp32 and fp64 tensors (its _check_dtype; with `f32Only`,
/// fp32 alone, as libdevice's fast_* forms): a located error in its words otherwise.
void requireF32OrF64(Lowerer& L, const CV& x, const Expr& at, bool f32Only = false);

}  // namespace tilevm::frontend

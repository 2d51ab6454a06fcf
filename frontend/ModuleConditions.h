// ModuleConditions.h - decides a module-level `if` condition without running Python, exactly or
// not at all: literals, module constants, comparisons, `not`/`and`/`or`, small arithmetic.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "frontend/Ast.h"

namespace tilevm::frontend {

/// What the module reader knows of a name when a condition reads it.
struct ConditionName {
  const Expr* constant = nullptr;  ///< the value expression of its one unconditional `NAME = expr`
  std::string module;              ///< or: the dotted module a plain `import` binds it to
};

/// A condition's truth, or why it cannot be known without running Python.
struct ConditionDecision {
  std::optional<bool> value;  ///< set when decided exactly as Python would
  std::string reason;         ///< otherwise: what Python computes that the reader cannot
};

/// The version the `triton` stand-in reports (python/tilevm/_shim/triton/__init__.py), so that
/// `if triton.__version__ >= "3.0.0":` takes the branch it takes under `python3 -m tilevm`.
inline constexpr const char* kStandInTritonVersion = "3.6.0+tilevm";

/// Decides `test`; `lookup` tells what a module-level name is bound to at that point.
ConditionDecision decideCondition(const Expr& test, const std::function<ConditionName(const std::string&)>& lookup);

}  // namespace tilevm::frontend

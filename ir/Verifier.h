// Verifier.h - checks a module: arity, types, shapes, broadcast rules, dominance, terminators.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::ir {

/// All problems found (at most a few dozen), each at the offending op's source location.
/// Empty means the module is valid; engines and codegen only ever see verified modules.
std::vector<Diagnostic> verify(const Module& m);

/// The type and attribute rules of one op, in isolation (operands assumed well-formed).
/// Returns the problem, or nullopt. Used by verify(); exposed for unit tests.
std::optional<std::string> checkOpTypes(const Op& op);

}  // namespace tilevm::ir

// BuiltinTable.h - the registry of builtin functions, filled by Builtins.cpp (creation, shape,
// memory, atomics, debug, Python builtins) and BuiltinsMath.cpp (math, reductions, scans, dot).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "frontend/BuiltinArgs.h"

namespace tilevm::frontend {

/// Lowers one builtin call.
using BuiltinFn = std::function<CV(Lowerer&, CallArgs&)>;
using BuiltinTable = std::map<std::string, BuiltinFn>;

void registerCoreBuiltins(BuiltinTable& t);
void registerMathBuiltins(BuiltinTable& t);
/// The table, built once.
const BuiltinTable& builtins();

}  // namespace tilevm::frontend

// BuiltinTable.h - the registry of builtin functions, filled by Builtins.cpp (creation, casts,
// memory, atomics, Python builtins), BuiltinsDebug.cpp (checks and prints), BuiltinsShape.cpp
// (shapes), BuiltinsMath.cpp (math, reductions, scans, dot), BuiltinsLibdevice.cpp (libdevice)
// and BuiltinsMap.cpp (map_elementwise, inline_asm_elementwise).
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
/// broadcast, expand_dims, reshape, permute, trans, flip, join, split, cat (BuiltinsShape.cpp).
void registerShapeBuiltins(BuiltinTable& t);
void registerMathBuiltins(BuiltinTable& t);
/// libdevice's functions beyond tl.math's (BuiltinsLibdevice.cpp).
void registerLibdeviceBuiltins(BuiltinTable& t);
/// static_assert, static_print, device_print, device_assert, assume, debug_barrier (BuiltinsDebug.cpp).
void registerDebugBuiltins(BuiltinTable& t);
/// map_elementwise, inline_asm_elementwise (BuiltinsMap.cpp).
void registerMapBuiltins(BuiltinTable& t);
/// Python's `math` module on compile-time numbers (BuiltinsPyMath.cpp).
void registerPythonMath(BuiltinTable& t);
/// `math.pi`, `math.e`, `math.tau`, `math.inf`, `math.nan`.
bool pythonMathConstant(const std::string& name, CV& out);
/// The table, built once.
const BuiltinTable& builtins();

}  // namespace tilevm::frontend

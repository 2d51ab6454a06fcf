// CompileFunction.h - the frontend's common last step: one parsed @triton.jit function, with
// command-line style constexprs and signature, lowered and verified (every entry point ends here).
#pragma once

#include <memory>

#include "frontend/Ast.h"
#include "frontend/Compile.h"

namespace tilevm::frontend {

class ModuleLoader;

/// Lowers `fn` (its names resolve in fn.module) with `opts.defines` and `opts.signature` and
/// verifies the module; `loader` finds project imports (null: none resolve). `opts.kernel`,
/// `includeDirs` and `sources` are not read.
Result<std::unique_ptr<ir::Module>> compileFunction(const FunctionDef& fn, ModuleLoader* loader, const CompileOptions& opts);

}  // namespace tilevm::frontend

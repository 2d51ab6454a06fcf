// Builtins.h - the names the lowering resolves outside user code: Python builtins, the
// triton / triton.language namespaces (functions, dtypes, submodules) and tensor methods.
#pragma once

#include <optional>
#include <string>

#include "frontend/Lowerer.h"

namespace tilevm::frontend {

/// True for Python builtins usable in kernels (range, min, max, float, int, len, ...).
bool isPythonBuiltin(const std::string& name);
/// True for methods of tensors (x.to, x.reshape, x.sum, ...).
bool isTensorMethod(const std::string& name);
/// Resolves a dotted path from an import (`triton.language.float32`, `triton.cdiv`, ...) to a
/// dtype, builtin function or module.
CV resolvePath(const std::string& path, const Expr& at, const Lowerer& L);
/// Calls tensor method `name` on `self` with no further arguments.
CV callMethod(Lowerer& L, const std::string& name, const CV& self, const Expr& at);
/// True when a parameter is annotated `tl.constexpr`.
bool isConstexprParam(const Param& p);
/// Whether a parameter is annotated `tl.const` (a pointer the kernel only reads).
bool isConstParam(const Param& p);
/// The scalar dtype a runtime parameter's annotation names, as Triton's _normalize_ty reads it:
/// `tl.int64`, `triton.language.float16`, or the name as a string ("tl.uint8", "i64"). nullopt
/// for any other annotation (`torch.Tensor`, `int`), which Triton ignores too.
std::optional<DType> annotatedDType(const Param& p);

}  // namespace tilevm::frontend

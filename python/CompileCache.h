// CompileCache.h - the extension's compiled kernels: compiled from a file or from a live
// function's source unit (python/tilevm/source_unit.py), once per source, signature and
// constexprs, for the process; a kernel that does not compile is Triton's CompilationError.
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/Types.h"
#include "runtime/Launch.h"

namespace tilevm::py_ext {

/// A compiled kernel as launches use it.
struct Compiled {
  rt::LoadedKernel loaded;  ///< the module, its kernel and its key (computed once, here)
  /// Per parameter: may the kernel store through it? (nullopt: any pointer may be written)
  std::optional<std::vector<bool>> written;
};

/// The kernel `kernel` of the file at `path`, compiled with these signature, constexprs and
/// include directories and launch flags (Triton's enable_fp_fusion and num_warps; cached).
std::shared_ptr<Compiled> compile(const std::string& path, const std::string& kernel, const std::string& signature,
                                  const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes,
                                  const frontend::LaunchFlags& flags = {});
/// A kernel compiled from a live function's source unit: parsed once per unit (`key`, which
/// changes when the source does), compiled once per signature and constexprs.
std::shared_ptr<Compiled> compileUnit(int64_t key, const pybind11::handle& unit, const std::string& signature,
                                      const std::map<std::string, std::string>& defines,
                                      const frontend::LaunchFlags& flags = {});
/// The element kind of a dtype as tilevm spells it (fp16, i32, ...); ValueError for another.
ir::ScalarKind kindOf(const std::string& dtype);

}  // namespace tilevm::py_ext

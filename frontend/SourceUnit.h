// SourceUnit.h - a kernel as Python's JIT holds it: the live function's source text (and its
// helpers'), with the names it uses already evaluated by Python. The Python door compiles
// from this; nothing is read from disk and no module-level code is guessed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/Compile.h"
#include "frontend/Value.h"

namespace tilevm::frontend {

/// What one name of a function's namespace (its globals and closure) held when Python looked.
struct HostValue {
  enum class K {
    None,
    Bool,         ///< i
    Int,          ///< i (u64: its bits are unsigned, 2^63 to 2^64 - 1)
    Float,        ///< f
    Str,          ///< s
    DType,        ///< s: the dtype's name (float16, int32, fp8e5, ...)
    Module,       ///< s: a module tilevm knows by its dotted name (triton.language, math, ...)
    Namespace,    ///< s: the module's name, ref: the table of its attributes the kernels use
    Function,     ///< ref: a @triton.jit function of the unit
    NamedTuple,   ///< s: "NAME:FIELD,FIELD,...": a named tuple class (typing.NamedTuple, namedtuple)
    ConstexprFunction,  ///< s: its name, ref: its index for SourceUnit::caller (@triton.constexpr_function)
    Unsupported,  ///< s: what it is (`a torch.Tensor`): an error where a kernel uses it
  };
  K kind = K::None;
  int64_t i = 0;
  bool u64 = false;
  double f = 0;
  std::string s;
  size_t ref = 0;
};

/// One function's source, as the JIT function holds it (`fn.src`: dedented, from `def`).
struct FunctionSource {
  std::string text;
  std::string file;        ///< where it was defined (`<string>` for exec-built code)
  uint32_t firstLine = 1;  ///< the line of `def` in `file`
  uint32_t indent = 0;     ///< the columns the text was dedented by
  size_t table = 0;        ///< its namespace: an index into SourceUnit::tables
};

/// A kernel and everything it uses. functions[0] is the kernel.
struct SourceUnit {
  std::vector<FunctionSource> functions;
  /// Namespaces: a function's globals and closure, or a module's attributes, name -> value.
  std::vector<std::map<std::string, HostValue>> tables;
  /// Calls the unit's constexpr functions in Python (null: naming one is an error).
  std::shared_ptr<const HostCaller> caller;
};

/// Names as the lowering sees them: what a namespace's values become.
struct HostNames {
  std::map<std::string, CV> values;
  std::map<std::string, std::string> unsupported;  ///< name -> what it is
  std::string what;                                ///< "module NAME", for attribute errors
};

/// A source unit parsed once (each function's source once); compiled any number of times.
class LoadedUnit {
 public:
  /// Parses every function of `unit`; an error is the first function that does not tokenize
  /// (syntax outside the subset is reported when the function is used, as Triton does).
  static Result<std::unique_ptr<LoadedUnit>> load(const SourceUnit& unit);
  ~LoadedUnit();

  /// The kernel's name and parameters.
  const std::string& kernelName() const;
  std::vector<ParamInfo> params() const;
  /// Lowers and verifies the kernel (opts.kernel, includeDirs and sources are not read).
  Result<std::unique_ptr<ir::Module>> compile(const CompileOptions& opts) const;
  /// The functions' source lines at their places in their files, to show in diagnostics.
  void addTexts(SourceManager& sources) const;

 private:
  LoadedUnit() = default;
  std::vector<std::unique_ptr<PyModule>> modules_;  ///< one per function, then one per namespace module
  std::vector<std::unique_ptr<HostNames>> names_;   ///< one per table
  std::map<std::string, std::vector<std::string>> lines_;
  std::shared_ptr<const HostCaller> caller_;  ///< the unit's constexpr functions' caller, kept alive
};

}  // namespace tilevm::frontend

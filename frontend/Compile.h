// Compile.h - the frontend's entry point: a Python kernel file to a verified tile IR module.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Diagnostics.h"
#include "ir/IR.h"

namespace tilevm::frontend {

/// The launch options that change what the frontend builds (so part of every compiled kernel's
/// cache key).
struct LaunchFlags {
  /// Triton's enable_fp_fusion: an f32/f64 product added or subtracted in the same block becomes
  /// one fma (both engines then round once where Triton's GPU code does).
  bool fpFusion = false;
  /// Triton's num_warps: what tl.extra.cuda.num_warps() gives (and num_threads(), 32 per warp).
  unsigned numWarps = 4;
  /// Triton's debug (TRITON_DEBUG, jit(debug=True), a launch's debug=True): integer +, - and *
  /// under 64 bits written as Python operators or tl.add/sub/mul assert that their result fits,
  /// as Triton's sanitize_overflow does in debug mode.
  bool debug = false;
  auto operator<=>(const LaunchFlags&) const = default;
};

/// What to compile from a file.
struct CompileOptions {
  std::string kernel;                          ///< the @triton.jit function to lower
  std::map<std::string, std::string> defines;  ///< -D NAME=VALUE: constexpr values, as text
  std::string signature;                       ///< "x: *fp32, n: i32": runtime parameter types
  std::vector<std::string> includeDirs;        ///< -I: where absolute imports are looked for first
  SourceManager* sources = nullptr;            ///< if set, receives the text of every file read
  /// Receives each line tl.static_print writes (Python's print of its values, as Triton's); unset:
  /// the line goes to stderr after the call's file:line (the CLI's stdout stays its output's).
  std::function<void(const std::string&)> staticPrint;
  LaunchFlags flags;  ///< fp fusion, num_warps
};

/// The kernels of a file (`--list`): names in source order, and a located warning for each
/// kernel that could not be read.
struct KernelList {
  std::vector<std::string> names;
  std::vector<Diagnostic> warnings;
};

/// Parses `source`, lowers the kernel with its constexprs and signature, verifies the result.
/// Errors name the Python source position (or the command-line option at fault).
Result<std::unique_ptr<ir::Module>> compileKernel(std::string_view source, const std::string& fileName,
                                                  const CompileOptions& opts);

/// The @triton.jit function names of a file, in source order (for listings and errors).
Result<KernelList> listKernels(std::string_view source, const std::string& fileName);

}  // namespace tilevm::frontend

namespace tilevm::frontend {

/// A kernel parameter as declared: its name and whether it is `tl.constexpr`.
struct ParamInfo {
  std::string name;
  bool constexpr_ = false;
};

/// The parameters of @triton.jit function `kernel` in `source`.
Result<std::vector<ParamInfo>> kernelParams(std::string_view source, const std::string& fileName, const std::string& kernel);

class ModuleLoader;

/// One load of a kernel file: the file and the modules it imports are parsed once, then asked
/// for a kernel's parameters and compiled (several times if need be) without parsing again.
class KernelSource {
 public:
  /// Keeps `source`'s text; nothing is parsed until the first question.
  KernelSource(std::string_view source, std::string fileName, std::vector<std::string> includeDirs = {});
  ~KernelSource();
  KernelSource(const KernelSource&) = delete;
  KernelSource& operator=(const KernelSource&) = delete;

  /// The parameters of kernel `kernel`.
  Result<std::vector<ParamInfo>> params(const std::string& kernel);
  /// Lowers and verifies `opts.kernel` (opts.includeDirs is ignored: the constructor's count).
  Result<std::unique_ptr<ir::Module>> compile(const CompileOptions& opts);

 private:
  std::string text_, fileName_;
  std::unique_ptr<ModuleLoader> loader_;
};

/// Python files tokenized and parsed by this process so far (a load parses each file once).
uint64_t filesParsed();

}  // namespace tilevm::frontend

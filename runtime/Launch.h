// Launch.h - the launch path every front door shares (tilevm run, diff, the Python module):
// load a kernel (compiling .py on the fly, with the signature the arguments give), parse
// argument specs, bind them to the kernel's parameters, and compare buffers afterwards.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/Compile.h"
#include "interpreter/Interpreter.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "runtime/ArgSpec.h"

namespace tilevm::rt {

/// What to load: a kernel file (.py compiled on the fly, .tile or .tbc) and the kernel in it.
struct KernelRequest {
  std::string input;
  std::string kernel;                    ///< may be empty for a module with one kernel
  std::vector<std::string> defines;      ///< -D NAME=VALUE (.py)
  std::vector<std::string> includeDirs;  ///< -I DIR (.py)
  frontend::LaunchFlags flags;           ///< --fp-fusion, --num-warps (.py): frontend::CompileOptions::flags
};

/// A verified module and the kernel to launch in it.
struct LoadedKernel {
  std::shared_ptr<ir::Module> module;  ///< shared with the devices' in-memory caches
  const ir::Kernel* kernel = nullptr;
  /// The kernel's key (rt::kernelKey: a hash of its bytecode), computed once when it is loaded;
  /// the devices' in-memory caches and the kernel cache on disk find it by this. Empty (a module
  /// built by hand, diff's bytecode round trip): the interpreter prepares it at each launch, the
  /// GPU engine keys it from its bytecode at each launch.
  std::string key;
};

/// Parses `--arg NAME=SPEC` texts; names must be unique. `seed` makes generated data
/// reproducible.
Result<std::vector<ArgValue>> parseArgs(const std::vector<std::string>& specs, uint64_t seed);

/// Reads and verifies a .tile or .tbc module. When verification fails and `allErrors` is
/// given, it receives every verifier diagnostic (the result holds the first).
Result<std::unique_ptr<ir::Module>> loadModule(const std::string& path, SourceManager& sources,
                                               std::vector<Diagnostic>* allErrors = nullptr);

/// Loads the kernel. For .py files the argument specs give the runtime signature (and
/// constexprs given as --arg); every file read lands in `sources` for diagnostics.
Result<LoadedKernel> loadKernel(const KernelRequest& r, std::vector<ArgValue>& args, SourceManager& sources);

/// Arrays and scalars bound to a kernel's parameters, ready to launch.
struct BoundArgs {
  std::vector<interp::Buffer> buffers;
  std::vector<interp::Arg> args;               ///< one per kernel parameter
  std::map<std::string, size_t> bufferOf;      ///< argument name -> buffer index
  std::map<std::string, bool> bufferUnsigned;  ///< argument name -> unsigned dtype (.npy)
  /// Pointer tables (`ptrs:A,B`): the table's buffer index and the buffers whose addresses it
  /// holds, in order (a device other than the CPU writes its own addresses there).
  std::vector<std::pair<size_t, std::vector<size_t>>> addressTables;
};

/// Binds arguments to the kernel's parameters by name; arrays are allocated as they join.
/// `strict`: every argument must name a parameter (.tile/.tbc inputs; .py inputs may pass
/// constexprs as --arg).
Result<BoundArgs> bindArgs(const ir::Kernel& k, std::vector<ArgValue>& args, bool strict);

/// True for a Python kernel file.
bool isPython(const std::string& path);

}  // namespace tilevm::rt

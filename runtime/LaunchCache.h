// LaunchCache.h - what the runtime keeps in memory between launches in one process: each loaded
// kernel's key (a hash of its bytecode, computed once when it is loaded), and counters of the work
// the devices' in-memory caches save (interpreter-prepared kernels, JIT-loaded GPU modules).
#pragma once

#include <cstdint>
#include <string>

#include "ir/IR.h"

namespace tilevm::rt {

/// Process-wide counts of launch work, for `tilevm run --stats` and `tilevm.last_launch`.
struct CacheCounters {
  uint64_t bytecodeEncodes = 0;  ///< modules written to bytecode to key them (once per loaded kernel)
  uint64_t prepares = 0;         ///< kernels prepared for the interpreter
  uint64_t moduleLoads = 0;      ///< GPU modules JIT-loaded by the driver
  uint64_t hits = 0;             ///< launches that found their prepared kernel or loaded module in memory
};

/// The counts so far.
CacheCounters cacheCounters();
void countBytecodeEncode();
void countPrepare();
void countModuleLoad();
void countHit();

/// "1 bytecode encode, 1 prepare, 0 module loads, 2 in-memory hits".
std::string describe(const CacheCounters& c);

/// The key of `kernel` in `module`: a 128-bit hash (hex) of the module's bytecode and the
/// kernel's name. Writes the module to bytecode (counted): call once per loaded kernel.
std::string kernelKey(const ir::Module& module, const ir::Kernel& kernel);

/// Entries each device keeps in memory; past it the oldest go (GPU modules are unloaded).
inline constexpr size_t kMaxCachedKernels = 256;

}  // namespace tilevm::rt

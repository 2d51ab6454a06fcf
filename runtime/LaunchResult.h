// LaunchResult.h - what a launch gives back, whichever engine ran it: the interpreter's report
// (findings, device_print output, trace, programs, the median time), the time to a runnable
// kernel, and the GPU engine's own statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "interpreter/Report.h"

namespace tilevm::rt {

/// What the GPU engine reports of a launch: what the code generator and the driver's JIT made
/// of the kernel, and the copies.
struct GpuStats {
  std::string arch;                 ///< the target compiled for (codegen/Targets.h)
  unsigned threads = 0;             ///< per block
  int registers = -1;               ///< per thread (cuFuncGetAttribute; -1: not reported)
  int staticSharedBytes = -1;       ///< per block
  uint64_t dynamicSharedBytes = 0;  ///< per block
  int localBytes = -1;              ///< per thread: where spills go
  size_t copiedBytes = 0;           ///< between host and GPU (0 for CUDA tensors used in place)
  bool ptxFromDisk = false;         ///< the PTX came from the kernel cache on disk
  std::string cacheDir;             ///< where that cache is
  /// "registers 32 per thread, shared memory 1024 bytes per block (0 dynamic), ...".
  std::string text() const;
};

/// The result of a launch.
struct LaunchResult {
  /// Findings, device_print output, trace, programs and the median launch time (the first,
  /// cold launch left out when there are several). A GPU launch has no checks: no findings.
  interp::Report report;
  double compileSeconds = 0;    ///< to a runnable kernel (prepared, or loaded by the driver)
  std::optional<GpuStats> gpu;  ///< the GPU engine's
  /// The JSON document of `tilevm run --json`: the report's, with compile_seconds, the GPU's
  /// kernel_stats and the process's launch_caches counters (LaunchCache.h).
  std::string json() const;
};

}  // namespace tilevm::rt

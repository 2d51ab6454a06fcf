// LaunchOptions.h - what a launch takes, whichever engine runs it: the grid and the launch count
// both engines read, then each engine's own section (the GPU engine's compile options, the
// interpreter's checks and schedule). Checked by runtime/RunOptions.h.
#pragma once

#include <array>
#include <cstdint>

#include "interpreter/Interpreter.h"

namespace tilevm::rt {

/// How the GPU engine compiles a kernel (Triton's launch options).
struct GpuOptions {
  unsigned numWarps = 4;   ///< threads per program = 32 * numWarps (Triton's num_warps)
  unsigned numStages = 1;  ///< Triton's num_stages (codegen::Options::numStages)
  unsigned maxRegisters = 0;  ///< Triton's maxnreg (codegen::Options::maxRegisters; 0: ptxas decides)
  /// Return as soon as the kernel is queued, as Triton's launches do, when every buffer is
  /// already on this GPU (nothing to copy back): no events, no wait, no time in the report
  /// (seconds 0); a fault surfaces at the next synchronisation. Otherwise the launch waits.
  bool asynchronous = false;
  /// The CUDA stream (a CUstream's bits) to launch on, as Triton launches on torch's current
  /// stream; 0: the default stream.
  uint64_t stream = 0;
  /// Compile and load the kernel and report what the driver made of it (GpuStats), without
  /// copying or launching anything: Triton's JITFunction.warmup.
  bool compileOnly = false;
};

/// One launch's options.
struct LaunchOptions {
  std::array<int64_t, 3> grid{1, 1, 1};  ///< programs along X, Y, Z (rt::checkGrid)
  /// Launches on the same inputs (outputs overwritten; compiled and copied once); the result's
  /// time is the median, the first (cold) launch left out when there are several.
  unsigned repeat = 1;
  GpuOptions gpu;                     ///< read by the GPU engine
  interp::LaunchOptions interpreter;  ///< read by the interpreter (its grid is set from `grid`)
};

}  // namespace tilevm::rt

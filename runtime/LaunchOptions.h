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

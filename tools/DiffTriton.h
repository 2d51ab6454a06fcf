// DiffTriton.h - `tilevm diff K.py --engine triton`: the kernel launched by the real triton
// package on the GPU (through Python), compared with the interpreter.
#pragma once

#include <string>
#include <vector>

#include "runtime/RunOptions.h"

namespace tilevm::tools {

/// What `tilevm diff --engine triton` was given (run's kernel, options and argument specs).
struct DiffTritonRequest {
  std::string input, kernel;
  rt::RunOptionTexts options;
  std::vector<std::string> args, defines, includeDirs;
};

/// Makes the arguments, writes them and a manifest to a temporary directory, runs
/// `python3 -m tilevm.diff_kernel` (TILEVM_PYTHON overrides the interpreter) and returns its
/// exit status: 0 agree, 4 disagree, 2 no Triton or no GPU, 1 bad input.
int runDiffTriton(const DiffTritonRequest& r);

}  // namespace tilevm::tools

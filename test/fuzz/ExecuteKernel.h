// ExecuteKernel.h - the executing half of the Python-frontend fuzzer: a kernel that compiled is
// run on the checking interpreter with argument bindings drawn from the fuzz input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/Compile.h"

namespace tilevm::fuzz {

/// Compiles `kernel` of `source` with a signature drawn from `seed` (pointers of several
/// element types, small integer scalars, constexprs 16/32/64) and, when it compiles, runs it on
/// the interpreter with every check on, bounded in time (at most 4x2 programs, fuel 2^14, a 2 s
/// timeout): arrays of 16 to 1032 bytes, some `empty`, two parameters on one array, views at
/// byte offsets (other pointee types come from the kernel's own casts: a parameter's pointee is
/// its array's dtype). Returns the invariant the run broke, if any: a byte that two programs,
/// each run alone on the same data, change, in a kernel without atomics, means the launch must
/// report a race. `plantShadowBug` sets LaunchOptions::testPlantShadowBug on the launch.
/// TILEVM_FUZZ_DEBUG in the environment prints each binding and its findings.
std::optional<std::string> executeKernel(std::string_view source, const std::string& kernel,
                                         const std::vector<frontend::ParamInfo>& params, uint64_t seed, bool plantShadowBug);

/// The binding seed of an input: the number on a `# fuzz-bind: N` line, else a hash of it.
uint64_t bindingSeed(std::string_view source);

}  // namespace tilevm::fuzz

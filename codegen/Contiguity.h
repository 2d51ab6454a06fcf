// Contiguity.h - what the code generator knows, before run time, about a tile's values within
// one run of consecutive elements (Layout.h): the same in every element of the run (uniform),
// increasing by one element at a time (contiguous: integers by 1, pointers by their pointee's
// size), or a comparison of a contiguous value with a uniform one (monotone: a mask that changes
// at most once in a run, so its two ends decide whether it is uniform); and a power of two
// dividing the first element of every run (for pointers, its address in bytes). Loads and stores
// use it to form vector accesses with no run-time check where both are known (Triton's axis
// analysis: contiguity, constancy and divisibility along the flattened tile). Divisibility of
// the kernel's parameters comes from the launch (Triton's specialization: an integer divisible
// by 16, a pointer aligned to 16 bytes).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ir/IR.h"

namespace tilevm::codegen {

enum class RunShape { Unknown, Uniform, Contiguous, Monotone };

/// What is known of one value's runs.
struct RunInfo {
  RunShape shape = RunShape::Unknown;
  int64_t divisor = 1;  ///< divides the first element of every run (bytes for pointers)
};

/// RunInfo of every value of `k` (values not in the map are Unknown, divisor 1), for runs of
/// the layout with `threads` threads and runs of at most `maxVec`; `paramDivisors` (one per
/// parameter, or empty) is what the launch guarantees. Contiguity assumes index arithmetic does
/// not wrap inside a run, as Triton does.
std::map<const ir::Value*, RunInfo> analyzeRuns(const ir::Kernel& k, unsigned threads, unsigned maxVec,
                                                const std::vector<uint32_t>& paramDivisors);

}  // namespace tilevm::codegen

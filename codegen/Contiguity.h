// Contiguity.h - what the code generator knows, before run time, about a tile's values within
// one run of consecutive elements (Layout.h): the same in every element (uniform), increasing by
// one element at a time (contiguous: integers by 1, pointers by their pointee's size), or a
// comparison of a contiguous value with a uniform one (monotone: a mask that changes at most
// once in a run, so its two ends decide whether it is uniform). Loads and stores use it to form
// vector accesses with only an alignment check left for run time (Triton's axis analysis, in its
// simplest form: contiguity and constancy along the flattened tile).
#pragma once

#include <map>

#include "ir/IR.h"

namespace tilevm::codegen {

enum class RunShape { Unknown, Uniform, Contiguous, Monotone };

/// RunShape of every value of `k` (values not in the map are Unknown). Contiguity assumes index
/// arithmetic does not wrap inside a run, as Triton does.
std::map<const ir::Value*, RunShape> analyzeRuns(const ir::Kernel& k);

}  // namespace tilevm::codegen

// Combine.h - Triton's rewrites of a lowered kernel whose results Triton's GPU code shows
// (lib/Dialect/Triton/Transforms/Combine.cpp), run on the IR both engines execute, so they
// agree with each other and with Triton.
#pragma once

#include "ir/IR.h"

namespace tilevm::frontend {

/// `d + dot(a, b, 0)` (addf or addi, either side) whose dot has no other use becomes
/// `dot(a, b, d)`, moved to where the sum was: `acc += tl.dot(a, b)` accumulates on the tensor
/// cores as `tl.dot(a, b, acc)` does. Not for a float dot with max_num_imprecise_acc, as Triton.
void combineDotAdds(ir::Kernel& k);

}  // namespace tilevm::frontend

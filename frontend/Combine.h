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

/// `tl.sum(x[:, :, None] * y[None, :, :], 1)` (a reduce along axis 1 whose combiner is one
/// float add, of a product of broadcasts of x expanded at axis 2 and y at axis 0; f32 or f16,
/// M, K and N at least 16) becomes `dot(x, y, 0)`, tf32 for f32 as Triton's
/// CombineBroadcastMulReducePattern writes it; the product and its broadcasts, left unused, are
/// removed. Run before combineDotAdds, which may then take the dot's sum.
void combineBroadcastMulReduce(ir::Kernel& k);

}  // namespace tilevm::frontend

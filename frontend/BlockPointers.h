// BlockPointers.h - block pointers (tl.make_block_ptr, tl.advance) and tensor descriptors
// (tl.make_tensor_descriptor, desc.load/store): lowered to pointer tiles with boundary masks,
// so the interpreter checks them like any other access.
#pragma once

#include <vector>

#include "frontend/BuiltinTable.h"

namespace tilevm::frontend {

/// The pointer tile a block pointer or descriptor addresses at `offsets` (its own offsets when
/// empty), and the mask of the elements inside its shape along `checkDims` (None if none).
struct BlockAccess {
  CV ptrs, mask;
};
BlockAccess blockAccess(Lowerer& L, const CV& bp, const std::vector<CV>& offsets, const std::vector<int64_t>& checkDims,
                        const Expr& at);

/// A tensor descriptor's block at `offsets` (a list), every dimension checked.
BlockAccess descriptorAccess(Lowerer& L, const CV& d, const CV& offsets, const Expr& offsetsAt, const Expr& site,
                             const char* what);

/// `boundary_check` as a list of dimensions, each checked against the block's rank.
std::vector<int64_t> boundaryDims(Lowerer& L, const CV& bp, const CV& check, const Expr& at);

void registerBlockPointerBuiltins(BuiltinTable& t);

}  // namespace tilevm::frontend

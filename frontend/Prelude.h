// Prelude.h - parts of triton.language that are written in the kernel language itself (the
// Philox random number generator, as Triton's random.py defines it; sort, topk, xor_sum, gather, histogram),
// parsed once and inlined like any @triton.jit helper.
#pragma once

#include "frontend/Ast.h"

namespace tilevm::frontend {

/// The prelude module (parsed on first use).
const PyModule& prelude();

}  // namespace tilevm::frontend

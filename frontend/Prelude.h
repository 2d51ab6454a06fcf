// Prelude.h - parts of triton.language that are written in the kernel language itself (the
// Philox random number generator, as Triton's random.py defines it; sort, topk, xor_sum, gather, histogram, dot_scaled),
// parsed once and inlined like any @triton.jit helper.
#pragma once

#include "frontend/Ast.h"

namespace tilevm::frontend {

/// The source of the prelude's tl.dot_scaled and its decoders (PreludeDotScaled.cpp), parsed
/// after the rest of the prelude's source as one module.
extern const char* const kPreludeDotScaledSource;

/// The prelude module (parsed on first use).
const PyModule& prelude();

}  // namespace tilevm::frontend

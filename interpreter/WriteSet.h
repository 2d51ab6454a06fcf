// WriteSet.h - which kernel parameters a kernel may store through: a dataflow over pointer
// values (each derives from a set of parameters) to a fixed point across loops and branches.
// Buffers no store or atomic can reach are constant during a launch, so a contiguous load from
// one may use the buffer's memory in place instead of copying it (OpsMemory.cpp). The same
// origins give the smallest access size that can reach each parameter (the shadow granule).
#pragma once

#include <optional>
#include <vector>

#include "ir/IR.h"

namespace tilevm::interp {

/// For each parameter: may a store or atomic write through a pointer derived from it?
/// nullopt when some written pointer's origin is unknown (loaded from memory, int_to_ptr, ...).
std::optional<std::vector<bool>> writtenParams(const ir::Kernel& k);

/// For each parameter: the smallest element size in bytes of a load, store or atomic whose
/// pointer may derive from it (an access through a pointer of unknown origin counts for every
/// parameter; 0: none). The shadow granule of an allocation divides these (Memory.h).
std::vector<unsigned> accessBytes(const ir::Kernel& k);

}  // namespace tilevm::interp

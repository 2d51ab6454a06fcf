// PtxEntry.h - a compiled kernel as the kernel cache stores it: its launch metadata as a header
// line of named fields, then the PTX. The metadata travels as data beside the assembly, never
// inside it; an entry whose header does not read back exactly is a miss.
#pragma once

#include <optional>
#include <string>

#include "codegen/Codegen.h"

namespace tilevm::rt {

/// The cache entry's text for `c`.
std::string encodePtxEntry(const codegen::CompiledPtx& c);

/// The compiled kernel of an entry written by encodePtxEntry, or nullopt for anything else.
std::optional<codegen::CompiledPtx> decodePtxEntry(const std::string& entry);

}  // namespace tilevm::rt

// Libdevice.h - NVIDIA's libdevice (the CUDA toolkit's math library as LLVM bitcode), embedded
// in the binary at build time and linked into kernels that call its __nv_* functions.
#pragma once

#include <llvm/IR/Module.h>

#include <optional>

#include "ir/Diagnostics.h"

namespace tilevm::codegen {

/// Links the libdevice functions `m` calls into it (internal, so O3 inlines them) and sets
/// NVVMReflect's flags (no flush to zero). Nothing to do when m calls none; an error when it
/// does and this build has no libdevice.
std::optional<Diagnostic> linkLibdevice(llvm::Module& m);

/// Whether this build embeds libdevice.
bool haveLibdevice();

}  // namespace tilevm::codegen

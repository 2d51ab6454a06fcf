// Lowering.h - the tile IR to LLVM IR step of the code generator (LowerToLLVM.cpp).
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>

#include "codegen/Codegen.h"

namespace tilevm::codegen {

/// A kernel lowered: its LLVM module, and the tensor maps its launch passes after its own
/// parameters (LaunchInfo::tensorMaps).
struct Lowered {
  std::unique_ptr<llvm::Module> module;
  std::vector<TensorMap> tensorMaps;
  unsigned deviceTensorMaps = 0;  ///< LaunchInfo::deviceTensorMaps
};

/// The kernel as an LLVM module for nvptx64, verified; a diagnostic at the op that cannot be
/// lowered yet.
Result<Lowered> lowerToLLVM(const ir::Module& m, const ir::Kernel& k, const Options& o, llvm::LLVMContext& ctx);

}  // namespace tilevm::codegen

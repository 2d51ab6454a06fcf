// CudaDevice.h - the GPU engine (built only with the code generator).
#pragma once

#include <vector>

#include "codegen/Codegen.h"
#include "runtime/Device.h"

namespace tilevm::rt {

/// Specializes `o` on a launch's arguments as Triton does (codegen::Options::paramDivisors,
/// paramOnes): integers divisible by 16 or equal to 1, pointers whose byte offset into their
/// allocation is a multiple of 16 (device allocations are 256-byte aligned, so the offset
/// decides); a host tensor descriptor's strides by codegen::strideDivisorOf.
void specialize(const ir::Kernel& k, const std::vector<interp::Arg>& args, codegen::Options& o);

/// Whether parameter i of k is a host tensor descriptor's stride: NAME.strideD beside NAME.base,
/// the parameters the frontend makes of a tensordesc argument.
bool isDescriptorStride(const ir::Kernel& k, size_t i);

/// The GPU engine on device `ordinal` (rt::cudaDevice's factory; `coldL2` as there).
Outcome<std::unique_ptr<Device>> openCuda(int ordinal, bool coldL2);

}  // namespace tilevm::rt

// TensorMaps.h - a launch's tensor maps (codegen::TensorMap: the TMA's descriptors of host tensor
// descriptors) encoded from the values of the kernel's parameters by the driver's
// cuTensorMapEncodeTiled, for the hidden parameters after the kernel's own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/Codegen.h"

namespace tilevm::rt {

/// An encoded tensor map (CUtensorMap): 128 opaque bytes, aligned as the driver requires.
struct alignas(128) TensorMapBytes {
  uint64_t words[16] = {};
};

/// The driver's cuTensorMapEncodeTiled (CUDA 12.0's ABI; enums as ints).
using EncodeTiled = int (*)(void* map, int dataType, uint32_t rank, void* address, const uint64_t* dims, const uint64_t* strides,
                            const uint32_t* box, const uint32_t* elementStrides, int interleave, int swizzle, int l2Promotion,
                            int oobFill);

/// Encodes each of `maps` from `params` (per kernel parameter, a pointer's device address or an
/// integer's value) into `out`. Returns "" or why a map cannot be made (the array, its shape or
/// strides outside what the TMA takes: a 16-byte aligned base, sizes from 1 to 2^32, strides of
/// whole 16 bytes below 2^40), naming the parameter.
std::string encodeTensorMaps(EncodeTiled encode, const std::vector<codegen::TensorMap>& maps, const std::vector<uint64_t>& params,
                             const std::vector<std::string>& names, std::vector<TensorMapBytes>& out);

}  // namespace tilevm::rt

// CudaDevice.h - the GPU engine (built only with the code generator).
#pragma once

#include "runtime/Device.h"

namespace tilevm::rt {

/// The GPU engine on device `ordinal` (rt::cudaDevice's factory; `coldL2` as there).
Outcome<std::unique_ptr<Device>> openCuda(int ordinal, bool coldL2);

}  // namespace tilevm::rt

// CudaDevice.h - the GPU engine (built only with the code generator).
#pragma once

#include "runtime/Device.h"

namespace tilevm::rt {

/// The GPU engine on device `ordinal`.
Result<std::unique_ptr<Device>> openCuda(int ordinal, const GpuOptions& options);

}  // namespace tilevm::rt

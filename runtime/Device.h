// Device.h - where a kernel runs: the CPU interpreter, or an NVIDIA GPU through the CUDA driver
// loaded at run time (no link dependency: the binary runs where no GPU is).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/Errors.h"
#include "runtime/Launch.h"
#include "runtime/LaunchOptions.h"
#include "runtime/LaunchResult.h"

namespace tilevm::rt {

/// A kernel loaded for one specialization of its arguments, launched again without a lookup:
/// the Python door's warm launches of CUDA tensors, at the cost of Triton's own launcher. Made
/// by Device::direct from a launch that has run.
class DirectLaunch {
 public:
  virtual ~DirectLaunch() = default;
  /// Queues one launch over `grid` on `stream` without waiting. `args` holds one 8-byte value
  /// per kernel parameter: a device address for a pointer, an integer's value (two's complement)
  /// or a float's bits (an IEEE double). Returns false and launches nothing when an argument is
  /// not what the kernel was specialized and loaded for: a pointer not on this GPU, an address or
  /// integer of other divisibility, an integer outside its parameter's type, or a module the
  /// device has since unloaded. The caller then takes Device::run.
  virtual Outcome<bool> launch(const std::array<int64_t, 3>& grid, const std::vector<uint64_t>& args, uint64_t stream) = 0;
};

/// One engine that runs kernels over bound arguments (buffers are updated in place): the
/// interpreter, or the GPU engine. Every front door (tilevm run, diff, viz, demo, the Python
/// module) launches through one.
class Device {
 public:
  virtual ~Device() = default;
  /// "cpu interpreter (16 threads)", "cuda (NVIDIA H200, sm_90, compiled for sm_90a)", ...
  virtual std::string describe() const = 0;
  /// Launches the kernel options.repeat times on the same inputs (outputs are overwritten;
  /// compiled and copied once): the result's time is the median launch, the first (cold) one
  /// left out when there are several; compileSeconds is the time to a runnable kernel. Errors
  /// carry their kind: a bad kernel, argument or option (Input), or the driver (Environment).
  virtual Outcome<LaunchResult> run(const LoadedKernel& k, BoundArgs& bound, const LaunchOptions& options) = 0;
  /// The direct launcher of `k` as `bound` and `gpu` specialize it, where this engine has one
  /// (the GPU engine, for arguments all on its GPU, without pointer tables); else nullptr.
  virtual std::unique_ptr<DirectLaunch> direct(const LoadedKernel& k, const BoundArgs& bound, const GpuOptions& gpu) {
    (void)k, (void)bound, (void)gpu;
    return nullptr;
  }
};

/// The median of launch times (0 for none).
double medianSeconds(std::vector<double> times);

/// The interpreter.
std::unique_ptr<Device> interpreterDevice();

/// What the CUDA driver reports, or why it is not usable.
struct CudaProbe {
  bool usable = false;
  std::string reason;   ///< when not usable: no libcuda, stub library, no device, ...
  int devices = 0;
  std::string name;     ///< of device `ordinal`
  int major = 0, minor = 0;
  int sharedOptInBytes = 0;  ///< shared memory one block may opt in to (the driver's figure)
  int driverVersion = 0;     ///< the driver's CUDA version, 1000 major + 10 minor (cuDriverGetVersion)
};

/// Loads libcuda.so.1 with dlopen and asks for device `ordinal`.
CudaProbe probeCuda(int ordinal);

/// The GPU engine on device `ordinal`; an Environment error (exit 2) when no driver or GPU is
/// usable, or when this program has no code generator. `coldL2`: clear L2 (a 256 MiB write)
/// before each timed launch, as triton.testing.do_bench does.
Outcome<std::unique_ptr<Device>> cudaDevice(int ordinal, bool coldL2 = true);

/// Programs linked with the GPU engine (runtime/gpu: the code generator and LLVM) register it
/// here; the runtime itself stays free of LLVM, so the Python extension and tests link fast.
using CudaFactory = Outcome<std::unique_ptr<Device>> (*)(int ordinal, bool coldL2);
void setCudaFactory(CudaFactory f);

}  // namespace tilevm::rt

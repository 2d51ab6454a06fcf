// Device.h - where a kernel runs: the CPU interpreter, or an NVIDIA GPU through the CUDA driver
// loaded at run time (no link dependency: the binary runs where no GPU is).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/Errors.h"
#include "runtime/Launch.h"
#include "runtime/LaunchOptions.h"
#include "runtime/LaunchResult.h"

namespace tilevm::rt {

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

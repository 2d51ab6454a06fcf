// Device.h - where a kernel runs: the CPU interpreter, or an NVIDIA GPU through the CUDA driver
// loaded at run time (no link dependency: the binary runs where no GPU is).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interpreter/Interpreter.h"
#include "ir/Diagnostics.h"
#include "runtime/Launch.h"

namespace tilevm::rt {

/// One engine that runs kernels over bound arguments (buffers are updated in place).
class Device {
 public:
  virtual ~Device() = default;
  /// "cpu interpreter (16 threads)", "cuda:0 NVIDIA H200 (sm_90)", ...
  virtual std::string describe() const = 0;
  /// Launches the kernel `launches` times on the same inputs (outputs are overwritten; compiled
  /// and copied once). Report::seconds is the median launch time, the first (cold) launch left
  /// out when there are several; compileSeconds is the time to a loaded kernel.
  virtual Result<interp::Report> run(const LoadedKernel& k, BoundArgs& bound, const interp::LaunchOptions& options,
                                     unsigned launches) = 0;
};

/// Parses "cuda" (device 0) or "cuda:N"; false for anything else.
bool parseCudaDevice(const std::string& spec, int& ordinal);

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

/// How the GPU engine compiles and times kernels.
struct GpuOptions {
  unsigned numWarps = 4;   ///< threads per program = 32 * numWarps (Triton's num_warps)
  bool coldL2 = true;      ///< clear L2 (a 256 MiB write) before each timed launch, as triton.testing.do_bench does
  unsigned numStages = 1;  ///< Triton's num_stages (codegen::Options::numStages)
};

/// The GPU engine on device `ordinal`; an error (an environment problem, exit 2) when no
/// driver or GPU is usable, or when this program has no code generator.
Result<std::unique_ptr<Device>> cudaDevice(int ordinal, const GpuOptions& options = {});

/// Programs linked with the GPU engine (runtime/gpu: the code generator and LLVM) register it
/// here; the runtime itself stays free of LLVM, so the Python extension and tests link fast.
using CudaFactory = Result<std::unique_ptr<Device>> (*)(int ordinal, const GpuOptions& options);
void setCudaFactory(CudaFactory f);

}  // namespace tilevm::rt

// Device.cpp - the interpreter device, and the CUDA driver probe (dlopen libcuda.so.1, entry
// points through cuGetProcAddress_v2 pinned to the CUDA 12.0 ABI, as TOOLCHAIN.md records).
#include "runtime/Device.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "runtime/LaunchCache.h"
#include "runtime/RunOptions.h"

namespace tilevm::rt {

namespace {

class InterpreterDevice : public Device {
 public:
  std::string describe() const override {
    return "cpu interpreter (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " hardware threads)";
  }
  Outcome<LaunchResult> run(const LoadedKernel& k, BoundArgs& bound, const LaunchOptions& options) override {
    if (std::optional<Diagnostic> bad = checkGrid(options.grid, false)) return inputError(*bad);
    interp::LaunchOptions o = options.interpreter;
    o.grid = options.grid;
    try {
      auto t0 = std::chrono::steady_clock::now();
      std::shared_ptr<const Prepared> prepared = prepare(k, o.symbolic);
      LaunchResult result;
      result.compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::vector<double> times;
      const unsigned launches = std::max(1u, options.repeat);
      for (unsigned r = 0; r < launches; ++r) {
        result.report = interp::run(prepared->kernel, bound.buffers, bound.args, o);
        if (r > 0 || launches == 1) times.push_back(result.report.seconds);
      }
      result.report.seconds = medianSeconds(times);
      return result;
    } catch (const interp::UnsupportedKernel& e) {
      return inputError(e.diag);
    } catch (const std::invalid_argument& e) {
      return inputError(Diagnostic{"<command line>", 0, 0, e.what()});
    }
  }

 private:
  // A prepared kernel and the module it points into (kept alive with it).
  struct Prepared {
    std::shared_ptr<const ir::Module> module;
    interp::PreparedKernel kernel;
  };

  // The prepared kernel for `k`: from memory when this device prepared it before (a hit).
  std::shared_ptr<const Prepared> prepare(const LoadedKernel& k, bool symbolic) {
    const std::string key = k.key.empty() ? "" : k.key + (symbolic ? "/symbolic" : "/dense");
    if (!key.empty()) {
      std::lock_guard<std::mutex> lock(m_);
      if (auto it = prepared_.find(key); it != prepared_.end()) {
        countHit();
        return it->second;
      }
    }
    countPrepare();
    auto p = std::make_shared<Prepared>(Prepared{k.module, interp::prepare(*k.module, *k.kernel, symbolic)});
    if (!key.empty()) {
      std::lock_guard<std::mutex> lock(m_);
      if (prepared_.size() >= kMaxCachedKernels) prepared_.erase(prepared_.begin());
      prepared_[key] = p;
    }
    return p;
  }

  std::mutex m_;
  std::map<std::string, std::shared_ptr<const Prepared>> prepared_;
};

// The few driver types and entry points the probe needs (cuda.h is not needed to build).
using CUresult = int;
using CUdevice = int;
using GetProcAddress = CUresult (*)(const char*, void**, int, uint64_t, int*);
using Init = CUresult (*)(unsigned);
using DeviceGetCount = CUresult (*)(int*);
using DeviceGet = CUresult (*)(CUdevice*, int);
using DeviceGetName = CUresult (*)(char*, int, CUdevice);
using DeviceGetAttribute = CUresult (*)(int*, int, CUdevice);
using DriverGetVersion = CUresult (*)(int*);
constexpr int kStubLibrary = 34;             // CUDA_ERROR_STUB_LIBRARY
constexpr int kAttrComputeMajor = 75, kAttrComputeMinor = 76;
constexpr int kAttrSharedOptIn = 97;  // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN

}  // namespace

double medianSeconds(std::vector<double> times) {
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::unique_ptr<Device> interpreterDevice() { return std::make_unique<InterpreterDevice>(); }

CudaProbe probeCuda(int ordinal) {
  CudaProbe p;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    p.reason = "no CUDA driver (libcuda.so.1 not found)";
    return p;
  }
  auto getProc = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc) {
    p.reason = "the CUDA driver is too old (no cuGetProcAddress_v2)";
    return p;
  }
  auto sym = [&](const char* name) -> void* {
    void* fn = nullptr;
    int status = 0;
    return getProc(name, &fn, 12000, 0, &status) == 0 ? fn : nullptr;
  };
  auto init = reinterpret_cast<Init>(sym("cuInit"));
  auto count = reinterpret_cast<DeviceGetCount>(sym("cuDeviceGetCount"));
  auto get = reinterpret_cast<DeviceGet>(sym("cuDeviceGet"));
  auto getName = reinterpret_cast<DeviceGetName>(sym("cuDeviceGetName"));
  auto getAttr = reinterpret_cast<DeviceGetAttribute>(sym("cuDeviceGetAttribute"));
  auto version = reinterpret_cast<DriverGetVersion>(sym("cuDriverGetVersion"));
  if (!init || !count || !get || !getName || !getAttr || !version) {
    p.reason = "the CUDA driver lacks entry points tilevm needs";
    return p;
  }
  CUresult r = init(0);
  if (r == kStubLibrary) {
    p.reason = "only the CUDA toolkit's stub libcuda is installed (no driver)";
    return p;
  }
  if (r != 0) {
    p.reason = "cuInit failed (CUDA error " + std::to_string(r) + "): no usable GPU";
    return p;
  }
  if (count(&p.devices) != 0 || p.devices == 0) {
    p.reason = "the CUDA driver sees no GPU";
    return p;
  }
  if (ordinal < 0 || ordinal >= p.devices) {
    p.reason = "cuda:" + std::to_string(ordinal) + " does not exist (" + std::to_string(p.devices) + " GPUs)";
    return p;
  }
  CUdevice dev = 0;
  char name[256] = {0};
  if (get(&dev, ordinal) != 0 || getName(name, sizeof name, dev) != 0 || getAttr(&p.major, kAttrComputeMajor, dev) != 0 ||
      getAttr(&p.minor, kAttrComputeMinor, dev) != 0 || getAttr(&p.sharedOptInBytes, kAttrSharedOptIn, dev) != 0 ||
      version(&p.driverVersion) != 0) {
    p.reason = "cannot query cuda:" + std::to_string(ordinal);
    return p;
  }
  p.name = name;
  p.usable = true;
  return p;
}

namespace {
CudaFactory& cudaFactory() {
  static CudaFactory f = nullptr;
  return f;
}
}  // namespace

void setCudaFactory(CudaFactory f) { cudaFactory() = f; }

Outcome<std::unique_ptr<Device>> cudaDevice(int ordinal, bool coldL2) {
  if (cudaFactory()) return cudaFactory()(ordinal, coldL2);
  CudaProbe p = probeCuda(ordinal);
  if (!p.usable) return environmentError(p.reason);
  return environmentError("cuda:" + std::to_string(ordinal) + " (" + p.name + ", sm_" + std::to_string(p.major * 10 + p.minor) +
                          ") is present, but this program was built without the GPU code generator");
}

}  // namespace tilevm::rt

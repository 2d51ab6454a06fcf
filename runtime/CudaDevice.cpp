// CudaDevice.cpp - the GPU engine: PTX from the code generator, JIT-loaded by the CUDA driver
// (opened with dlopen, entry points through cuGetProcAddress_v2 at the CUDA 12.0 ABI), buffers
// copied to the device and back, the launch timed with CUDA events. The driver's JIT log is
// shown when a module does not load. Compiled PTX is kept in the kernel cache on disk; a
// cached entry the driver rejects is dropped and built again.
#include "runtime/CudaDevice.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>

#include "codegen/Codegen.h"
#include "codegen/Targets.h"
#include "ir/IR.h"
#include "runtime/KernelCache.h"
#include "runtime/LaunchCache.h"
#include "runtime/PtxEntry.h"
#include "runtime/RunOptions.h"
#include "runtime/TensorMaps.h"

namespace tilevm::rt {

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using Handle = void*;

struct Driver {
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*deviceGet)(CUdevice*, int) = nullptr;
  CUresult (*primaryCtxRetain)(Handle*, CUdevice) = nullptr;
  CUresult (*ctxSetCurrent)(Handle) = nullptr;
  CUresult (*moduleLoadDataEx)(Handle*, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*moduleGetFunction)(Handle*, Handle, const char*) = nullptr;
  CUresult (*moduleUnload)(Handle) = nullptr;
  CUresult (*memAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*memFree)(CUdeviceptr) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*memcpy)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;  ///< unified addressing: either side host or device
  CUresult (*memsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*memAllocAsync)(CUdeviceptr*, size_t, Handle) = nullptr;
  CUresult (*memFreeAsync)(CUdeviceptr, Handle) = nullptr;
  CUresult (*launchKernel)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Handle, void**,
                           void**) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;
  CUresult (*eventCreate)(Handle*, unsigned) = nullptr;
  CUresult (*eventRecord)(Handle, Handle) = nullptr;
  CUresult (*eventSynchronize)(Handle) = nullptr;
  CUresult (*eventElapsedTime)(float*, Handle, Handle) = nullptr;
  CUresult (*eventDestroy)(Handle) = nullptr;
  CUresult (*getErrorString)(CUresult, const char**) = nullptr;
  CUresult (*funcGetAttribute)(int*, int, Handle) = nullptr;
  CUresult (*pointerGetAttribute)(void*, int, CUdeviceptr) = nullptr;
  CUresult (*funcSetAttribute)(Handle, int, int) = nullptr;
  EncodeTiled tensorMapEncodeTiled = nullptr;

  std::string error(const char* what, CUresult r) const {
    const char* s = nullptr;
    if (getErrorString) getErrorString(r, &s);
    return std::string(what) + " failed: CUDA error " + std::to_string(r) + (s ? std::string(" (") + s + ")" : "");
  }
};

// Loads the driver's entry points; empty string on success, else why not.
std::string loadDriver(Driver& d) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return "no CUDA driver (libcuda.so.1 not found)";
  using GetProc = CUresult (*)(const char*, void**, int, uint64_t, int*);
  auto getProc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!getProc) return "the CUDA driver is too old (no cuGetProcAddress_v2)";
  bool ok = true;
  auto load = [&](auto& fn, const char* name) {
    void* p = nullptr;
    int status = 0;
    if (getProc(name, &p, 12000, 0, &status) != 0 || !p) ok = false;
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
  load(d.init, "cuInit");
  load(d.deviceGet, "cuDeviceGet");
  load(d.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(d.ctxSetCurrent, "cuCtxSetCurrent");
  load(d.moduleLoadDataEx, "cuModuleLoadDataEx");
  load(d.moduleGetFunction, "cuModuleGetFunction");
  load(d.moduleUnload, "cuModuleUnload");
  load(d.memAlloc, "cuMemAlloc");
  load(d.memFree, "cuMemFree");
  load(d.memcpyHtoD, "cuMemcpyHtoD");
  load(d.memcpy, "cuMemcpy");
  load(d.memsetD8, "cuMemsetD8");
  load(d.memAllocAsync, "cuMemAllocAsync");
  load(d.memFreeAsync, "cuMemFreeAsync");
  load(d.launchKernel, "cuLaunchKernel");
  load(d.ctxSynchronize, "cuCtxSynchronize");
  load(d.eventCreate, "cuEventCreate");
  load(d.eventRecord, "cuEventRecord");
  load(d.eventSynchronize, "cuEventSynchronize");
  load(d.eventElapsedTime, "cuEventElapsedTime");
  load(d.eventDestroy, "cuEventDestroy");
  load(d.getErrorString, "cuGetErrorString");
  load(d.funcGetAttribute, "cuFuncGetAttribute");
  load(d.pointerGetAttribute, "cuPointerGetAttribute");
  load(d.funcSetAttribute, "cuFuncSetAttribute");
  load(d.tensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  return ok ? "" : "the CUDA driver lacks entry points tilevm needs";
}

// The global memory in which a launch's programs build their tensor maps
// (LaunchInfo::deviceTensorMaps): allocated on the launch's stream and freed on it after the
// launch, so launches on other streams never share it.
class DeviceMapScratch {
 public:
  DeviceMapScratch(const Driver& d, Handle stream) : d_(d), stream_(stream) {}
  DeviceMapScratch(const DeviceMapScratch&) = delete;
  DeviceMapScratch& operator=(const DeviceMapScratch&) = delete;
  ~DeviceMapScratch() {
    if (ptr_) d_.memFreeAsync(ptr_, stream_);
  }
  /// Room for `maps` tensor maps of 128 bytes per program of `grid` (none: nothing); "" or why not.
  std::string allocate(unsigned maps, const std::array<int64_t, 3>& grid) {
    if (!maps) return "";
    const uint64_t bytes = uint64_t(grid[0]) * uint64_t(grid[1]) * uint64_t(grid[2]) * maps * 128;
    if (CUresult r = d_.memAllocAsync(&ptr_, bytes, stream_); r != 0) {
      ptr_ = 0;
      return d_.error("cuMemAllocAsync (the programs' tensor maps)", r);
    }
    return "";
  }
  /// The hidden parameter's slot (after the tensor maps).
  CUdeviceptr* parameter() { return &ptr_; }

 private:
  const Driver& d_;
  Handle stream_;
  CUdeviceptr ptr_ = 0;
};

// The divisor an integer argument is specialized on (a descriptor's stride: codegen::strideDivisorOf).
uint32_t integerDivisor(bool descriptorStride, uint64_t v) {
  return descriptorStride ? codegen::strideDivisorOf(v) : codegen::divisorOf(v);
}

// A scalar kernel argument in its parameter's own width, as cuLaunchKernel reads it (integers
// from `i`, floats from `f`); false for a kind no launch argument has.
bool putScalar(ir::ScalarKind kind, int64_t i, double f, std::array<uint8_t, 8>& slot) {
  auto put = [&](auto v) { std::memcpy(slot.data(), &v, sizeof v); };
  switch (kind) {
    case ir::ScalarKind::I1: case ir::ScalarKind::I8: put(int8_t(i)); return true;
    case ir::ScalarKind::I16: put(int16_t(i)); return true;
    case ir::ScalarKind::I32: put(int32_t(i)); return true;
    case ir::ScalarKind::I64: put(i); return true;
    case ir::ScalarKind::F32: put(float(f)); return true;
    case ir::ScalarKind::F64: put(f); return true;
    default: return false;
  }
}

class CudaDevice : public Device {
 public:
  CudaDevice(Driver d, Handle ctx, CudaProbe probe, const codegen::Target* target, bool coldL2, int ordinal)
      : d_(d), ctx_(ctx), probe_(std::move(probe)), target_(target), coldL2_(coldL2), ordinal_(ordinal) {}
  ~CudaDevice() override {
    d_.ctxSetCurrent(ctx_);
    if (flush_) d_.memFree(flush_);
    for (auto& [key, m] : modules_) {
      *m.loaded = false;
      d_.moduleUnload(m.module);
    }
  }

  std::string describe() const override {
    return "cuda (" + probe_.name + ", sm_" + std::to_string(probe_.major * 10 + probe_.minor) + ", compiled for " + target_->arch + ")";
  }

  Outcome<LaunchResult> run(const LoadedKernel& k, BoundArgs& bound, const LaunchOptions& o) override {
    auto fail = [](const std::string& m) { return environmentError(m); };
    if (std::optional<Diagnostic> bad = checkGrid(o.grid, true)) return inputError(*bad);
    const unsigned launches = std::max(1u, o.repeat);
    if (d_.ctxSetCurrent(ctx_) != 0) return fail("cannot make the GPU's context current");
    auto compileStart = std::chrono::steady_clock::now();
    auto mod = loadedModule(k, bound, o.gpu);
    if (!mod) return mod.error();
    const LoadedModule& lm = **mod;
    Handle fn = lm.fn;
    const uint64_t dynamicShared = lm.launch.dynamicSharedBytes;
    LaunchResult result;
    result.compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - compileStart).count();
    GpuStats& stats = result.gpu.emplace();
    stats.arch = lm.launch.arch;
    stats.threads = lm.launch.threads;
    stats.registers = lm.registers;
    stats.staticSharedBytes = lm.staticShared;
    stats.dynamicSharedBytes = dynamicShared;
    stats.localBytes = lm.local;
    stats.ptxFromDisk = lm.ptxFromDisk;
    stats.cacheDir = lm.cacheDir;
    if (o.gpu.compileOnly) return result;  // warmup: loaded, nothing copied or launched

    std::vector<CUdeviceptr> dev(bound.buffers.size(), 0);
    std::vector<bool> inPlace(bound.buffers.size(), false);  // memory already on this GPU (a CUDA tensor)
    struct Free {
      const Driver& d;
      std::vector<CUdeviceptr>& p;
      std::vector<bool>& borrowed;
      ~Free() {
        for (size_t i = 0; i < p.size(); ++i)
          if (p[i] && !borrowed[i]) d.memFree(p[i]);
      }
    } freeAll{d_, dev, inPlace};
    size_t copied = 0;
    for (size_t i = 0; i < bound.buffers.size(); ++i) {
      interp::Buffer& b = bound.buffers[i];
      if (b.external && onThisGpu(b.data())) {
        dev[i] = CUdeviceptr(b.data());
        inPlace[i] = true;
        continue;
      }
      // The same host memory passed twice (one tensor as two arguments) is one device copy, as
      // it is one allocation: two copies would each be copied back, the last one's bytes winning.
      bool shared = false;
      for (size_t j = 0; j < i && !shared; ++j)
        if (dev[j] && !inPlace[j] && bound.buffers[j].data() == b.data() && bound.buffers[j].byteSize() == b.byteSize()) {
          dev[i] = dev[j];
          inPlace[i] = shared = true;  // borrowed: neither freed nor copied back on its own
        }
      if (shared) continue;
      size_t bytes = std::max<size_t>(b.byteSize(), 1);
      if (CUresult r = d_.memAlloc(&dev[i], bytes); r != 0) return fail(d_.error("cuMemAlloc", r));
      // cuMemcpy infers each side from the address (unified addressing): host memory, or a
      // CUDA tensor on another GPU.
      if (b.byteSize() && d_.memcpy(dev[i], CUdeviceptr(b.data()), b.byteSize()) != 0) return fail("copying " + b.name + " to the GPU failed");
      copied += b.byteSize();
    }
    // Pointer tables hold the device's addresses on the device (the host copy keeps the host's).
    for (const auto& [table, targets] : bound.addressTables) {
      std::vector<uint64_t> addresses;
      for (size_t t : targets) addresses.push_back(dev[t]);
      if (d_.memcpyHtoD(dev[table], addresses.data(), addresses.size() * 8) != 0) return fail("copying a pointer table to the GPU failed");
    }
    // Kernel parameters: device pointers, and scalars in the parameter's own width.
    std::vector<std::array<uint8_t, 8>> storage(k.kernel->params().size());
    std::vector<void*> params(storage.size());
    for (size_t i = 0; i < storage.size(); ++i) {
      const ir::Type& t = k.kernel->params()[i]->type;
      const interp::Arg& a = bound.args[i];
      if (t.isPtr()) {
        const CUdeviceptr p = dev[a.buffer] + a.byteOffset;
        std::memcpy(storage[i].data(), &p, sizeof p);
      } else if (!putScalar(t.elem().kind, a.i, a.f, storage[i])) {
        return inputError(Diagnostic{"<device>", 0, 0, "a scalar parameter of type " + t.str() + " cannot be passed to the GPU yet"});
      }
      params[i] = storage[i].data();
    }
    // The hidden parameters: each tensor map encoded from the arguments' values.
    std::vector<TensorMapBytes> maps;
    if (!lm.launch.tensorMaps.empty()) {
      std::vector<uint64_t> values(storage.size());
      for (size_t i = 0; i < storage.size(); ++i) std::memcpy(&values[i], storage[i].data(), 8);
      if (std::string why = encodeTensorMaps(d_.tensorMapEncodeTiled, lm.launch.tensorMaps, values, k.kernel->paramNames, maps); !why.empty())
        return inputError(Diagnostic{"<device>", 0, 0, why});
      for (TensorMapBytes& m : maps) params.push_back(&m);
    }
    Handle stream = reinterpret_cast<Handle>(uintptr_t(o.gpu.stream));
    DeviceMapScratch deviceMaps(d_, stream);
    if (lm.launch.deviceTensorMaps) {
      if (std::string why = deviceMaps.allocate(lm.launch.deviceTensorMaps, o.grid); !why.empty()) return fail(why);
      params.push_back(deviceMaps.parameter());
    }
    auto launchOnce = [&] {
      return d_.launchKernel(fn, unsigned(o.grid[0]), unsigned(o.grid[1]), unsigned(o.grid[2]), lm.launch.threads, 1, 1,
                             unsigned(dynamicShared), stream, params.data(), nullptr);
    };
    // Queued and not waited for (Triton's way) when nothing comes back to the host.
    bool allInPlace = std::all_of(inPlace.begin(), inPlace.end(), [](bool b) { return b; }) && bound.addressTables.empty();
    if (o.gpu.asynchronous && allInPlace && launches == 1) {
      if (CUresult r = launchOnce(); r != 0) return fail(d_.error("the kernel launch", r));
      result.report.programs = size_t(o.grid[0] * o.grid[1] * o.grid[2]);
      stats.copiedBytes = 0;
      return result;
    }
    // Each launch between its own pair of events; the first (cold) one is left out of the median
    // when there are several.
    Handle start = nullptr, stop = nullptr;
    d_.eventCreate(&start, 0);
    d_.eventCreate(&stop, 0);
    std::vector<double> times;
    CUresult r = 0;
    constexpr size_t kFlushBytes = size_t(256) << 20;
    if (coldL2_ && launches > 1 && !flush_ && d_.memAlloc(&flush_, kFlushBytes) != 0) flush_ = 0;
    for (unsigned i = 0; i < launches && r == 0; ++i) {
      if (flush_) d_.memsetD8(flush_, 0, kFlushBytes);
      d_.eventRecord(start, stream);
      r = launchOnce();
      d_.eventRecord(stop, stream);
      if (r == 0) r = d_.ctxSynchronize();
      float ms = 0;
      d_.eventSynchronize(stop);
      d_.eventElapsedTime(&ms, start, stop);
      if (i > 0 || launches == 1) times.push_back(ms / 1e3);
    }
    d_.eventDestroy(start);
    d_.eventDestroy(stop);
    if (r != 0) return fail(d_.error("the kernel launch", r));
    for (size_t i = 0; i < bound.buffers.size(); ++i) {
      interp::Buffer& b = bound.buffers[i];
      bool table = false;
      for (const auto& t : bound.addressTables) table = table || t.first == i;
      if (table || inPlace[i]) continue;  // device addresses: the host's copy stays; or written in place
      if (b.byteSize() && d_.memcpy(CUdeviceptr(b.data()), dev[i], b.byteSize()) != 0) return fail("copying " + b.name + " back failed");
      copied += b.byteSize();
    }
    result.report.programs = size_t(o.grid[0] * o.grid[1] * o.grid[2]);
    result.report.seconds = medianSeconds(times);
    stats.copiedBytes = copied;
    return result;
  }

  std::unique_ptr<DirectLaunch> direct(const LoadedKernel& k, const BoundArgs& bound, const GpuOptions& gpu) override;

  /// A kernel JIT-loaded by the driver, kept for the device's lifetime.
  struct LoadedModule {
    Handle module = nullptr, fn = nullptr;
    codegen::LaunchInfo launch;
    int registers = -1, staticShared = -1, local = -1;  ///< what the driver's JIT made of it
    bool ptxFromDisk = false;                            ///< the PTX came from the kernel cache
    std::string cacheDir;
    /// False once the module is unloaded (evicted): direct launchers of it then decline.
    std::shared_ptr<bool> loaded = std::make_shared<bool>(true);
  };

  /// The loaded module for `k` specialized on `bound`: from memory when this device loaded it
  /// before (a hit: no bytecode written, no PTX read, no JIT), else compiled (or read from the
  /// kernel cache on disk), loaded, and kept.
  Outcome<const LoadedModule*> loadedModule(const LoadedKernel& k, const BoundArgs& bound, const GpuOptions& gpu) {
    auto fail = [](const std::string& m) { return environmentError(m); };
    codegen::Options copts;
    // The GPU's own target (sm_86 on an sm_86 GPU; sm_90a, with wgmma, on 9.0 alone) and the
    // shared memory its driver lets one block have: every limit is this GPU's.
    copts.arch = target_->arch;
    copts.deviceSharedOptInBytes = uint64_t(probe_.sharedOptInBytes);
    copts.deviceTensorMaps = probe_.driverVersion >= 12080;
    copts.numWarps = gpu.numWarps;
    copts.numStages = gpu.numStages;
    copts.maxRegisters = gpu.maxRegisters;
    specialize(*k.kernel, bound.args, copts);
    // The kernel's key was computed once when it was loaded; a kernel built by hand has none
    // and is keyed here.
    const std::string contentKey = k.key.empty() ? kernelKey(*k.module, *k.kernel) : k.key;
    // Everything the compiled code depends on: the same parts give the same PTX.
    std::vector<std::string> keyParts{TILEVM_VERSION, copts.arch, std::to_string(copts.numWarps),
                                      "stages=" + std::to_string(copts.numStages),
                                      "maxnreg=" + std::to_string(copts.maxRegisters), k.kernel->name, contentKey};
    for (size_t i = 0; i < copts.paramDivisors.size(); ++i)
      keyParts.push_back(std::to_string(copts.paramDivisors[i]) + (copts.paramOnes[i] ? "=1" : ""));
    keyParts.push_back("shared-opt-in=" + std::to_string(copts.deviceSharedOptInBytes));
    keyParts.push_back(copts.deviceTensorMaps ? "device-maps" : "no-device-maps");
    std::string memoryKey;
    for (const std::string& p : keyParts) memoryKey += std::to_string(p.size()) + ":" + p;
    if (auto it = modules_.find(memoryKey); it != modules_.end()) {
      countHit();
      return &it->second;
    }
    // The kernel cache on disk: KernelCache::key adds the build's identity.
    KernelCache cache;
    std::string key = cache.key(keyParts);
    std::optional<codegen::CompiledPtx> cached;
    if (std::optional<std::string> entry = cache.load(key)) cached = decodePtxEntry(*entry);
    Result<codegen::CompiledPtx> ptx = cached ? Result<codegen::CompiledPtx>(*cached) : codegen::emitPtx(*k.module, *k.kernel, copts);
    if (!ptx) return inputError(ptx.error());  // the kernel cannot be lowered: located at its op
    if (!cached) cache.store(key, encodePtxEntry(*ptx));
    // JIT: the error log comes back in a buffer (option values are written into the slots).
    char errorLog[8192] = {0};
    int opts[2] = {5 /*CU_JIT_ERROR_LOG_BUFFER*/, 6 /*CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES*/};
    void* vals[2] = {errorLog, reinterpret_cast<void*>(uintptr_t(sizeof errorLog))};
    LoadedModule lm;
    countModuleLoad();
    CUresult loaded = d_.moduleLoadDataEx(&lm.module, ptx->ptx.c_str(), 2, opts, vals);
    if (loaded != 0 && cached) {
      // An entry the driver rejects (written by a tilevm the key cannot tell apart, or for
      // another driver) is dropped and the PTX built again, once.
      cache.drop(key);
      cached.reset();
      ptx = codegen::emitPtx(*k.module, *k.kernel, copts);
      if (!ptx) return inputError(ptx.error());
      std::fill(std::begin(errorLog), std::end(errorLog), '\0');
      countModuleLoad();
      loaded = d_.moduleLoadDataEx(&lm.module, ptx->ptx.c_str(), 2, opts, vals);
      if (loaded == 0) cache.store(key, encodePtxEntry(*ptx));
    }
    if (loaded != 0) return fail(d_.error("loading the PTX", loaded) + "; the JIT said: " + errorLog);
    struct Unload {  // until the module is kept
      const Driver& d;
      Handle m;
      ~Unload() {
        if (m) d.moduleUnload(m);
      }
    } unload{d_, lm.module};
    if (CUresult r = d_.moduleGetFunction(&lm.fn, lm.module, k.kernel->name.c_str()); r != 0) return fail(d_.error("cuModuleGetFunction", r));
    // A scratch array past 48 KiB is dynamic shared memory: allowed once, sized per launch.
    lm.launch = ptx->launch;
    constexpr int kMaxDynamicShared = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    if (lm.launch.dynamicSharedBytes)
      if (CUresult r = d_.funcSetAttribute(lm.fn, kMaxDynamicShared, int(lm.launch.dynamicSharedBytes)); r != 0)
        return fail(d_.error("cuFuncSetAttribute", r) + " (allowing " + std::to_string(lm.launch.dynamicSharedBytes) +
                    " bytes of dynamic shared memory)");
    // What the driver's JIT made of it (CU_FUNC_ATTRIBUTE_NUM_REGS, _SHARED_SIZE_BYTES,
    // _LOCAL_SIZE_BYTES: local memory per thread is where spills go).
    d_.funcGetAttribute(&lm.registers, 4, lm.fn);
    d_.funcGetAttribute(&lm.staticShared, 1, lm.fn);
    d_.funcGetAttribute(&lm.local, 3, lm.fn);
    // ptxas budgets registers below what the occupancy it reached allows (layer norm's 16384-wide
    // rows: 102 of 128, half its loads in flight): the PTX is JIT-compiled once more with that
    // budget as `.maxnreg`, kept when it spills nothing, and cached so (a later run JITs once).
    const unsigned budget = codegen::occupancyRegisterBudget(unsigned(lm.registers), lm.launch.threads);
    if (lm.local == 0 && budget >= unsigned(lm.registers) + 16 && ptx->ptx.find(".maxnreg") == std::string::npos) {
      codegen::CompiledPtx budgeted = *ptx;
      budgeted.ptx = codegen::withRegisterBudget(ptx->ptx, budget);
      Handle module = nullptr, fn = nullptr;
      countModuleLoad();
      if (d_.moduleLoadDataEx(&module, budgeted.ptx.c_str(), 2, opts, vals) == 0) {
        int registers = 0, local = 1;
        if (d_.moduleGetFunction(&fn, module, k.kernel->name.c_str()) == 0) {
          d_.funcGetAttribute(&registers, 4, fn);
          d_.funcGetAttribute(&local, 3, fn);
        }
        if (fn && local == 0 &&
            (!lm.launch.dynamicSharedBytes || d_.funcSetAttribute(fn, kMaxDynamicShared, int(lm.launch.dynamicSharedBytes)) == 0)) {
          d_.moduleUnload(lm.module);
          unload.m = lm.module = module;
          lm.fn = fn;
          lm.registers = registers;
          d_.funcGetAttribute(&lm.staticShared, 1, lm.fn);
          lm.local = local;
          cache.store(key, encodePtxEntry(budgeted));
        } else {
          d_.moduleUnload(module);
        }
      }
    }
    lm.ptxFromDisk = cached.has_value();
    lm.cacheDir = cache.dir();
    if (modules_.size() >= kMaxCachedKernels) {
      *modules_.begin()->second.loaded = false;
      d_.moduleUnload(modules_.begin()->second.module);
      modules_.erase(modules_.begin());
    }
    unload.m = nullptr;
    return &(modules_[memoryKey] = lm);
  }

  /// Whether p is device memory of this device's GPU (a torch CUDA tensor): used in place.
  bool onThisGpu(const void* p) const {
    unsigned type = 0;
    int ordinal = -1;
    constexpr int kMemoryType = 2, kDeviceOrdinal = 9;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE, _DEVICE_ORDINAL
    constexpr unsigned kDeviceMemory = 2;               // CU_MEMORYTYPE_DEVICE
    if (!d_.pointerGetAttribute || d_.pointerGetAttribute(&type, kMemoryType, CUdeviceptr(p)) != 0 || type != kDeviceMemory)
      return false;
    return d_.pointerGetAttribute(&ordinal, kDeviceOrdinal, CUdeviceptr(p)) == 0 && ordinal == ordinal_;
  }

 private:
  friend class CudaDirectLaunch;
  Driver d_;
  Handle ctx_;
  CudaProbe probe_;
  const codegen::Target* target_;  // the row of codegen/Targets.h this GPU runs
  bool coldL2_;  // clear L2 before each timed launch
  int ordinal_ = 0;
  CUdeviceptr flush_ = 0;   // the L2-clearing buffer, allocated at the first timed launch
  std::map<std::string, LoadedModule> modules_;  // loaded kernels by everything their code depends on
};

/// CudaDevice::direct's launcher: the loaded function, its launch shape, and per parameter what
/// the code was specialized on, checked against each launch's values.
class CudaDirectLaunch final : public DirectLaunch {
 public:
  struct Param {
    ir::ScalarKind kind;  ///< Ptr for a pointer; else the scalar's kind
    uint32_t divisor;     ///< codegen::divisorOf the compiled code assumes
    bool one;             ///< an integer the code assumes equal to 1
    bool stride;          ///< a descriptor's stride: the divisor is codegen::strideDivisorOf
  };
  CudaDirectLaunch(CudaDevice& dev, const CudaDevice::LoadedModule& lm, std::vector<Param> params, std::vector<std::string> names)
      : dev_(dev), fn_(lm.fn), threads_(lm.launch.threads), dynamicShared_(unsigned(lm.launch.dynamicSharedBytes)),
        loaded_(lm.loaded), params_(std::move(params)), names_(std::move(names)), tensorMaps_(lm.launch.tensorMaps),
        deviceMaps_(lm.launch.deviceTensorMaps) {}

  Outcome<bool> launch(const std::array<int64_t, 3>& grid, const std::vector<uint64_t>& args, uint64_t stream) override {
    if (!*loaded_ || args.size() != params_.size()) return false;
    if (std::optional<Diagnostic> bad = checkGrid(grid, true)) return inputError(*bad);
    std::vector<std::array<uint8_t, 8>> storage(params_.size());
    std::vector<void*> slots(params_.size());
    for (size_t i = 0; i < params_.size(); ++i) {
      const Param& p = params_[i];
      const uint64_t bits = args[i];
      const int64_t v = int64_t(bits);
      auto fits = [&](int64_t lo, int64_t hi) { return v >= lo && v <= hi; };
      bool ok = true;
      if (p.kind == ir::ScalarKind::Ptr) {
        ok = codegen::divisorOf(bits) == p.divisor && dev_.onThisGpu(reinterpret_cast<const void*>(uintptr_t(bits)));
        std::memcpy(storage[i].data(), &bits, sizeof bits);
      } else {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (!putScalar(p.kind, v, d, storage[i])) return false;
        switch (p.kind) {
          case ir::ScalarKind::I1: ok = fits(0, 1); break;
          case ir::ScalarKind::I8: ok = fits(INT8_MIN, INT8_MAX); break;
          case ir::ScalarKind::I16: ok = fits(INT16_MIN, INT16_MAX); break;
          case ir::ScalarKind::I32: ok = fits(INT32_MIN, INT32_MAX); break;
          default: break;
        }
      }
      if (ir::ElemType{p.kind, ir::ScalarKind::I32}.isInt() && (integerDivisor(p.stride, bits) != p.divisor || (v == 1) != p.one))
        ok = false;
      if (!ok) return false;
      slots[i] = storage[i].data();
    }
    std::vector<TensorMapBytes> maps;
    if (!tensorMaps_.empty()) {
      if (std::string why = encodeTensorMaps(dev_.d_.tensorMapEncodeTiled, tensorMaps_, args, names_, maps); !why.empty())
        return inputError(Diagnostic{"<device>", 0, 0, why});
      for (TensorMapBytes& m : maps) slots.push_back(&m);
    }
    if (dev_.d_.ctxSetCurrent(dev_.ctx_) != 0) return environmentError("cannot make the GPU's context current");
    DeviceMapScratch deviceMaps(dev_.d_, reinterpret_cast<Handle>(uintptr_t(stream)));
    if (deviceMaps_) {
      if (std::string why = deviceMaps.allocate(deviceMaps_, grid); !why.empty()) return environmentError(why);
      slots.push_back(deviceMaps.parameter());
    }
    if (CUresult r = dev_.d_.launchKernel(fn_, unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2]), threads_, 1, 1, dynamicShared_,
                                          reinterpret_cast<Handle>(uintptr_t(stream)), slots.data(), nullptr);
        r != 0)
      return environmentError(dev_.d_.error("the kernel launch", r));
    countHit();
    return true;
  }

 private:
  CudaDevice& dev_;
  Handle fn_;
  unsigned threads_, dynamicShared_;
  std::shared_ptr<bool> loaded_;
  std::vector<Param> params_;
  std::vector<std::string> names_;                ///< the kernel's parameter names (errors)
  std::vector<codegen::TensorMap> tensorMaps_;  ///< encoded per launch from the arguments
  unsigned deviceMaps_;                         ///< tensor maps each program builds (LaunchInfo::deviceTensorMaps)
};

std::unique_ptr<DirectLaunch> CudaDevice::direct(const LoadedKernel& k, const BoundArgs& bound, const GpuOptions& gpu) {
  // Pointer tables the binder filled (ptrs:) are rewritten with device addresses per launch, and
  // memory off this GPU needs copies: those launches keep Device::run. A table that is a CUDA
  // tensor already holds device addresses, as Device::run passes it too (tutorial 08's grouped
  // GEMM): a kernel that makes pointers from it launches directly.
  if (!bound.addressTables.empty() || bound.args.size() != k.kernel->params().size()) return nullptr;
  for (const interp::Buffer& b : bound.buffers)
    if (!b.external || !onThisGpu(b.data())) return nullptr;
  if (d_.ctxSetCurrent(ctx_) != 0) return nullptr;
  auto mod = loadedModule(k, bound, gpu);
  if (!mod) return nullptr;
  codegen::Options copts;
  specialize(*k.kernel, bound.args, copts);
  std::vector<CudaDirectLaunch::Param> params;
  for (size_t i = 0; i < k.kernel->params().size(); ++i) {
    const ir::Type& t = k.kernel->params()[i]->type;
    params.push_back({t.isPtr() ? ir::ScalarKind::Ptr : t.elem().kind, copts.paramDivisors[i], bool(copts.paramOnes[i]),
                      isDescriptorStride(*k.kernel, i)});
  }
  return std::make_unique<CudaDirectLaunch>(*this, **mod, std::move(params), k.kernel->paramNames);
}

}  // namespace

bool isDescriptorStride(const ir::Kernel& k, size_t i) {
  const std::string& name = i < k.paramNames.size() ? k.paramNames[i] : std::string();
  const size_t dot = name.rfind(".stride");
  if (dot == std::string::npos || dot + 7 == name.size()) return false;
  for (size_t c = dot + 7; c < name.size(); ++c)
    if (name[c] < '0' || name[c] > '9') return false;
  const std::string base = name.substr(0, dot) + ".base";
  return std::find(k.paramNames.begin(), k.paramNames.end(), base) != k.paramNames.end();
}

void specialize(const ir::Kernel& k, const std::vector<interp::Arg>& args, codegen::Options& o) {
  for (size_t i = 0; i < k.params().size() && i < args.size(); ++i) {
    const ir::Type& t = k.params()[i]->type;
    const interp::Arg& a = args[i];
    const uint64_t v = uint64_t(a.i);
    o.paramDivisors.push_back(t.isPtr() ? codegen::divisorOf(a.byteOffset) : t.isInt() ? integerDivisor(isDescriptorStride(k, i), v) : 1);
    o.paramOnes.push_back(t.isInt() && !t.isPtr() && a.i == 1);
  }
}

Outcome<std::unique_ptr<Device>> openCuda(int ordinal, bool coldL2) {
  CudaProbe probe = probeCuda(ordinal);
  if (!probe.usable) return environmentError(probe.reason);
  const codegen::Target* target = codegen::targetForCapability(probe.major, probe.minor);
  if (!target)
    return environmentError("sm_" + std::to_string(probe.major * 10 + probe.minor) + " is older than " + codegen::kTargets[0].arch +
                            ", the oldest target");
  Driver d;
  if (std::string why = loadDriver(d); !why.empty()) return environmentError(why);
  d.init(0);
  CUdevice dev = 0;
  Handle ctx = nullptr;
  if (d.deviceGet(&dev, ordinal) != 0 || d.primaryCtxRetain(&ctx, dev) != 0)
    return environmentError("cannot open a context on cuda:" + std::to_string(ordinal));
  return std::unique_ptr<Device>(std::make_unique<CudaDevice>(d, ctx, probe, target, coldL2, ordinal));
}

}  // namespace tilevm::rt

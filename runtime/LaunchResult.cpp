// LaunchResult.cpp - the GPU statistics in words and the launch's JSON (see LaunchResult.h).
#include "runtime/LaunchResult.h"

#include "runtime/LaunchCache.h"

#include <cstdio>
#include <sstream>

namespace tilevm::rt {

std::string GpuStats::text() const {
  return "registers " + std::to_string(registers) + " per thread, shared memory " +
         std::to_string(uint64_t(staticSharedBytes < 0 ? 0 : staticSharedBytes) + dynamicSharedBytes) + " bytes per block (" +
         std::to_string(dynamicSharedBytes) + " dynamic), local memory (spills) " + std::to_string(localBytes) +
         " bytes per thread, " + std::to_string(threads) + " threads per block on " + arch +
         (ptxFromDisk ? ", PTX from the kernel cache (" + cacheDir + ")" : "");
}

std::string LaunchResult::json() const {
  std::ostringstream extra;
  extra << ",\n  \"compile_seconds\": " << compileSeconds;
  if (gpu) extra << ",\n  \"kernel_stats\": " << interp::jsonString(gpu->text());
  CacheCounters c = cacheCounters();  // the process's, after this launch: the keys of tilevm.last_launch
  extra << ",\n  \"launch_caches\": {\"bytecode_encodes\": " << c.bytecodeEncodes << ", \"prepares\": " << c.prepares
        << ", \"module_loads\": " << c.moduleLoads << ", \"cache_hits\": " << c.hits << "}";
  return report.json(extra.str());
}

}  // namespace tilevm::rt

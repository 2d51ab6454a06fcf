// LaunchCache.cpp - the launch counters and kernel keys (see LaunchCache.h).
#include "runtime/LaunchCache.h"

#include <atomic>
#include <cstdio>

#include "ir/bytecode/Bytecode.h"

namespace tilevm::rt {

namespace {

std::atomic<uint64_t> encodes{0}, prepares{0}, loads{0}, hits{0};

uint64_t fnv1a(const uint8_t* p, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::string plural(uint64_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace

CacheCounters cacheCounters() { return CacheCounters{encodes.load(), prepares.load(), loads.load(), hits.load()}; }
void countBytecodeEncode() { ++encodes; }
void countPrepare() { ++prepares; }
void countModuleLoad() { ++loads; }
void countHit() { ++hits; }

std::string describe(const CacheCounters& c) {
  return plural(c.bytecodeEncodes, "bytecode encode", "bytecode encodes") + ", " + plural(c.prepares, "prepare", "prepares") + ", " +
         plural(c.moduleLoads, "module load", "module loads") + ", " + plural(c.hits, "in-memory hit", "in-memory hits");
}

std::string kernelKey(const ir::Module& module, const ir::Kernel& kernel) {
  countBytecodeEncode();
  std::vector<uint8_t> bytes = ir::write(module);
  // Two independent 64-bit FNV-1a streams over the kernel's name and the bytecode.
  const auto* name = reinterpret_cast<const uint8_t*>(kernel.name.data());
  uint64_t a = fnv1a(name, kernel.name.size() + 1, 14695981039346656037ull);
  uint64_t b = fnv1a(name, kernel.name.size() + 1, 0x9e3779b97f4a7c15ull ^ 0x5bd1e995);
  a = fnv1a(bytes.data(), bytes.size(), a);
  b = fnv1a(bytes.data(), bytes.size(), b);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
  return hex;
}

}  // namespace tilevm::rt

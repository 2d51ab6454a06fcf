// Targets.h - the GPU targets tilevm compiles for and their per-arch limits, in one table (the
// CUDA programming guide's compute-capability table; docs/limits.md). Header-only, so the
// runtime's driver probe reads it without linking the code generator.
#pragma once

#include <algorithm>

#include <cstdint>
#include <string>
#include <string_view>

namespace tilevm::codegen {

/// One target of the code generator.
struct Target {
  const char* arch;         ///< the name --arch takes and LLVM's -mcpu: "sm_86"
  unsigned capability;      ///< compute capability as major*10+minor: 86
  unsigned sharedOptInKiB;  ///< shared memory one block may opt in to (cuFuncSetAttribute), KiB
  bool archSpecific;        ///< sm_90a: runs on exactly this capability (wgmma), no later one
};

/// Every target, oldest first. A GPU of capability C runs the target named sm_C (sm_90a for
/// 9.0); the limits of a kernel compiled for a target are that row's.
inline constexpr Target kTargets[] = {
    {"sm_80", 80, 163, false}, {"sm_86", 86, 99, false}, {"sm_87", 87, 163, false},
    {"sm_89", 89, 99, false},  {"sm_90", 90, 227, false}, {"sm_90a", 90, 227, true},
};

/// Threads one block may have on every target (Triton's num_warps 32).
inline constexpr unsigned kMaxThreadsPerBlock = 1024;

/// Blocks along a grid's Y and Z on every target (X takes 2^31-1, as the interpreter's axes).
inline constexpr int64_t kMaxGridYZ = 65535;

/// The registers per thread a kernel of `threads` threads per block may use without an SM
/// holding fewer of its blocks than it does at `registers` (every target: 65,536 registers per
/// SM, allocated 8 per thread at a time; at most 2,048 threads and 32 blocks per SM, 255
/// registers per thread). Shared memory may bound the blocks further, never raising this.
inline unsigned occupancyRegisterBudget(unsigned registers, unsigned threads) {
  constexpr unsigned kRegistersPerSm = 65536, kThreadsPerSm = 2048, kBlocksPerSm = 32, kMaxRegisters = 255;
  if (threads == 0 || registers == 0) return registers;
  unsigned rounded = (registers + 7) / 8 * 8;
  unsigned blocks = std::min({kRegistersPerSm / (threads * rounded), kThreadsPerSm / threads, kBlocksPerSm});
  if (blocks == 0) return registers;
  return std::min(kMaxRegisters, kRegistersPerSm / (blocks * threads) / 8 * 8);
}

/// Shared memory a kernel keeps for its static arrays; the dynamic part may use the rest of
/// the opt-in maximum.
inline constexpr uint64_t kStaticSharedReserveBytes = 1024;

/// The row named `arch`, or null.
inline const Target* findTarget(std::string_view arch) {
  for (const Target& t : kTargets)
    if (arch == t.arch) return &t;
  return nullptr;
}

/// "sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a": the names --arch accepts.
inline std::string targetNames() {
  std::string s;
  constexpr size_t n = sizeof kTargets / sizeof kTargets[0];
  for (size_t i = 0; i < n; ++i) s += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kTargets[i].arch;
  return s;
}

/// The target a GPU of compute capability major.minor runs: its own row (sm_90a for 9.0); a
/// newer capability without a row runs the newest portable target below it (PTX is JIT-compiled
/// forward), its limits then taken from the device. Null for a GPU older than the oldest row.
inline const Target* targetForCapability(int major, int minor) {
  const int cc = major * 10 + minor;
  const Target* best = nullptr;
  for (const Target& t : kTargets) {
    if (int(t.capability) == cc && (t.archSpecific || !findTarget(std::string(t.arch) + "a"))) return &t;
    if (int(t.capability) <= cc && !t.archSpecific) best = &t;
  }
  return best;
}

}  // namespace tilevm::codegen

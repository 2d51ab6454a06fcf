// Memory.h - the launch's address space: buffers by address, the bounds check (one range
// check per tile in the common case), and the per-element shadow state of the checks.
#pragma once

#include <atomic>
#include <cstdlib>
#include <memory>
#include <vector>

#include "interpreter/Interpreter.h"
#include "interpreter/Numeric.h"

namespace tilevm::interp {

/// Elements per race-shadow chunk.
inline constexpr int64_t kRaceChunk = 64;

/// Race-detection shadow (layout in Races.cpp): one 32-bit word per chunk of 64 elements that
/// describes the whole chunk while every access covered it entirely, and one word per element,
/// used only for chunks an access covered partly (calloc: untouched pages cost nothing).
struct RaceShadow {
  std::unique_ptr<uint32_t[], void (*)(void*)> words{nullptr, std::free};   ///< per element
  std::unique_ptr<uint32_t[], void (*)(void*)> chunks{nullptr, std::free};  ///< per chunk
  int64_t numel = 0;
};

/// Zeroes a race shadow: the chunk words, and the element words of split chunks (Races.cpp).
void clearRaceShadow(RaceShadow& s);

/// A buffer as the interpreter sees it.
struct MemRegion {
  uint64_t base = 0, end = 0;  ///< [base, end) in bytes
  Buffer* buffer = nullptr;
  unsigned elemBytes = 1;
  /// No store or atomic of the kernel can reach this buffer (WriteSet.h): loads may read it in place.
  bool readOnly = false;
  /// Per element: written yet (empty buffers only); accessed via std::atomic_ref.
  std::unique_ptr<uint8_t[], void (*)(void*)> init{nullptr, std::free};
  RaceShadow race;
};

/// All regions of a launch, sorted by address.
class AddressSpace {
 public:
  /// `readOnly[i]`: no store or atomic of the kernel can reach buffers[i] (WriteSet.h; empty:
  /// none known). Such buffers get no race shadow: a race needs a write.
  AddressSpace(std::vector<Buffer>& buffers, const Checks& checks, const std::vector<bool>& readOnly);
  /// Clears the shadows and keeps their memory for the next launch (ShadowPool in Memory.cpp).
  ~AddressSpace();
  AddressSpace(const AddressSpace&) = delete;
  AddressSpace& operator=(const AddressSpace&) = delete;
  /// The region holding [lo, hi), or null.
  MemRegion* find(uint64_t lo, uint64_t hi);
  /// The region nearest to an address (for reporting how far out an access is).
  const MemRegion* nearest(uint64_t addr) const;
  std::vector<MemRegion>& regions() { return regions_; }

 private:
  std::vector<MemRegion> regions_;
};

}  // namespace tilevm::interp

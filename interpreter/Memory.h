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

/// One 32-bit shadow word per element for race detection (layout in Races.cpp): who last
/// accessed it, how, with which op. 4 bytes per element: the check stays within 2x of f32 data.
struct RaceShadow {
  std::unique_ptr<uint32_t[], void (*)(void*)> words{nullptr, std::free};  ///< accessed via std::atomic_ref
};

/// A buffer as the interpreter sees it.
struct MemRegion {
  uint64_t base = 0, end = 0;  ///< [base, end) in bytes
  Buffer* buffer = nullptr;
  unsigned elemBytes = 1;
  /// Per element: written yet (empty buffers only); accessed via std::atomic_ref.
  std::unique_ptr<uint8_t[], void (*)(void*)> init{nullptr, std::free};
  RaceShadow race;
};

/// All regions of a launch, sorted by address.
class AddressSpace {
 public:
  AddressSpace(std::vector<Buffer>& buffers, const Checks& checks);
  /// The region holding [lo, hi), or null.
  MemRegion* find(uint64_t lo, uint64_t hi);
  /// The region nearest to an address (for reporting how far out an access is).
  const MemRegion* nearest(uint64_t addr) const;
  std::vector<MemRegion>& regions() { return regions_; }

 private:
  std::vector<MemRegion> regions_;
};

}  // namespace tilevm::interp

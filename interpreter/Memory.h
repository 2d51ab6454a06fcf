// Memory.h - the launch's address space: buffers by address, the bounds check (one range
// check per tile in the common case), and the per-element shadow state of the checks.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "interpreter/Interpreter.h"
#include "interpreter/Numeric.h"

namespace tilevm::interp {

/// Shadow words of one buffer for race detection. Each packs a program (pid+1, 0 = none), the
/// program's epoch, the op (an index into the kernel's memory ops) and a "several readers" bit.
struct RaceShadow {
  std::unique_ptr<std::atomic<uint64_t>[]> writer, reader;
};

/// A buffer as the interpreter sees it.
struct MemRegion {
  uint64_t base = 0, end = 0;  ///< [base, end) in bytes
  Buffer* buffer = nullptr;
  unsigned elemBytes = 1;
  std::unique_ptr<std::atomic<uint8_t>[]> init;  ///< per element: written yet (empty buffers only)
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

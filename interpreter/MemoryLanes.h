// MemoryLanes.h - the lanes of one memory op (load, store, atomic) after their checks: masks,
// the bounds check, and the region each active lane lies in (OpsMemory.cpp checks them;
// OpsMemory.cpp and OpsAtomic.cpp use them).
#pragma once

#include <cstdint>
#include <vector>

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// The lanes of one memory op, checked: for each active lane, its region and element index
/// (region null: the lane faulted and must be skipped).
struct Lanes {
  const Tile* ptrs = nullptr;
  const uint64_t* addr = nullptr;        // per lane; null until needed when ptrs is symbolic
  const uint64_t* rowAddr = nullptr;     // per row, when rowsContiguous
  const uint8_t* mask = nullptr;         // null: every lane is active
  bool maskIsScalar = false;
  std::vector<MemRegion*> region;        // per lane (only filled on the slow path)
  MemRegion* single = nullptr;           // fast path: every active lane lies in this region
  bool contiguous = false;               // lane i at base + i * eb, all active
  bool rowsContiguous = false;           // each row (last dim) is contiguous, all active
  bool denseSet = false;                 // the lanes cover [denseLo, denseLo + n * eb) once each
  bool maskedContiguous = false;         // lane i at denseLo + i * eb, some lanes masked off
  uint64_t denseLo = 0;
  int64_t rowLen = 1;
  bool any = false;
  bool active(int64_t i) const { return !mask || mask[maskIsScalar ? 0 : i]; }
};

/// The lanes of a memory op: addresses, mask, the region they lie in, with bounds checked and
/// each fault reported (and recorded for `tilevm viz` when the launch asks).
Lanes checkLanes(Program& p, const Instr& ins, const Tile& ptrs, const Tile* mask, unsigned eb);

/// The address of every lane (materializing a symbolic pointer tile on first use).
const uint64_t* laneAddrs(Program& p, Lanes& l);

/// The region active lane i lies in (null: it faulted).
MemRegion* laneRegion(const Lanes& l, int64_t i);

}  // namespace tilevm::interp

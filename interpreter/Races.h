// Races.h - data-race detection: the shadow word packing and the checks run on each access.
// Two accesses race when different programs touch one element, at least one is a plain write,
// and no release -> acquire chain of atomics orders them (vector clocks, FastTrack-style;
// programs that never synchronize carry no clock).
#pragma once

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// Largest grid (programs) whose accesses the shadow words can name.
inline constexpr uint64_t kMaxRacePrograms = (uint64_t(1) << 20) - 2;

/// The shadow word program p's plain access through `ins` leaves (0 if it needs the slow path:
/// a program past its first release).
uint32_t raceWordFor(const Program& p, const Instr& ins, bool write);

/// The common case, inline: the element is fresh or was last touched the same way by the same
/// program. Returns false when the full check (raceRead/raceWrite) must run.
inline bool raceQuick(uint32_t& word, uint32_t mine) {
  if (mine == 0) return false;
  std::atomic_ref<uint32_t> slot(word);
  uint32_t cur = slot.load(std::memory_order_relaxed);
  if (cur == mine) return true;
  return cur == 0 && slot.compare_exchange_strong(cur, mine);
}

/// Records a plain read of element `elem` of `r`; reports a race with an earlier write.
void raceRead(Program& p, const Instr& ins, MemRegion& r, int64_t elem);
/// Records a plain write; reports a race with an earlier write or read.
void raceWrite(Program& p, const Instr& ins, MemRegion& r, int64_t elem);
/// An atomic access: races only with unordered plain writes.
void raceAtomic(Program& p, const Instr& ins, MemRegion& r, int64_t elem);

}  // namespace tilevm::interp

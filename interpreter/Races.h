// Races.h - data-race detection: the shadow word packing and the checks run on each access.
// Two accesses race when different programs touch one element, at least one is a plain write,
// and no release -> acquire chain of atomics orders them (vector clocks, FastTrack-style;
// programs that never synchronize carry no clock).
#pragma once

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// Largest grid (programs) whose accesses the shadow words can name.
inline constexpr uint64_t kMaxRacePrograms = (uint64_t(1) << 20) - 2;

/// Records a plain read of element `elem` of `r`; reports a race with an earlier write.
void raceRead(Program& p, const Instr& ins, MemRegion& r, int64_t elem);
/// Records a plain write; reports a race with an earlier write or read.
void raceWrite(Program& p, const Instr& ins, MemRegion& r, int64_t elem);
/// An atomic access: races only with unordered plain writes.
void raceAtomic(Program& p, const Instr& ins, MemRegion& r, int64_t elem);

}  // namespace tilevm::interp

// Races.h - data-race detection. Two accesses race when different programs touch one element,
// at least one is a plain write, and no release -> acquire chain of atomics orders them (vector
// clocks, FastTrack-style; programs that never synchronize carry no clock). The shadow state
// is kept per chunk of elements while accesses cover whole chunks, per element otherwise.
#pragma once

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// Largest grid (programs) whose accesses the shadow words can name.
inline constexpr uint64_t kMaxRacePrograms = (uint64_t(1) << 20) - 2;

/// Records plain accesses by `ins` to elements [lo, hi) of `r` (reads or writes); reports a
/// race with an earlier unordered access by another program.
void raceRange(Program& p, const Instr& ins, MemRegion& r, int64_t lo, int64_t hi, bool write);

/// An atomic access: races only with unordered plain writes.
void raceAtomic(Program& p, const Instr& ins, MemRegion& r, int64_t elem);

}  // namespace tilevm::interp

// Races.h - data-race detection. Two accesses race when different programs touch one element,
// at least one is a plain write, and no release -> acquire chain of atomics orders them (vector
// clocks, FastTrack-style; programs that never synchronize carry no clock). The shadow state
// is kept per chunk of granules while accesses cover whole chunks, per granule otherwise (the
// allocation's shadow, Memory.h). Writes of identical bits by unordered programs are a benign
// race: a note, unless Checks::strict.
#pragma once

#include "interpreter/Exec.h"

namespace tilevm::interp {

/// Largest grid (programs) whose accesses the shadow words can name.
inline constexpr uint64_t kMaxRacePrograms = (uint64_t(1) << 20) - 2;

/// Records plain reads by `ins` (of `eb`-byte elements, through buffer `r`) of granules
/// [lo, hi) of r's allocation; reports a race with an earlier unordered write by another
/// program, in elements of r.
void raceRead(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, int64_t lo, int64_t hi);

/// A plain write by `ins` of `bytes` bytes from `src` (in memory order) to address `at`, which
/// are granules [lo, hi) of r's allocation: writes the memory and records the write, one shadow
/// chunk at a time under that chunk's lock, so that a write meeting another program's unordered
/// write compares its bits with exactly the bits that program stored (benign when identical).
void raceWrite(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, int64_t lo, int64_t hi, uint64_t at,
               const uint8_t* src, uint64_t bytes);

/// An atomic access of `eb` bytes at `addr`: races only with unordered plain writes.
void raceAtomic(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, uint64_t addr);

}  // namespace tilevm::interp

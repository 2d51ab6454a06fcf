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

/// What a plain write put in memory, for telling a benign race (identical bits) from a
/// harmful one; both in memory order from the first granule of the range (null: unknown).
struct WriteBits {
  const uint8_t* old = nullptr;   ///< the bytes before this write (taken when raceWrittenByOthers said so)
  const uint8_t* mine = nullptr;  ///< the bytes this write stored
};

/// Records plain accesses by `ins` (of `eb`-byte elements, through buffer `r`) to granules
/// [lo, hi) of r's allocation (reads or writes); reports a race with an earlier unordered
/// access by another program, in elements of r.
void raceRange(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, int64_t lo, int64_t hi, bool write,
               const WriteBits* bits = nullptr);

/// May granules [lo, hi) of `a` hold a write by another program (the caller then keeps the
/// bytes it is about to overwrite, for WriteBits::old)?
bool raceWrittenByOthers(const Program& p, const Allocation& a, int64_t lo, int64_t hi);

/// An atomic access of `eb` bytes at `addr`: races only with unordered plain writes.
void raceAtomic(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, uint64_t addr);

}  // namespace tilevm::interp

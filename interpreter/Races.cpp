// Races.cpp - one 32-bit shadow word per element, updated with compare-and-swap:
//   bits 12..31  pid+1 of the program that last accessed the element (0: never accessed)
//   bits  3..11  the op (index into the kernel's ops; saturates)
//   bit   2      the access's epoch is > 1 and kept in LaunchState::lateEpochs
//   bits  0..1   state: 0 none, 1 read by one program, 2 written, 3 read by several programs
// An access by program P conflicts with the recorded one when the programs differ, one side is
// a write (or the element has several readers and P writes), and the recorded access is not
// ordered before P by a release -> acquire chain (its epoch <= P's clock entry for it). Only
// programs that synchronize have clocks; for all others detection is exact and independent of
// the schedule. Accesses before a program's first release have epoch 1 and need no side entry.
#include "interpreter/Races.h"

#include <algorithm>

namespace tilevm::interp {

namespace {

enum State : uint32_t { None = 0, ReadOne = 1, Written = 2, ReadMany = 3 };

struct Word {
  uint32_t pidPlus1, op;
  bool late;
  State state;
};

uint32_t pack(const Word& w) {
  return (w.pidPlus1 << 12) | (std::min<uint32_t>(w.op, 511) << 3) | (uint32_t(w.late) << 2) | w.state;
}
Word unpack(uint32_t v) { return Word{v >> 12, (v >> 3) & 511, bool((v >> 2) & 1), State(v & 3)}; }

std::array<int64_t, 3> pidOf(const Program& p, uint32_t linear) {
  const auto& g = p.launch.grid;
  return {int64_t(linear) % g[0], (int64_t(linear) / g[0]) % g[1], int64_t(linear) / (g[0] * g[1])};
}

uint32_t epochOf(Program& p, const MemRegion& r, int64_t elem, const Word& w) {
  if (!w.late) return 1;
  std::lock_guard<std::mutex> lock(p.launch.epochMutex);
  auto it = p.launch.lateEpochs.find({&r, elem});
  return it == p.launch.lateEpochs.end() ? 1 : it->second;
}

// Is the recorded access ordered before the current point of p?
bool ordered(Program& p, const MemRegion& r, int64_t elem, const Word& w) {
  if (w.pidPlus1 == 0 || w.pidPlus1 == p.linear + 1) return true;
  if (p.clock.entries.empty()) return false;  // p never acquired anything
  return p.clock.get(w.pidPlus1 - 1) >= epochOf(p, r, elem, w);
}

void reportRace(Program& p, const Instr& ins, MemRegion& r, int64_t elem, const char* access, const Word& other,
                const char* otherAccess) {
  Finding f;
  f.kind = Finding::Kind::Race;
  f.loc = p.loc(ins);
  f.buffer = r.buffer->name;
  f.element = elem;
  f.access = access;
  f.hasOther = true;
  f.otherPid = pidOf(p, other.pidPlus1 - 1);
  f.otherLoc = other.op < p.launch.code.opLocs.size() ? p.launch.code.opLocs[other.op] : "<op beyond the 512th>";
  f.otherAccess = otherAccess;
  p.report(std::move(f));
}

void access(Program& p, const Instr& ins, MemRegion& r, int64_t elem, bool write) {
  std::atomic_ref<uint32_t> slot(r.race.words[size_t(elem)]);
  const uint32_t me = p.linear + 1;
  const bool late = p.epoch > 1;
  uint32_t cur = slot.load(std::memory_order_relaxed);
  for (;;) {
    Word w = unpack(cur);
    // Repeated access by the same program in the same way: nothing changes.
    if (w.pidPlus1 == me && !late && w.op == std::min<uint32_t>(ins.memId, 511) &&
        (w.state == Written || (!write && w.state == ReadOne)))
      return;
    Word next{me, ins.memId, late, write ? Written : ReadOne};
    const char* conflict = nullptr;
    switch (w.state) {
      case None: break;
      case ReadOne:
        if (write) {
          if (!ordered(p, r, elem, w)) conflict = "read";
        } else if (!ordered(p, r, elem, w)) {
          next = w;  // keep the other reader for reports
          next.state = ReadMany;
        }
        break;
      case ReadMany:
        if (write) {
          if (w.pidPlus1 != me ? !ordered(p, r, elem, w) : true) conflict = "read";
        } else {
          next = w;
        }
        break;
      case Written:
        if (!ordered(p, r, elem, w)) conflict = "write";
        break;
    }
    if (slot.compare_exchange_weak(cur, pack(next))) {
      if (late && (next.pidPlus1 == me)) {
        std::lock_guard<std::mutex> lock(p.launch.epochMutex);
        p.launch.lateEpochs[{&r, elem}] = p.epoch;
      }
      if (conflict) reportRace(p, ins, r, elem, write ? "write" : "read", w, conflict);
      return;
    }
  }
}

}  // namespace

uint32_t raceWordFor(const Program& p, const Instr& ins, bool write) {
  if (p.epoch > 1) return 0;
  return pack(Word{p.linear + 1, ins.memId, false, write ? Written : ReadOne});
}

void raceRead(Program& p, const Instr& ins, MemRegion& r, int64_t elem) { access(p, ins, r, elem, false); }
void raceWrite(Program& p, const Instr& ins, MemRegion& r, int64_t elem) { access(p, ins, r, elem, true); }

void raceAtomic(Program& p, const Instr& ins, MemRegion& r, int64_t elem) {
  Word w = unpack(std::atomic_ref<uint32_t>(r.race.words[size_t(elem)]).load());
  if (w.state == Written && !ordered(p, r, elem, w)) reportRace(p, ins, r, elem, "atomic", w, "write");
}

}  // namespace tilevm::interp

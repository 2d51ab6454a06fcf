// Races.cpp - shadow words: [pid+1 : 26][epoch : 22][op : 15][several readers : 1].
#include "interpreter/Races.h"

#include <algorithm>

namespace tilevm::interp {

namespace {

struct Access {
  uint32_t pidPlus1, epoch, op;
  bool multi;
};

uint64_t pack(const Access& a) {
  return (uint64_t(a.pidPlus1) << 38) | (uint64_t(std::min<uint32_t>(a.epoch, (1u << 22) - 1)) << 16) |
         (uint64_t(std::min<uint32_t>(a.op, (1u << 15) - 1)) << 1) | uint64_t(a.multi);
}
Access unpack(uint64_t w) {
  return Access{uint32_t(w >> 38), uint32_t((w >> 16) & ((1u << 22) - 1)), uint32_t((w >> 1) & 0x7fff), bool(w & 1)};
}

// Does access `a` (by another program) happen before the current point of `p`?
bool orderedBefore(const Program& p, const Access& a) {
  if (a.pidPlus1 == 0 || a.pidPlus1 == p.linear + 1) return true;
  return p.clock.get(a.pidPlus1 - 1) >= a.epoch;
}

std::array<int64_t, 3> pidOf(const Program& p, uint32_t linear) {
  const auto& g = p.launch.grid;
  return {int64_t(linear) % g[0], (int64_t(linear) / g[0]) % g[1], int64_t(linear) / (g[0] * g[1])};
}

void reportRace(Program& p, const Instr& ins, MemRegion& r, int64_t elem, const char* access, const Access& other,
                const char* otherAccess) {
  Finding f;
  f.kind = Finding::Kind::Race;
  f.loc = p.loc(ins);
  f.buffer = r.buffer->name;
  f.element = elem;
  f.access = access;
  f.hasOther = true;
  f.otherPid = pidOf(p, other.pidPlus1 - 1);
  f.otherLoc = other.op < p.launch.code.opLocs.size() ? p.launch.code.opLocs[other.op] : "<unknown>";
  f.otherAccess = otherAccess;
  p.report(std::move(f));
}

Access self(const Program& p, const Instr& ins, bool multi = false) { return Access{p.linear + 1, p.epoch, ins.memId, multi}; }

}  // namespace

void raceRead(Program& p, const Instr& ins, MemRegion& r, int64_t elem) {
  std::atomic<uint64_t>& rd = r.race.reader[size_t(elem)];
  uint64_t cur = rd.load();
  for (;;) {
    Access c = unpack(cur);
    bool multi = c.multi || !orderedBefore(p, c);
    if (c.pidPlus1 == p.linear + 1) multi = c.multi;
    if (rd.compare_exchange_weak(cur, pack(self(p, ins, multi)))) break;
  }
  Access w = unpack(r.race.writer[size_t(elem)].load());
  if (!orderedBefore(p, w)) reportRace(p, ins, r, elem, "read", w, "write");
}

void raceWrite(Program& p, const Instr& ins, MemRegion& r, int64_t elem) {
  Access w = unpack(r.race.writer[size_t(elem)].exchange(pack(self(p, ins))));
  if (!orderedBefore(p, w)) reportRace(p, ins, r, elem, "write", w, "write");
  Access rd = unpack(r.race.reader[size_t(elem)].load());
  if (rd.pidPlus1 != 0 && rd.pidPlus1 != p.linear + 1 && (!orderedBefore(p, rd) || rd.multi))
    reportRace(p, ins, r, elem, "write", rd, "read");
}

void raceAtomic(Program& p, const Instr& ins, MemRegion& r, int64_t elem) {
  Access w = unpack(r.race.writer[size_t(elem)].load());
  if (!orderedBefore(p, w)) reportRace(p, ins, r, elem, "atomic", w, "write");
}

}  // namespace tilevm::interp

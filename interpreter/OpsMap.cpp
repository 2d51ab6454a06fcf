// OpsMap.cpp - map_elementwise: the op's scalar region run once per group of `pack` consecutive
// elements (row-major), in order, with the group's elements of every operand as its arguments
// (operand-major) and its yields written back pack-major per result. A lane's poison is what
// the region's yield carries, so an uninitialized input stays visible past the map.
#include <cstring>

#include "interpreter/Exec.h"

namespace tilevm::interp {

void execMap(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& outs) {
  const ir::Op& op = *ins.op;
  const CBlock& region = ins.regions[0];
  const int64_t pack = *op.intAttr("pack");
  const int64_t groups = in[0]->size() / pack;
  for (size_t k = 0; k < outs.size(); ++k) *outs[k] = allocTile(p.arena, op.result(unsigned(k))->type);
  uint8_t* poison = nullptr;  // shared by every result, allocated when a lane is poisoned
  for (int64_t g = 0; g < groups; ++g) {
    Arena::Mark mark = p.arena.mark();
    for (size_t k = 0; k < in.size(); ++k) {
      unsigned eb = storageBytes(in[k]->type.elem().kind);
      for (int64_t j = 0; j < pack; ++j) {
        int64_t e = g * pack + j;
        Tile t = allocTile(p.arena, ir::Type(in[k]->type.elem()));
        std::memcpy(t.data, in[k]->data + size_t(e) * eb, eb);
        if (in[k]->poison && in[k]->poison[e]) {
          t.poison = static_cast<uint8_t*>(p.arena.allocate(1));
          *t.poison = 1;
        }
        p.slots[region.args[size_t(k * pack + j)]] = t;
      }
    }
    if (!execBlock(p, region)) {  // stopped inside: the program ends before its next op
      p.arena.release(mark);
      return;
    }
    const Instr& y = region.instrs.back();
    bool poisoned = false;
    for (size_t k = 0; k < outs.size(); ++k) {
      unsigned eb = storageBytes(outs[k]->type.elem().kind);
      for (int64_t j = 0; j < pack; ++j) {
        const Tile& r = p.slots[y.in[k * size_t(pack) + size_t(j)]];
        std::memcpy(outs[k]->data + size_t(g * pack + j) * eb, r.data, eb);
        poisoned = poisoned || (r.poison && *r.poison);
      }
    }
    p.arena.release(mark);
    if (poisoned) {
      if (!poison) {
        poison = static_cast<uint8_t*>(p.arena.allocate(size_t(in[0]->size())));
        std::memset(poison, 0, size_t(in[0]->size()));
      }
      std::memset(poison + g * pack, 1, size_t(pack));
    }
  }
  for (Tile* t : outs) t->poison = poison;
}

}  // namespace tilevm::interp

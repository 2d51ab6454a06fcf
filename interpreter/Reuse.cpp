// Reuse.cpp - which results may be computed in the memory of a dead operand: elementwise float
// ops and dot's accumulator, at the operand's last use, when the operand is a fresh tile (made
// by such an op, or a for loop's carried argument) that no other value aliases. Fewer fresh tiles per loop iteration keep a
// program's working set in cache.
#include <unordered_map>
#include <unordered_set>

#include "interpreter/Exec.h"

namespace tilevm::interp {

using ir::Opcode;

namespace {

// Ops whose result is always a fresh arena tile of the operands' type, computed elementwise
// (so the result may overwrite an operand of the same type: each element is read before its
// own position is written): the Reusable trait of ops.def.
bool elementwiseFloat(Opcode code) { return ir::hasTrait(code, ir::Reusable); }

// Ops whose result may share an operand's memory (or that hand values to other slots).
bool aliasing(Opcode code) {
  switch (code) {
    case Opcode::ExpandDims: case Opcode::Reshape: case Opcode::Broadcast: case Opcode::Splat:
    case Opcode::Yield: case Opcode::Condition: case Opcode::For: case Opcode::While: case Opcode::If:
      return true;
    default:
      return false;
  }
}

struct Facts {
  std::unordered_map<uint32_t, Opcode> producer;  // result slot -> the op that made it
  std::unordered_set<uint32_t> carried;           // a for body's loop-carried arguments
  std::unordered_set<uint32_t> aliased;           // slots some aliasing op reads
};

void collect(const CBlock& b, Facts& f) {
  for (const Instr& ins : b.instrs) {
    for (uint32_t s : ins.out) f.producer[s] = ins.op->code;
    // A for body's carried arguments are the loop's own carry buffers (Exec.cpp, CarrySlots):
    // dense copies nothing else points into, so an iteration may overwrite them.
    if (ins.op->code == Opcode::For)
      for (size_t k = 1; k < ins.regions[0].args.size(); ++k) f.carried.insert(ins.regions[0].args[k]);
    if (aliasing(ins.op->code))
      for (uint32_t s : ins.in) f.aliased.insert(s);
    for (const CBlock& r : ins.regions) collect(r, f);
  }
}

void usesIn(const CBlock& b, std::unordered_set<uint32_t>& used) {
  for (const Instr& ins : b.instrs) {
    used.insert(ins.in.begin(), ins.in.end());
    for (const CBlock& r : ins.regions) usesIn(r, used);
  }
}

bool fresh(const Facts& f, uint32_t slot) {
  if (f.aliased.count(slot)) return false;
  if (f.carried.count(slot)) return true;
  auto it = f.producer.find(slot);
  return it != f.producer.end() && (elementwiseFloat(it->second) || it->second == Opcode::Dot);
}

// Walks the block backwards: an operand is at its last use when no later op of the block (or
// region inside one) reads it; only values made in this block qualify, and a for body's
// carried arguments (each iteration gets them anew).
void markBlock(CBlock& b, const Facts& f) {
  std::unordered_set<uint32_t> definedHere, usedLater;
  for (const Instr& ins : b.instrs) definedHere.insert(ins.out.begin(), ins.out.end());
  for (uint32_t a : b.args)
    if (f.carried.count(a)) definedHere.insert(a);  // renewed every iteration
  for (size_t i = b.instrs.size(); i-- > 0;) {
    Instr& ins = b.instrs[i];
    for (CBlock& r : ins.regions) markBlock(r, f);
    const Opcode code = ins.op->code;
    auto candidate = [&](size_t k) {
      uint32_t s = ins.in[k];
      if (!definedHere.count(s) || usedLater.count(s) || !fresh(f, s)) return false;
      return ins.op->operands[k]->type == ins.op->result()->type;
    };
    if (elementwiseFloat(code)) {
      for (size_t k = 0; k < ins.in.size() && ins.reuseOperand < 0; ++k)
        if (candidate(k)) ins.reuseOperand = int8_t(k);
    } else if (code == Opcode::Dot && candidate(2) && ins.in[2] != ins.in[0] && ins.in[2] != ins.in[1]) {
      ins.reuseOperand = 2;  // the accumulator, read only at the element it updates
    }
    usedLater.insert(ins.in.begin(), ins.in.end());
    for (const CBlock& r : ins.regions) usesIn(r, usedLater);
  }
}

}  // namespace

void markReuse(CompiledKernel& ck) {
  Facts f;
  collect(ck.body, f);
  markBlock(ck.body, f);
}

}  // namespace tilevm::interp

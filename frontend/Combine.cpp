// Combine.cpp - Triton's dot-add combine (Combine.h).
#include "frontend/Combine.h"

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

namespace tilevm::frontend {

namespace {

using ir::Opcode;

bool isZero(const ir::Value* v) {
  if (!v->def || v->def->code != Opcode::Constant) return false;
  if (const int64_t* i = v->def->intAttr("value")) return *i == 0;
  const double* d = v->def->floatAttr("value");
  return d && *d == 0.0;  // either sign, as Triton's m_AnyZeroFloat
}

void countUses(const ir::Block& b, std::map<const ir::Value*, int>& uses) {
  ir::walk(b, [&](const ir::Op& op) {
    for (const ir::Value* v : op.operands) ++uses[v];
  });
}

void replaceUses(ir::Block& b, const ir::Value* from, ir::Value* to) {
  for (auto& op : b.ops) {
    for (ir::Value*& v : op->operands)
      if (v == from) v = to;
    for (auto& r : op->regions) replaceUses(r->block, from, to);
  }
}

void collectAdds(ir::Block& b, std::vector<ir::Op*>& adds) {
  for (auto& op : b.ops) {
    if (op->code == Opcode::AddF || op->code == Opcode::AddI) adds.push_back(op.get());
    for (auto& r : op->regions) collectAdds(r->block, adds);
  }
}

// Removes op from its block, handing it over.
std::unique_ptr<ir::Op> take(ir::Op* op) {
  auto& ops = op->parent->ops;
  auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& p) { return p.get() == op; });
  std::unique_ptr<ir::Op> owned = std::move(*it);
  ops.erase(it);
  return owned;
}

}  // namespace

void combineDotAdds(ir::Kernel& k) {
  std::map<const ir::Value*, int> uses;
  countUses(k.body.block, uses);
  std::vector<ir::Op*> adds;
  collectAdds(k.body.block, adds);
  for (ir::Op* add : adds) {
    ir::Op* dot = nullptr;
    int side = -1;
    for (int s : {1, 0}) {  // the right-hand side first, as Triton
      ir::Op* d = add->operands[s]->def;
      if (d && d->code == Opcode::Dot && uses[d->result()] == 1 && isZero(d->operands[2]) &&
          !(add->code == Opcode::AddF && d->intAttr("max_num_imprecise_acc"))) {
        dot = d, side = s;
        break;
      }
    }
    if (!dot) continue;
    const ir::Value* sum = add->result();
    uses[dot->result()] += uses[sum];
    ir::Value* zero = dot->operands[2];
    dot->operands[2] = add->operands[1 - side];
    if (--uses[zero] == 0) take(zero->def);
    // The dot moves to where the sum was (its operands dominate both places).
    std::unique_ptr<ir::Op> moved = take(dot);
    ir::Block* block = add->parent;
    auto at = std::find_if(block->ops.begin(), block->ops.end(), [&](const auto& p) { return p.get() == add; });
    moved->parent = block;
    moved->result()->owner = block;
    *at = std::move(moved);  // the add, now without uses, is destroyed here
    replaceUses(k.body.block, sum, dot->result());
  }
}

}  // namespace tilevm::frontend

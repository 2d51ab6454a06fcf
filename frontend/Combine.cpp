// Combine.cpp - Triton's combine rewrites (Combine.h): the broadcast-mul-reduce and dot-add patterns.
#include "frontend/Combine.h"

#include <algorithm>
#include <initializer_list>
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

// The ops of b and its regions whose opcode is one of `codes`, in program order.
void collect(ir::Block& b, std::initializer_list<Opcode> codes, std::vector<ir::Op*>& out) {
  for (auto& op : b.ops) {
    if (std::find(codes.begin(), codes.end(), op->code) != codes.end()) out.push_back(op.get());
    for (auto& r : op->regions) collect(r->block, codes, out);
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

// The op defining v if it is a `code` op, else null.
ir::Op* defining(const ir::Value* v, Opcode code) { return v->def && v->def->code == code ? v->def : nullptr; }

// Whether a reduce's combiner is one float add of its two arguments (at most 32 bits).
bool sumsFloats(const ir::Op& reduce) {
  const ir::Block& c = reduce.regions[0]->block;
  if (c.ops.size() != 2 || c.args.size() != 2 || c.ops[0]->code != Opcode::AddF) return false;
  const ir::Op& add = *c.ops[0];
  bool args = (add.operands[0] == c.args[0].get() && add.operands[1] == c.args[1].get()) ||
              (add.operands[0] == c.args[1].get() && add.operands[1] == c.args[0].get());
  return args && ir::bitWidth(add.result()->type.elem().kind) <= 32 && c.ops[1]->operands.size() == 1 &&
         c.ops[1]->operands[0] == add.result();
}

// A new single-result op placed before `at` in its block.
ir::Op* insertBefore(ir::Op* at, Opcode code, std::vector<ir::Value*> operands, const ir::Type& type,
                     std::vector<ir::Attribute> attrs) {
  auto op = std::make_unique<ir::Op>(code, at->loc);
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  op->parent = at->parent;
  op->results.push_back(std::make_unique<ir::Value>(type, op.get(), at->parent, 0));
  auto& ops = at->parent->ops;
  auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& p) { return p.get() == at; });
  return ops.insert(it, std::move(op))->get();
}

}  // namespace

void combineBroadcastMulReduce(ir::Kernel& k) {
  std::vector<ir::Op*> reduces;
  collect(k.body.block, {Opcode::Reduce}, reduces);
  std::map<const ir::Value*, int> uses;
  countUses(k.body.block, uses);
  for (ir::Op* reduce : reduces) {
    const int64_t* axis = reduce->intAttr("axis");
    if (reduce->operands.size() != 1 || !axis || *axis != 1 || !sumsFloats(*reduce)) continue;
    ir::Op* mul = defining(reduce->operands[0], Opcode::MulF);
    ir::Op* bx = mul ? defining(mul->operands[0], Opcode::Broadcast) : nullptr;
    ir::Op* by = mul ? defining(mul->operands[1], Opcode::Broadcast) : nullptr;
    ir::Op* ex = bx ? defining(bx->operands[0], Opcode::ExpandDims) : nullptr;
    ir::Op* ey = by ? defining(by->operands[0], Opcode::ExpandDims) : nullptr;
    if (!ex || !ey || *ex->intAttr("axis") != 2 || *ey->intAttr("axis") != 0) continue;
    ir::Value* x = ex->operands[0];
    ir::Value* y = ey->operands[0];
    if (x->type.rank() != 2 || y->type.rank() != 2) continue;
    const int64_t M = x->type.dim(0), K = x->type.dim(1), N = y->type.dim(1);
    const ir::ScalarKind e = x->type.elem().kind;
    if (M < 16 || K < 16 || N < 16 || y->type.dim(0) != K || y->type.elem().kind != e ||
        (e != ir::ScalarKind::F32 && e != ir::ScalarKind::F16))
      continue;
    const ir::Type out = reduce->result()->type;
    ir::Op* zero = insertBefore(reduce, Opcode::Constant, {}, out, {{"value", 0.0}});
    std::vector<ir::Attribute> attrs;
    if (e == ir::ScalarKind::F32) attrs.push_back({"input_precision", std::string("tf32")});
    ir::Op* dot = insertBefore(reduce, Opcode::Dot, {x, y, zero->result()}, out, std::move(attrs));
    uses[dot->result()] = uses[reduce->result()];
    uses[zero->result()] = 1;
    ++uses[x], ++uses[y];
    replaceUses(k.body.block, reduce->result(), dot->result());
    // The reduce, then what only it read: the product, the broadcasts, the expansions.
    for (ir::Op* dead : {reduce, mul, bx, by, ex, ey}) {
      if (dead != reduce && uses[dead->result()] != 0) continue;
      for (const ir::Value* v : dead->operands) --uses[v];
      take(dead);
    }
  }
}

void combineDotAdds(ir::Kernel& k) {
  std::map<const ir::Value*, int> uses;
  countUses(k.body.block, uses);
  std::vector<ir::Op*> adds;
  collect(k.body.block, {Opcode::AddF, Opcode::AddI}, adds);
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

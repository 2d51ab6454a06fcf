// Pipeline.cpp - software pipelining of `for` loops (Triton's num_stages, with registers): the
// global loads of iteration i + 1 are issued at the top of iteration i, before its compute, so
// their latency hides behind it (a matmul's tensor-core dots, an attention block's softmax).
// A load qualifies when its address, mask and `other` are pure functions of the induction
// variable, of loop invariants and of carried values whose next values are themselves such
// functions (pointers advanced by a stride); a loop that stores, runs atomics, prints, asserts
// or has a barrier is left alone (the prefetch would move a load across them). The first
// iteration's loads are issued before the loop; the prefetch is skipped on the last iteration,
// so no address is read that the unpipelined loop would not read.
#include <algorithm>
#include <set>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

namespace {

using ir::Opcode;

bool hasSideEffects(const ir::Block& body) {
  bool found = false;
  ir::walk(body, [&](const ir::Op& op) {
    switch (op.code) {
      case Opcode::Store:
      case Opcode::AtomicRmw:
      case Opcode::AtomicCas:
      case Opcode::Print:
      case Opcode::Assert:
      case Opcode::Barrier: found = true; break;
      default: break;
    }
  });
  return found;
}

// The ops of `body` (top level) that v depends on, and the block arguments of body it reads;
// false when the slice holds a load or an op that is not a pure, region-free computation.
bool sliceOf(const ir::Value* v, const ir::Block& body, std::set<const ir::Op*>& ops, std::set<const ir::Value*>& args) {
  if (!v->def) {
    if (v->owner == &body) args.insert(v);
    return true;
  }
  const ir::Op* d = v->def;
  if (d->parent != &body || ops.count(d)) return true;  // defined outside the loop, or seen
  bool pure = ir::hasTrait(d->code, ir::Pure) || ir::hasTrait(d->code, ir::Elementwise);
  if (!pure || !d->regions.empty() || d->code == Opcode::Load) return false;
  ops.insert(d);
  for (const ir::Value* o : d->operands)
    if (!sliceOf(o, body, ops, args)) return false;
  return true;
}

}  // namespace

Lowerer::PipelinePlan Lowerer::planPipeline(const ir::Op& forOp, const std::set<const ir::Op*>* only) const {
  PipelinePlan plan;
  const ir::Block& body = forOp.regions[0]->block;
  if (o_.numStages < 2 || hasSideEffects(body)) return plan;
  const ir::Op* yield = body.ops.back().get();
  // Carried values whose next value is a pure function of the induction variable, invariants
  // and other such carried values: shrink the candidate set to a fixpoint.
  std::map<const ir::Value*, std::pair<std::set<const ir::Op*>, std::set<const ir::Value*>>> next;
  for (size_t i = 1; i < body.args.size(); ++i) {
    std::set<const ir::Op*> ops;
    std::set<const ir::Value*> args;
    if (sliceOf(yield->operands[i - 1], body, ops, args)) next[body.args[i].get()] = {ops, args};
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = next.begin(); it != next.end();) {
      bool closed = true;
      for (const ir::Value* a : it->second.second) closed = closed && (a == body.args[0].get() || next.count(a));
      if (closed) {
        ++it;
        continue;
      }
      it = next.erase(it);
      changed = true;
    }
  }
  std::set<const ir::Op*> loadSlice;
  uint64_t bytes = 0;
  for (const auto& opPtr : body.ops) {
    if (opPtr->code != Opcode::Load || (only && !only->count(opPtr.get()))) continue;
    std::set<const ir::Op*> ops;
    std::set<const ir::Value*> args;
    bool ok = true;
    for (const ir::Value* o : opPtr->operands) ok = ok && sliceOf(o, body, ops, args);
    for (const ir::Value* a : args) ok = ok && (a == body.args[0].get() || next.count(a));
    // Registers: the prefetched tiles live beside the current ones.
    uint64_t n = uint64_t(layoutOf(opPtr->result()).slots()) * std::max(1u, opPtr->result()->type.elem().bitWidth() / 8);
    if (!ok || (!only && bytes + n > kPipelineBytes)) continue;
    bytes += n;
    plan.loads.push_back(opPtr.get());
    loadSlice.insert(ops.begin(), ops.end());
    for (const ir::Value* a : args)
      if (a != body.args[0].get()) plan.carried.insert(a);
  }
  if (plan.loads.empty()) return plan;
  // Every carried value the loads read must have its next value computed, with its own slice.
  std::set<const ir::Op*> yieldSlice;
  for (bool grew = true; grew;) {
    grew = false;
    for (const ir::Value* a : std::set<const ir::Value*>(plan.carried)) {
      const auto& [ops, args] = next.at(a);
      yieldSlice.insert(ops.begin(), ops.end());
      for (const ir::Value* b : args)
        if (b != body.args[0].get() && plan.carried.insert(b).second) grew = true;
    }
  }
  for (const auto& opPtr : body.ops) {
    if (loadSlice.count(opPtr.get())) plan.loadSlice.push_back(opPtr.get());
    if (yieldSlice.count(opPtr.get())) plan.yieldSlice.push_back(opPtr.get());
  }
  return plan;
}

void Lowerer::lowerWith(const std::map<const ir::Value*, Values>& bindings, const std::vector<const ir::Op*>& ops,
                        const std::function<void()>& collect) {
  std::map<const ir::Value*, std::optional<Values>> saved;
  for (const auto& [v, vals] : bindings) {
    auto it = values_.find(v);
    saved[v] = it == values_.end() ? std::nullopt : std::optional<Values>(it->second);
    values_[v] = vals;
  }
  ++depth_;  // conversions made here are not cached for the rest of the kernel
  for (const ir::Op* op : ops) lowerWithLayouts(*op);
  collect();
  --depth_;
  for (const ir::Op* op : ops)
    for (const auto& r : op->results) values_.erase(r.get());
  for (const auto& [v, old] : saved) {
    if (old) values_[v] = *old;
    else values_.erase(v);
  }
}

std::vector<Lowerer::Values> Lowerer::prefetch(const PipelinePlan& plan, const std::map<const ir::Value*, Values>& bindings,
                                               llvm::Value* live) {
  auto* issue = llvm::BasicBlock::Create(ctx_, "prefetch", fn_);
  auto* join = llvm::BasicBlock::Create(ctx_, "prefetched", fn_);
  llvm::BasicBlock* from = b_.GetInsertBlock();
  b_.CreateCondBr(live, issue, join);
  b_.SetInsertPoint(issue);
  std::vector<const ir::Op*> ops = plan.loadSlice;
  ops.insert(ops.end(), plan.loads.begin(), plan.loads.end());
  std::vector<Values> loaded;
  lowerWith(bindings, ops, [&] {
    for (const ir::Op* l : plan.loads) loaded.push_back(values_.at(l->result()));
  });
  llvm::BasicBlock* issued = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  for (Values& vals : loaded)
    for (llvm::Value*& x : vals) {
      auto* phi = b_.CreatePHI(x->getType(), 2);
      phi->addIncoming(x, issued);
      phi->addIncoming(llvm::Constant::getNullValue(x->getType()), from);
      x = phi;
    }
  return loaded;
}

std::map<const ir::Value*, Lowerer::Values> Lowerer::nextCarried(const PipelinePlan& plan, const ir::Block& body,
                                                                 const std::map<const ir::Value*, Values>& bindings) {
  const ir::Op* yield = body.ops.back().get();
  std::map<const ir::Value*, Values> next;
  lowerWith(bindings, plan.yieldSlice, [&] {
    for (const ir::Value* a : plan.carried) next[a] = allSlotsOf(*yield, yield->operands[a->index - 1], a);
  });
  return next;
}

}  // namespace tilevm::codegen

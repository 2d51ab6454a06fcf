// LowerLayouts.cpp - which values live in a tensor-core accumulator layout (LayoutKind Mma or
// Wgmma), and the conversions at the boundaries. A dot that can run on tensor cores gives its
// result in its accumulator layout (Wgmma on sm_90a, Mma otherwise); the loops that carry it and
// the elementwise ops over it keep that layout; every other op expects the blocked layout, and
// an accumulator reaching one is converted through shared memory (or recomputed, when it is a
// function of indices). A store of an accumulator is done in its layout instead: its pointers
// and mask, usually functions of indices, are recomputed there, so a matmul's epilogue moves
// nothing through shared memory.
#include "codegen/Lowerer.h"

namespace tilevm::codegen {

using ir::Opcode;
using ir::ScalarKind;

Layout Lowerer::layoutOf(const ir::Value* v) const {
  if (auto it = override_.find(v); it != override_.end()) return it->second;
  if (auto it = accumulators_.find(v); it != accumulators_.end()) return it->second;
  return Layout::of(v->type, threads_, maxVec_);
}

LayoutKind Lowerer::dotKind(const ir::Op& op) const {
  const ir::Type& a = op.operands[0]->type;
  const ir::Type& b = op.operands[1]->type;
  ScalarKind in = a.elem().kind;
  bool half = in == ScalarKind::F16 || in == ScalarKind::BF16;
  bool fp8 = (in == ScalarKind::F8E5 || in == ScalarKind::F8E4NV) && op.result()->type.elem().kind == ScalarKind::F32;
  // wgmma (sm_90a): both operands in swizzled shared memory, A K-major; B N-major (transposed)
  // for f16/bf16, K-major (stored as its transpose, rows of K) for tf32, which has no transpose.
  const bool wgmmaFits = o_.arch == "sm_90a" && Layout::accumulatorFits(op.result()->type, threads_, LayoutKind::Wgmma);
  // fp8 on wgmma's e4m3/e5m2 (k32, both operands K-major as int8's; any N of 8s), else on
  // mma.sync with the operands widened to f16 (LowerFp8.cpp).
  if (fp8 && wgmmaFits && a.dim(1) % 32 == 0 && SharedLayout::swizzleFor(a.dim(1), 1)) return LayoutKind::Wgmma;
  if (fp8 && Layout::accumulatorFits(op.result()->type, threads_, LayoutKind::Mma) && a.dim(1) % 16 == 0) return LayoutKind::Mma;
  // f32 with Triton's default input precision: tf32 tensor cores, f32 accumulator.
  const std::string* prec = op.strAttr("input_precision");
  bool tf32 = in == ScalarKind::F32 && (!prec || *prec == "tf32") && op.result()->type.elem().kind == ScalarKind::F32 && a.dim(1) % 8 == 0;
  if (wgmmaFits && half && a.dim(1) % 16 == 0 && SharedLayout::swizzleFor(a.dim(1), 2) && SharedLayout::swizzleFor(b.dim(1), 2))
    return LayoutKind::Wgmma;
  if (wgmmaFits && tf32 && SharedLayout::swizzleFor(a.dim(1), 4)) return LayoutKind::Wgmma;
  // int8 (s8 x s8 -> s32, k32): both operands K-major too (B staged from registers is written
  // transposed; a ring takes A, and B loaded K-contiguous or as tl.trans of an N x K tile).
  const bool i8 = in == ScalarKind::I8 && op.result()->type.elem().kind == ScalarKind::I32;
  // (wgmma's s8 shapes: N = 8, 16, 24, 32, then multiples of 16.)
  const int64_t n = b.dim(1);
  if (wgmmaFits && i8 && a.dim(1) % 32 == 0 && SharedLayout::swizzleFor(a.dim(1), 1) && (n <= 32 || n % 16 == 0))
    return LayoutKind::Wgmma;
  if (!Layout::accumulatorFits(op.result()->type, threads_, LayoutKind::Mma)) return LayoutKind::Blocked;
  if (half) return a.dim(1) % 16 == 0 ? LayoutKind::Mma : LayoutKind::Blocked;
  if (i8) return a.dim(1) % 32 == 0 ? LayoutKind::Mma : LayoutKind::Blocked;  // mma.sync m16n8k32
  return tf32 ? LayoutKind::Mma : LayoutKind::Blocked;  // mma.sync m16n8k8
}

void Lowerer::assignLayouts() {
  auto found = [&](const ir::Value* v) -> const Layout* {
    auto it = accumulators_.find(v);
    return it == accumulators_.end() ? nullptr : &it->second;
  };
  auto set = [&](const ir::Value* v, const Layout& l) {
    if (found(v)) return false;
    accumulators_[v] = l;
    return true;
  };
  auto setKind = [&](const ir::Value* v, LayoutKind kind) {
    return Layout::accumulatorFits(v->type, threads_, kind) && set(v, Layout::accumulatorOf(v->type, threads_, kind));
  };
  // Operands that cost nothing in any layout: scalars, constants, splats, and what the user
  // recomputes where its layout needs it (a causal mask beside attention's scores; a row or
  // column read from memory, `qkT - m[None, :]` in attention's backward).
  auto free = [&](const ir::Value* v, const ir::Op& user) {
    return v->type.isScalar() || (v->def && (v->def->code == Opcode::Constant || v->def->code == Opcode::Splat)) ||
           recomputableAt(v, user);
  };
  // A value a for loop carries (its body's argument): its layout follows what the body yields.
  auto carried = [&](const ir::Value* v) {
    return !v->def && v->index > 0 && v->owner && v->owner->parent && v->owner->parent->parentOp &&
           v->owner->parent->parentOp->code == Opcode::For;  // argument 0 is the induction variable
  };
  ir::walk(k_.body.block, [&](const ir::Op& op) {
    if (op.code == Opcode::Dot) setKind(op.result(), dotKind(op));
  });
  for (bool changed = !accumulators_.empty(); changed;) {
    changed = false;
    ir::walk(k_.body.block, [&](const ir::Op& op) {
      const Layout* in = op.operands.empty() ? nullptr : found(op.operands[0]);  // its first operand's, if placed
      const bool rowsIn = in && in->kind == LayoutKind::Rows;
      if (op.code == Opcode::For) {
        const ir::Block& body = op.regions[0]->block;
        const ir::Op* yield = body.ops.back().get();
        for (size_t i = 0; i < op.results.size(); ++i) {
          const ir::Value* arg = body.args[i + 1].get();
          const Layout* l = found(yield->operands[i]);
          if (!l) l = found(arg);
          if (!l) l = found(op.result(unsigned(i)));
          if (!l) continue;
          Layout copy = *l;
          changed |= set(arg, copy);
          changed |= set(op.result(unsigned(i)), copy);
        }
      } else if (op.code == Opcode::Reduce && op.operands.size() == 1 && op.intAttr("axis") && *op.intAttr("axis") == 1 &&
                 op.operands[0]->type.rank() == 2 && in && in->accumulator() && in->warpsN == 1 &&
                 ir::bitWidth(op.operands[0]->type.elem().kind) == 32 && !op.operands[0]->type.isPtr()) {
        // Along the rows of an accumulator: in each thread, then across its quad (reduceRows).
        changed |= set(op.result(), Layout::rowsOf(*in));
      } else if ((op.code == Opcode::ExpandDims || op.code == Opcode::Reshape) && rowsIn &&
                 op.result()->type.numElements() == op.operands[0]->type.numElements() && op.result()->type.rank() <= 2 &&
                 op.result()->type.dim(0) == op.operands[0]->type.dim(0)) {
        changed |= set(op.result(), *in);  // [rows] <-> [rows, 1]
      } else if (op.code == Opcode::Broadcast && rowsIn && op.result()->type.rank() == 2 && op.operands[0]->type.rank() == 2 &&
                 op.operands[0]->type.dim(1) == 1) {
        // x[:, None] broadcast over an accumulator's columns: each slot takes its row's value.
        const Layout rows = *in;
        if (Layout::accumulatorFits(op.result()->type, threads_, rows.parent)) {
          Layout l = Layout::accumulatorOf(op.result()->type, threads_, rows.parent);
          if (l.warpsM == rows.warpsM && l.warpsN == 1) changed |= set(op.result(), l);
        }
      } else if (ir::hasTrait(op.code, ir::Elementwise) && op.results.size() == 1 && !op.result()->type.isScalar() &&
                 !op.result()->type.isPtr()) {
        // Every operand in one accumulator (or rows) layout, or free; a loop-carried operand
        // not placed yet does not stop a rows layout (the loop then carries it so).
        std::optional<Layout> l;
        bool all = true, waiting = false;
        for (const ir::Value* v : op.operands) {
          const Layout* k = found(v);
          if (!k) {
            waiting = waiting || (!free(v, op) && carried(v));
            all = all && (free(v, op) || carried(v));
            continue;
          }
          all = all && (!l || *l == *k);
          l = *k;
        }
        if (l && all && (!waiting || l->kind == LayoutKind::Rows)) changed |= set(op.result(), *l);
      }
    });
  }
}

std::optional<Layout> Lowerer::expectedLayout(const ir::Op& op, size_t i) const {
  const ir::Value* v = op.operands[i];
  if (v->type.isScalar()) return std::nullopt;
  switch (op.code) {
    case Opcode::Dot: return i == 2 ? std::optional<Layout>(layoutOf(op.result())) : std::nullopt;
    case Opcode::For: return i >= 3 ? std::optional<Layout>(layoutOf(op.regions[0]->block.args[i - 2].get())) : std::nullopt;
    case Opcode::Reduce:
    case Opcode::Scan: return std::nullopt;  // read through shared memory from any layout
    case Opcode::Yield:
    case Opcode::Condition:
    case Opcode::Return: return std::nullopt;  // their owner converts (yielded)
    case Opcode::Broadcast:
    case Opcode::Permute:
    case Opcode::Flip:
    case Opcode::Cat:
    case Opcode::Join:
    case Opcode::Split:
      if (v->type.numElements() != op.result()->type.numElements() || op.code != Opcode::Broadcast) return std::nullopt;
      break;
    case Opcode::Store:
      if (layoutOf(op.operands[1]).accumulator()) return layoutOf(op.operands[1]);  // stored where it is
      break;
    case Opcode::ExpandDims:
    case Opcode::Reshape:
      if (layoutOf(op.result()).kind == LayoutKind::Rows) return layoutOf(op.result());  // moves nothing
      break;
    default:
      if (ir::hasTrait(op.code, ir::Elementwise) && op.results.size() == 1) return layoutOf(op.result());
      break;
  }
  return Layout::of(v->type, threads_, maxVec_);
}

Lowerer::Values Lowerer::inLayout(const ir::Op& user, const ir::Value* v, const Layout& want) {
  if (isUniform(v) || layoutOf(v) == want) return values_.at(v);
  auto key = std::make_pair(v, want.kind);
  if (auto it = converted_.find(key); it != converted_.end()) return it->second;
  Values out;
  if (recomputableAt(v, user)) {
    // A row or column broadcast over an accumulator: each slot of a row (column) class of the
    // thread's slots holds one value, computed once.
    const ir::Op* b = v->def && v->def->code == Opcode::Broadcast && v->type.rank() == 2 ? v->def : nullptr;
    const bool column = b && b->operands[0]->type.dim(0) == 1, row = b && b->operands[0]->type.dim(1) == 1;
    std::map<std::pair<unsigned, unsigned>, llvm::Value*> once;
    for (unsigned k = 0; k < want.slots(); ++k) {
      std::pair<unsigned, unsigned> cls{~0u, k};
      if (want.accumulator() && (row || column)) {
        const unsigned block = k / 4, r = k % 4;
        cls = column ? std::make_pair(block % want.blocksN(), r & 1) : std::make_pair(block / want.blocksN(), r >> 1);
      }
      auto [it, fresh] = once.try_emplace(cls, nullptr);
      if (fresh) it->second = recompute(v, elementIndex(want, k));
      out.push_back(it->second);
    }
  } else {
    barrier();
    llvm::Value* base = writeShared(user, v, 0);
    barrier();
    llvm::Type* ty = scalarType(v->type.elem());
    for (unsigned k = 0; k < want.slots(); ++k) out.push_back(readShared(base, ty, elementIndex(want, k)));
    barrier();
  }
  // A conversion made inside a loop body or branch is not available after it: cache only at the
  // kernel's top level.
  if (depth_ == 0) converted_[key] = out;
  return out;
}

void Lowerer::lowerWithLayouts(const ir::Op& op) {
  // (A value only ever recomputed, onlyRecomputed, has no values of its own to restore.)
  std::vector<std::pair<const ir::Value*, std::optional<Values>>> saved;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const ir::Value* v = op.operands[i];
    std::optional<Layout> want = expectedLayout(op, i);
    if (!want || isUniform(v) || layoutOf(v) == *want || override_.count(v)) continue;
    Values converted = inLayout(op, v, *want);
    auto own = values_.find(v);
    saved.push_back({v, own == values_.end() ? std::nullopt : std::optional<Values>(own->second)});
    values_[v] = converted;
    override_[v] = *want;
  }
  lowerOp(op);
  for (auto& [v, original] : saved) {
    if (original) values_[v] = *original;
    else values_.erase(v);
    override_.erase(v);
  }
}

std::map<const ir::Value*, std::string> Lowerer::layoutNames() {
  maxVec_ = kernelRunLength(k_);
  orderOps();
  assignLayouts();
  std::map<const ir::Value*, std::string> names;
  auto name = [&](const ir::Value* v) {
    if (v->type.isScalar()) return std::string("scalar (every thread)");
    Layout l = layoutOf(v);
    if (l.kind == LayoutKind::Wgmma)
      return "wgmma accumulator, " + std::to_string(l.warpsM / 4) + " warpgroups, " + std::to_string(l.slots()) + "/thread";
    if (l.kind == LayoutKind::Rows)
      return std::string("rows of the ") + (l.parent == LayoutKind::Wgmma ? "wgmma" : "mma") + " accumulator, " +
             std::to_string(l.slots()) + "/thread";
    if (l.kind == LayoutKind::Mma)
      return "mma accumulator, " + std::to_string(l.warpsM) + "x" + std::to_string(l.warpsN) + " warps" +
             (l.replicas() > 1 ? " (" + std::to_string(l.replicas()) + " copies)" : "") + ", " +
             std::to_string(l.slots()) + "/thread";
    return "blocked, runs of " + std::to_string(l.vec) + ", " + std::to_string(l.slots()) + "/thread";
  };
  ir::walk(k_.body.block, [&](const ir::Op& op) {
    for (const auto& r : op.results) names[r.get()] = name(r.get());
    for (const auto& region : op.regions)
      for (const auto& a : region->block.args) names[a.get()] = name(a.get());
  });
  return names;
}

std::map<const ir::Value*, std::string> describeLayouts(const ir::Module& m, const ir::Kernel& k, const Options& o) {
  llvm::LLVMContext ctx;
  return Lowerer(m, k, o, ctx).layoutNames();
}

}  // namespace tilevm::codegen

// LowerShape.cpp - shape ops (expand_dims, reshape, broadcast, permute, cat, join, split) and
// the layout changes they need. The blocked layout follows the flattened tile, so expand_dims
// and reshape move nothing. The others gather: each result element names its source element,
// which is computed again in place when its value is a function of indices (aranges,
// constants, splats and elementwise ops of them, Triton's rematerialization: the usual
// `offs_m[:, None] * stride + offs_n[None, :]` costs no shared memory) and otherwise read from a
// shared-memory copy of the source, between two barriers.
#include <cmath>

#include <llvm/IR/Intrinsics.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// Row-major strides of a shape.
std::vector<int64_t> stridesOf(std::span<const int64_t> shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// The operands a shape op reads through shared memory when it cannot recompute them (and the
// bytes they take there).
bool gathers(Opcode c) {
  return c == Opcode::Broadcast || c == Opcode::Permute || c == Opcode::Flip || c == Opcode::Cat || c == Opcode::Join || c == Opcode::Split;
}

}  // namespace

uint64_t Lowerer::storageBytes(const ir::Type& t) const {
  uint64_t eb = std::max(1u, ir::bitWidth(t.elem().kind) / 8);  // i1 is kept as a byte; pointers are 8
  return (uint64_t(t.numElements()) * eb + 15) / 16 * 16;  // each array 16-byte aligned
}

uint64_t Lowerer::sharedNeed(const ir::Op& op) const {
  uint64_t sum = 0;
  if (op.code == Opcode::Dot)
    return dotKind(op) == LayoutKind::Wgmma ? wgmmaStagingBytes(op) : storageBytes(dotSharedType(op, 0)) + storageBytes(dotSharedType(op, 1));
  if (auto it = rings_.find(&op); it != rings_.end()) return it->second.footprint();
  if (op.code == Opcode::Store && accumulatorThroughShared(op)) return epilogueBytes(op.operands[1]->type);
  if (op.code == Opcode::Histogram)  // the counts, a whole number of rows of the program's threads
    return uint64_t((op.result()->type.dim(0) + threads_ - 1) / threads_ * threads_) * 4;
  if (gathers(op.code) || (op.code == Opcode::Reduce && !reducesInRegisters(op)) || op.code == Opcode::Scan)
    for (const ir::Value* v : op.operands) sum += storageBytes(v->type);
  // Layout conversions (to or from the mma layout) go through shared memory whole; so do the
  // values a loop or branch body passes on in another layout.
  // (as inLayout converts: not a uniform value, nor a function of indices, which is recomputed)
  auto converts = [&](const ir::Value* v, const Layout& want) {
    return !isUniform(v) && !(want == layoutOf(v)) && !recomputableAt(v, op);
  };
  for (size_t i = 0; i < op.operands.size(); ++i) {
    std::optional<Layout> want = expectedLayout(op, i);
    if (want && converts(op.operands[i], *want)) sum = std::max(sum, storageBytes(op.operands[i]->type));
  }
  if (op.code == Opcode::Yield && op.parent && op.parent->parent && op.parent->parent->parentOp) {
    const ir::Op& owner = *op.parent->parent->parentOp;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const ir::Value* target = owner.code == Opcode::For ? owner.regions[0]->block.args[i + 1].get()
                                : owner.code == Opcode::If ? owner.result(unsigned(i))
                                                           : owner.regions[0]->block.args[i].get();
      if (converts(op.operands[i], layoutOf(target))) sum = std::max(sum, storageBytes(op.operands[i]->type));
    }
  }
  return sum;
}

llvm::Value* Lowerer::scratch(const ir::Op& op, uint64_t bytes) {
  // What the op needs in all (a dot stages both operands), not only this piece of it.
  bytes = std::max(bytes, sharedNeed(op));
  const uint64_t limit = maxDynamicSharedBytes(o_);
  if (bytes > limit)
    fail(op, "codegen: '" + std::string(op.mnemonic()) + "' needs " + std::to_string(bytes) +
                 " bytes of shared memory for its operands or a layout change; at most " + std::to_string(limit) +
                 " fit one program on " + o_.arch + " (smaller tiles work)");
  if (!scratch_) {
    // One array for the whole kernel, sized for the op that needs the most (within the limit);
    // every use is fenced by barriers, so uses never overlap.
    uint64_t need = 16;
    ir::walk(k_.body.block, [&](const ir::Op& o) {
      uint64_t n = sharedNeed(o);
      if (n <= limit) need = std::max(need, n);
    });
    if (need <= kMaxStaticSharedBytes) {
      auto* ty = llvm::ArrayType::get(b_.getInt8Ty(), need);
      scratch_ = new llvm::GlobalVariable(*mod_, ty, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(ty),
                                          "scratch", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    } else {
      // Past 48 KiB: `.extern .shared .b8 scratch[]`, sized by the launch (Triton does the same).
      auto* ty = llvm::ArrayType::get(b_.getInt8Ty(), 0);
      scratch_ = new llvm::GlobalVariable(*mod_, ty, false, llvm::GlobalValue::ExternalLinkage, nullptr, "scratch", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, 3);
      mod_->addModuleFlag(llvm::Module::Warning, kDynamicSharedFlag, uint32_t(need));
    }
    scratch_->setAlignment(llvm::Align(16));
    scratchBytes_ = need;
  }
  if (bytes > scratchBytes_)
    fail(op, "internal error: codegen: '" + std::string(op.mnemonic()) + "' needs " + std::to_string(bytes) +
                 " bytes of shared memory, more than the kernel's scratch array (" + std::to_string(scratchBytes_) + ")");
  return scratch_;
}

llvm::Value* Lowerer::writeShared(const ir::Op& op, const ir::Value* v, uint64_t byteOffset,
                                  const std::function<llvm::Value*(llvm::Value*)>& place, bool widenFp8) {
  widenFp8 = widenFp8 && v->type.isFp8();
  ir::Type stored = widenFp8 ? v->type.withElem(ir::ScalarKind::F16) : v->type;
  llvm::Value* base = b_.CreateConstGEP1_64(b_.getInt8Ty(), scratch(op, byteOffset + storageBytes(stored)), byteOffset);
  Layout l = layoutOf(v);
  llvm::Type* ty = scalarType(v->type.elem());
  llvm::Type* cell = ty->isIntegerTy(1) ? b_.getInt8Ty() : widenFp8 ? b_.getHalfTy() : ty;
  for (unsigned k = 0; k < l.slots(); ++k) {
    llvm::Value* val = slot(v, k);
    if (ty->isIntegerTy(1)) val = b_.CreateZExt(val, cell);
    if (widenFp8) val = fp8ToHalf(op, val, v->type.elem().kind);
    llvm::Value* in = inTile(l, k);
    llvm::Value* e = b_.CreateSelect(in, elementIndex(l, k), b_.getInt32(0));
    if (place) e = place(e);
    // Slots past the tile's end write element 0's cell only if they hold element 0's value:
    // they are skipped instead.
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(in); c && c->isOne()) {
      b_.CreateStore(val, b_.CreateGEP(cell, base, e));
      continue;
    }
    auto* doStore = llvm::BasicBlock::Create(ctx_, "share", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "shared", fn_);
    b_.CreateCondBr(in, doStore, done);
    b_.SetInsertPoint(doStore);
    b_.CreateStore(val, b_.CreateGEP(cell, base, e));
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
  return base;
}

llvm::Value* Lowerer::readShared(llvm::Value* base, llvm::Type* ty, llvm::Value* e) {
  llvm::Type* cell = ty->isIntegerTy(1) ? b_.getInt8Ty() : ty;
  llvm::Value* v = b_.CreateLoad(cell, b_.CreateGEP(cell, base, e));
  return ty->isIntegerTy(1) ? b_.CreateTrunc(v, ty) : v;
}

std::vector<llvm::Value*> Lowerer::shareOperands(const ir::Op& op) {
  barrier();  // earlier readers of the scratch array are done
  std::vector<llvm::Value*> bases;
  uint64_t offset = 0;
  for (const ir::Value* v : op.operands) {
    bases.push_back(writeShared(op, v, offset));
    offset += storageBytes(v->type);
  }
  barrier();
  return bases;
}

Lowerer::Values Lowerer::readOperands(const ir::Op& op, const std::vector<llvm::Value*>& bases, llvm::Value* e) {
  Values x;
  for (size_t i = 0; i < op.operands.size(); ++i) x.push_back(readShared(bases[i], scalarType(op.operands[i]->type.elem()), e));
  return x;
}

llvm::Value* Lowerer::sourceIndex(const ir::Op& op, llvm::Value* e) {
  const ir::Type& rt = op.result()->type;
  const ir::Type& st = op.operands[0]->type;
  std::vector<int64_t> rs = stridesOf(rt.shape()), ss = stridesOf(st.shape());
  llvm::Value* src = b_.getInt32(0);
  for (unsigned d = 0; d < rt.rank(); ++d) {
    unsigned from = d;
    if (op.code == Opcode::Permute) from = unsigned((*op.intsAttr("order"))[d]);
    else if (st.dim(d) == 1) continue;  // broadcast: a size-1 source dim is read at 0
    if (rt.dim(d) == 1) continue;
    llvm::Value* idx = e;
    if (rs[d] != 1) idx = b_.CreateUDiv(idx, b_.getInt32(int32_t(rs[d])));
    if (d != 0) idx = b_.CreateURem(idx, b_.getInt32(int32_t(rt.dim(d))));
    if (op.code == Opcode::Flip && int64_t(d) == *op.intAttr("dim")) idx = b_.CreateSub(b_.getInt32(int32_t(rt.dim(d) - 1)), idx);
    if (ss[from] != 1) idx = b_.CreateMul(idx, b_.getInt32(int32_t(ss[from])));
    src = b_.CreateAdd(src, idx);
  }
  return src;
}

const ir::Op* constantOf(const ir::Value* v) {
  const ir::Op* c = v->def && v->def->code == Opcode::Splat ? v->def->operands[0]->def : v->def;
  return c && c->code == Opcode::Constant ? c : nullptr;
}

bool isZeroConstant(const ir::Value* v) {
  const ir::Op* c = constantOf(v);
  if (!c) return false;
  if (const int64_t* i = c->intAttr("value")) return *i == 0;
  const double* d = c->floatAttr("value");
  return d && *d == 0.0 && !std::signbit(*d);
}

llvm::Value* Lowerer::recompute(const ir::Value* v, llvm::Value* e) {
  if (isUniform(v)) return slot(v, 0);
  const ir::Op* d = v->def;  // not null: recomputableAt(v) holds
  switch (d->code) {
    case Opcode::Arange: return b_.CreateAdd(e, b_.getInt32(int32_t(*d->intAttr("start"))));
    case Opcode::Load: {  // a broadcastLoad's: element e read again, where its mask holds
      llvm::Type* ty = scalarType(v->type.elem());
      llvm::Value* on = d->operands.size() > 1 ? recompute(d->operands[1], e) : nullptr;
      uint64_t fill = 0;
      if (d->operands.size() > 2) {
        const ir::Op* c = constantOf(d->operands[2]);
        const double* f = c->floatAttr("value");  // the constant, in the element's type
        llvm::Constant* k = f ? llvm::ConstantFP::get(ty, *f) : llvm::ConstantInt::get(ty, uint64_t(*c->intAttr("value")), true);
        fill = llvm::cast<llvm::ConstantInt>(b_.CreateBitCast(k, b_.getIntNTy(unsigned(ty->getPrimitiveSizeInBits()))))->getZExtValue();
      }
      return vectorLoad(recompute(d->operands[0], e), ty, 1, on, fill)[0];
    }
    case Opcode::ExpandDims:
    case Opcode::Reshape: return recompute(d->operands[0], e);
    case Opcode::Broadcast:
    case Opcode::Permute:
    case Opcode::Flip: return recompute(d->operands[0], sourceIndex(*d, e));
    default: break;
  }
  Values args;  // an elementwise op
  for (const ir::Value* a : d->operands) args.push_back(recompute(a, e));
  return elementOp(*d, args);
}

void Lowerer::orderOps() {
  order_.clear(), writes_.clear(), loopSpans_.clear(), users_.clear();
  std::function<void(const ir::Block&)> walk = [&](const ir::Block& block) {
    for (const auto& op : block.ops) {
      const size_t at = order_.size();
      order_[op.get()] = at;
      for (const ir::Value* v : op->operands) users_[v].push_back(op.get());
      if (op->code == Opcode::Store || op->code == Opcode::AtomicRmw || op->code == Opcode::AtomicCas || op->code == Opcode::InlineAsm)
        writes_.push_back(at);
      for (const auto& r : op->regions) walk(r->block);
      if (op->code == Opcode::For || op->code == Opcode::While) loopSpans_[op.get()] = {at, order_.size() - 1};
    }
  };
  walk(k_.body.block);
}

const ir::Op* Lowerer::broadcastLoad(const ir::Value* v, const ir::Op& user) const {
  const ir::Op* b = v->def;
  if (!b || b->code != Opcode::Broadcast || v->type.rank() != 2) return nullptr;
  const ir::Type& src = b->operands[0]->type;
  if (src.rank() != 2 || (src.dim(0) != 1) == (src.dim(1) != 1)) return nullptr;  // a row or a column
  const ir::Value* x = b->operands[0];
  while (x->def && (x->def->code == Opcode::ExpandDims || x->def->code == Opcode::Reshape)) x = x->def->operands[0];
  const ir::Op* load = x->def;
  if (!load || load->code != Opcode::Load || x->type.numElements() != src.numElements()) return nullptr;
  if (!isIndexFunction(load->operands[0]) || (load->operands.size() > 1 && !isIndexFunction(load->operands[1]))) return nullptr;
  if (load->operands.size() > 2 && !constantOf(load->operands[2])) return nullptr;
  auto l = order_.find(load), u = order_.find(&user);
  if (l == order_.end() || u == order_.end() || l->second >= u->second) return nullptr;
  auto written = [&](size_t from, size_t to) {  // a write at a position in [from, to]
    auto w = std::lower_bound(writes_.begin(), writes_.end(), from);
    return w != writes_.end() && *w <= to;
  };
  if (written(l->second + 1, u->second)) return nullptr;
  for (const auto& [loop, span] : loopSpans_) {
    const bool holdsUser = span.first < u->second && u->second <= span.second;
    const bool holdsLoad = span.first < l->second && l->second <= span.second;
    if (holdsUser && !holdsLoad && written(span.first, span.second)) return nullptr;
  }
  return load;
}

bool Lowerer::onlyRecomputed(const ir::Op& op) const {
  if (op.code != Opcode::Broadcast || op.results.size() != 1) return false;
  const ir::Value* v = op.result();
  auto users = users_.find(v);
  if (users == users_.end()) return false;
  for (const ir::Op* u : users->second)
    for (size_t i = 0; i < u->operands.size(); ++i) {
      if (u->operands[i] != v) continue;
      std::optional<Layout> want = expectedLayout(*u, i);
      if (!want || *want == layoutOf(v) || !broadcastLoad(v, *u)) return false;
    }
  return true;
}

bool Lowerer::isIndexFunction(const ir::Value* v) const {
  int budget = kRecomputeBudget;
  return isIndexFunction(v, budget);
}

bool Lowerer::isIndexFunction(const ir::Value* v, int& budget) const {
  if (--budget < 0) return false;
  if (isUniform(v)) return true;
  const ir::Op* d = v->def;
  if (!d) return false;  // a block argument: data
  // Constants and splats are held once (so before lowering too, when a plan asks).
  if (d->code == Opcode::Arange || d->code == Opcode::Constant || d->code == Opcode::Splat) return true;
  bool shape = d->code == Opcode::ExpandDims || d->code == Opcode::Reshape || d->code == Opcode::Broadcast ||
               d->code == Opcode::Permute || d->code == Opcode::Flip;
  if (!shape && !ir::hasTrait(d->code, ir::Elementwise)) return false;
  for (const ir::Value* a : d->operands)
    if (!isIndexFunction(a, budget)) return false;
  return true;
}

void Lowerer::shapeOp(const ir::Op& op) {
  const ir::Value* a = op.operands[0];
  if (op.operands.size() == 1 && op.results.size() == 1 && isUniform(a)) {
    values_[op.result()] = {slot(a, 0)};  // every element the same, in any shape
    uniform_.insert(op.result());
    return;
  }
  if (op.code == Opcode::Broadcast && layoutOf(a).kind == LayoutKind::Rows && layoutOf(op.result()).accumulator()) {
    // x[:, None] over an accumulator: slot (block (bm, bn), element r) is row g + 8 (r / 2) of
    // block bm, the Rows slot 2 bm + r / 2 (Layout.h).
    const Layout l = layoutOf(op.result());
    Values out;
    for (unsigned k = 0; k < l.slots(); ++k) out.push_back(slot(a, (k / 4 / l.blocksN()) * 2 + (k % 4) / 2));
    values_[op.result()] = out;
    return;
  }
  if (op.code == Opcode::ExpandDims || op.code == Opcode::Reshape ||
      (op.code == Opcode::Broadcast && a->type.numElements() == op.result()->type.numElements())) {
    values_[op.result()] = values_.at(a);  // the same flat order: the same layout
    return;
  }
  // Each result element as (which operand, source index): cat and join choose between two.
  struct Source {
    llvm::Value* second;  // i1: from operand 1 (null: operand 0)
    llvm::Value* index;
  };
  auto sourceOf = [&](unsigned result, llvm::Value* e) -> Source {
    switch (op.code) {
      case Opcode::Cat: {
        int64_t n0 = a->type.numElements();
        llvm::Value* second = b_.CreateICmpSGE(e, b_.getInt32(int32_t(n0)));
        return {second, b_.CreateSelect(second, b_.CreateSub(e, b_.getInt32(int32_t(n0))), e)};
      }
      case Opcode::Join:
        return {b_.CreateTrunc(b_.CreateAnd(e, b_.getInt32(1)), b_.getInt1Ty()), b_.CreateLShr(e, b_.getInt32(1))};
      case Opcode::Split: return {nullptr, b_.CreateAdd(b_.CreateShl(e, b_.getInt32(1)), b_.getInt32(int32_t(result)))};
      default: return {nullptr, sourceIndex(op, e)};
    }
  };
  bool recomputed = true;
  for (const ir::Value* v : op.operands) recomputed = recomputed && isIndexFunction(v);
  std::vector<llvm::Value*> bases;
  if (!recomputed) bases = shareOperands(op);
  for (unsigned r = 0; r < op.results.size(); ++r) {
    const ir::Value* res = op.result(r);
    Layout l = layoutOf(res);
    llvm::Type* ty = scalarType(res->type.elem());
    Values out;
    for (unsigned k = 0; k < l.slots(); ++k) {
      llvm::Value* e = elementIndex(l, k);
      if (!l.full()) e = b_.CreateSelect(inTile(l, k), e, b_.getInt32(0));
      Source s = sourceOf(r, e);
      if (recomputed) {
        llvm::Value* first = recompute(op.operands[0], s.index);
        out.push_back(s.second ? b_.CreateSelect(s.second, recompute(op.operands[1], s.index), first) : first);
      } else {
        llvm::Value* base = s.second ? b_.CreateSelect(s.second, bases[1], bases[0]) : bases[0];
        out.push_back(readShared(base, ty, s.index));
      }
    }
    values_[res] = out;
  }
  if (!recomputed) barrier();  // the scratch array is free again
}

}  // namespace tilevm::codegen

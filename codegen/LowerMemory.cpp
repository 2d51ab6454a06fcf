// LowerMemory.cpp - loads, stores and atomics. Each slot's access is predicated on its element
// being in the tile and its mask; runs of consecutive slots (Layout.h) become one vector access
// when their addresses are consecutive and aligned and their mask is one value (checked at run
// time where the axis analysis, Contiguity.h, could not prove it).
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cstdio>
#include <optional>

#include "codegen/Lowerer.h"
#include "codegen/Targets.h"

namespace tilevm::codegen {

namespace {

// A vector access is inline PTX (`ld/st.global.v2/v4.bN`), as Triton emits it: LLVM's own
// vector loads get split again by O3's CFG merging of the vector and per-slot paths. At most
// 16 bytes per instruction; a run wider than that takes several. The asm is marked as having
// side effects, so LLVM never moves it across other memory accesses.
struct AccessWidth {
  unsigned bits;
  char constraint;
  llvm::Type* reg;
};

AccessWidth widthOf(llvm::IRBuilder<>& b, llvm::Type* ty) {
  unsigned bits = unsigned(ty->getPrimitiveSizeInBits());
  if (bits <= 16) return {16, 'h', b.getInt16Ty()};
  if (bits == 32) return {32, 'r', b.getInt32Ty()};
  return {64, 'l', b.getInt64Ty()};
}

// Lanes narrower than 32 bits travel packed in words: how many lanes of `bits` one word of n
// lanes holds (a word of 16 or 32 bits; 1 for 32- and 64-bit lanes).
unsigned lanesPerWord(unsigned bits, unsigned n) {
  unsigned k = 1;
  while (bits * k * 2 <= 32 && n % (k * 2) == 0) k *= 2;
  return k;
}

}  // namespace

// Slot-wise predicated access: the lane runs the access only when its element is in the tile
// and, if there is a mask, the mask is set.
llvm::Value* Lowerer::predicate(const ir::Op& op, const Layout& l, unsigned k, size_t maskIndex) {
  llvm::Value* p = inTile(l, k);
  if (op.operands.size() > maskIndex) p = b_.CreateAnd(p, slot(op.operands[maskIndex], k));
  return p;
}

// Loads and stores go a run of `vec` slots at a time when the layout gives a thread runs
// (Layout.h): if, at run time, the run's addresses are consecutive and aligned to the run's
// width and its mask is the same in every lane, one vector access (ld/st.global.v2/v4) serves
// it; otherwise each slot is accessed alone. The check costs a few integer ops per run (no
// axis analysis is needed to be correct; where O3 can prove the run contiguous it folds away).
bool Lowerer::vectorizable(const Layout& l, llvm::Type* ty) const {
  unsigned bits = unsigned(ty->getPrimitiveSizeInBits());
  return !l.scalar && l.vec > 1 && (ty->isFloatingPointTy() || ty->isIntegerTy()) && (bits == 8 || bits == 16 || bits == 32 || bits == 64);
}

// Whether the run of slots k..k+vec-1 of op's pointers (operand 0) may be one vector access:
// consecutive, aligned, one mask value (operand maskIndex, when present).
// What the analysis (Contiguity.h) proved spares run-time checks: a contiguous pointer tile
// leaves only the alignment of the run's first address (none when its divisibility proves it);
// a uniform mask needs no check, a monotone one only its two ends. Constant true when nothing
// is left to check.
llvm::Value* Lowerer::runIsVector(const ir::Op& op, const Layout& l, unsigned k, unsigned bytes, size_t maskIndex) {
  uint64_t align = std::min<uint64_t>(uint64_t(l.vec) * bytes, 16);  // each access is at most 16 bytes
  bool contiguous = runShape(op.operands[0]) == RunShape::Contiguous;
  llvm::Value* ok = b_.getTrue();
  llvm::Value* base = b_.CreatePtrToInt(slot(op.operands[0], k), b_.getInt64Ty());
  if (!contiguous || runDivisor(op.operands[0]) % int64_t(align) != 0)
    ok = b_.CreateICmpEQ(b_.CreateAnd(base, b_.getInt64(align - 1)), b_.getInt64(0));
  if (!contiguous)
    for (unsigned i = 1; i < l.vec; ++i) {
      llvm::Value* p = b_.CreatePtrToInt(slot(op.operands[0], k + i), b_.getInt64Ty());
      ok = b_.CreateAnd(ok, b_.CreateICmpEQ(p, b_.CreateAdd(base, b_.getInt64(uint64_t(i) * bytes))));
    }
  if (op.operands.size() > maskIndex) {
    const ir::Value* mask = op.operands[maskIndex];
    RunShape ms = runShape(mask);
    for (unsigned i = 1; i < l.vec; ++i)
      if (ms == RunShape::Unknown || (ms == RunShape::Monotone && i == l.vec - 1))
        ok = b_.CreateAnd(ok, b_.CreateICmpEQ(slot(mask, k + i), slot(mask, k)));
  }
  return ok;
}

// The address of slot k + i of op's pointer operand: derived from slot k when the tile is known
// contiguous (so the other slots' addresses need not be computed at all).
llvm::Value* Lowerer::lanePointer(const ir::Op& op, unsigned k, unsigned i, llvm::Type* elem) {
  if (i == 0 || runShape(op.operands[0]) != RunShape::Contiguous) return slot(op.operands[0], k + i);
  return b_.CreateGEP(elem, slot(op.operands[0], k), b_.getInt64(i));
}

// A vector access is inline PTX (`ld/st.global.v2/v4.bN`), as Triton emits it: LLVM's own
// vector loads get split again by O3's CFG merging of the vector and per-slot paths. At most
// 16 bytes per instruction; a run wider than that takes several. The asm is marked as having
// side effects, so LLVM never moves it across other memory accesses.
// A vector access moves words: 16-bit lanes travel in pairs as 32-bit words (as Triton packs
// f16x2), 8-bit lanes in fours (two: a 16-bit word), so 8 halves or 16 bytes are one
// `ld.global.v4.b32`; at most 16 bytes per instruction. With a
// predicate (i1), the access is predicated (`@p ld`, as Triton emits it, no branch) and a load
// gives 0 where the predicate is false.
Lowerer::Values Lowerer::vectorLoad(llvm::Value* ptr, llvm::Type* ty, unsigned n, llvm::Value* pred, uint64_t fill) {
  const unsigned bits = unsigned(ty->getPrimitiveSizeInBits()), pack = lanesPerWord(bits, n);
  AccessWidth word = widthOf(b_, b_.getIntNTy(bits * pack));
  unsigned words = n / pack, per = std::min(words, 128 / word.bits);
  Values lanes;
  for (unsigned first = 0; first < words; first += per) {
    std::string text, cons, bits = std::to_string(word.bits);
    char fillText[24];
    std::snprintf(fillText, sizeof fillText, "0x%llx", static_cast<unsigned long long>(fill));
    for (unsigned i = 0; pred && i < per; ++i) text += "mov.b" + bits + " $" + std::to_string(i) + ", " + fillText + ";\n\t";
    text += pred ? "@$" + std::to_string(per + 1) + " " : "";
    text += "ld.global" + accessHints_ + (per == 1 ? ".b" : ".v" + std::to_string(per) + ".b") + bits + " {";
    for (unsigned i = 0; i < per; ++i) {
      text += (i ? ", $" : "$") + std::to_string(i);
      cons += std::string("=") + word.constraint + ",";
    }
    text += "}, [$" + std::to_string(per) + "];";
    cons += pred ? "l,b" : "l";
    std::vector<llvm::Type*> regs(per, word.reg);
    llvm::Type* retTy = per == 1 ? word.reg : llvm::StructType::get(ctx_, regs);
    std::vector<llvm::Type*> params{b_.getInt64Ty()};
    if (pred) params.push_back(b_.getInt1Ty());
    auto* fnTy = llvm::FunctionType::get(retTy, params, false);
    llvm::Value* addr = b_.CreatePtrToInt(ptr, b_.getInt64Ty());
    if (first) addr = b_.CreateAdd(addr, b_.getInt64(uint64_t(first) * word.bits / 8));
    std::vector<llvm::Value*> args{addr};
    if (pred) args.push_back(pred);
    llvm::Value* r = b_.CreateCall(llvm::InlineAsm::get(fnTy, text, cons, /*hasSideEffects=*/true), args);
    for (unsigned i = 0; i < per; ++i) {
      llvm::Value* v = per == 1 ? r : b_.CreateExtractValue(r, i);
      if (pack == 1) {
        lanes.push_back(b_.CreateBitCast(v, ty));
        continue;
      }
      // A word as its lanes (little-endian: element 0 is the low part): one `mov.b32 {a, b}`.
      llvm::Value* packed = b_.CreateBitCast(v, llvm::FixedVectorType::get(ty, pack));
      for (unsigned j = 0; j < pack; ++j) lanes.push_back(b_.CreateExtractElement(packed, uint64_t(j)));
    }
  }
  return lanes;
}

llvm::Value* Lowerer::packPair(llvm::Value* lo, llvm::Value* hi, llvm::Type* ty) {
  // Two lanes rounded from f32 are rounded as a pair by one `cvt.rn.f16x2.f32` (bf16x2
  // likewise; sm_80+, the same round-to-nearest-even), as Triton emits them.
  auto* l = llvm::dyn_cast<llvm::FPTruncInst>(lo);
  auto* h = llvm::dyn_cast<llvm::FPTruncInst>(hi);
  if (l && h && l->getSrcTy()->isFloatTy() && h->getSrcTy()->isFloatTy()) {
    auto id = ty->isHalfTy() ? llvm::Intrinsic::nvvm_ff2f16x2_rn : llvm::Intrinsic::nvvm_ff2bf16x2_rn;
    llvm::Value* pair = b_.CreateIntrinsic(id, {}, {h->getOperand(0), l->getOperand(0)});  // upper half first
    return b_.CreateBitCast(pair, b_.getInt32Ty());
  }
  // Other pairs of lanes as one word through a 2-vector: one `mov.b32 %r, {lo, hi}`.
  llvm::Value* pair = llvm::PoisonValue::get(llvm::FixedVectorType::get(ty, 2));
  pair = b_.CreateInsertElement(pair, lo, uint64_t(0));
  pair = b_.CreateInsertElement(pair, hi, uint64_t(1));
  return b_.CreateBitCast(pair, b_.getInt32Ty());
}

std::pair<llvm::Value*, llvm::Value*> Lowerer::unpackPair(llvm::Value* word, llvm::Type* ty) {
  llvm::Value* pair = b_.CreateBitCast(word, llvm::FixedVectorType::get(ty, 2));
  return {b_.CreateExtractElement(pair, uint64_t(0)), b_.CreateExtractElement(pair, uint64_t(1))};
}

void Lowerer::vectorStore(llvm::Value* ptr, const Values& lanes, llvm::Type* ty, llvm::Value* pred) {
  unsigned n = unsigned(lanes.size());
  const unsigned bits = unsigned(ty->getPrimitiveSizeInBits()), pack = lanesPerWord(bits, n);
  AccessWidth word = widthOf(b_, b_.getIntNTy(bits * pack));
  Values data;
  for (unsigned i = 0; i < n; i += pack) {
    if (pack == 1) {
      data.push_back(b_.CreateBitCast(lanes[i], word.reg));
    } else if (pack == 2 && bits == 16) {
      data.push_back(packPair(lanes[i], lanes[i + 1], ty));
    } else {
      llvm::Value* packed = llvm::PoisonValue::get(llvm::FixedVectorType::get(ty, pack));
      for (unsigned j = 0; j < pack; ++j) packed = b_.CreateInsertElement(packed, lanes[i + j], uint64_t(j));
      data.push_back(b_.CreateBitCast(packed, word.reg));
    }
  }
  unsigned words = unsigned(data.size()), per = std::min(words, 128 / word.bits);
  for (unsigned first = 0; first < words; first += per) {
    std::string text = pred ? "@$" + std::to_string(per + 1) + " " : "";
    text += "st.global" + accessHints_ + (per == 1 ? ".b" : ".v" + std::to_string(per) + ".b") + std::to_string(word.bits) + " [$0], {";
    std::string cons = "l";
    std::vector<llvm::Type*> types{b_.getInt64Ty()};
    llvm::Value* addr = b_.CreatePtrToInt(ptr, b_.getInt64Ty());
    if (first) addr = b_.CreateAdd(addr, b_.getInt64(uint64_t(first) * word.bits / 8));
    std::vector<llvm::Value*> args{addr};
    for (unsigned i = 0; i < per; ++i) {
      text += (i ? ", $" : "$") + std::to_string(i + 1);
      cons += std::string(",") + word.constraint;
      types.push_back(word.reg);
      args.push_back(data[first + i]);
    }
    text += "};";
    if (pred) {
      cons += ",b";
      types.push_back(b_.getInt1Ty());
      args.push_back(pred);
    }
    cons += ",~{memory}";
    auto* fnTy = llvm::FunctionType::get(b_.getVoidTy(), types, false);
    b_.CreateCall(llvm::InlineAsm::get(fnTy, text, cons, /*hasSideEffects=*/true), args);
  }
}

Lowerer::CacheHints::CacheHints(Lowerer& lowerer, const ir::Op& op) : l(lowerer) {
  const std::string* cache = op.strAttr("cache");
  const std::string* eviction = op.strAttr("eviction");
  if (cache && !cache->empty()) l.accessHints_ = "." + *cache;  // ca, cg, cv; stores wb, cg, cs, wt
  else if (eviction && *eviction != "evict_normal") l.accessHints_ = ".L1::" + *eviction;
}

// One slot's predicated load; leaves the builder in the join block. With cache hints (of 16 bits
// or more) it is inline PTX carrying them.
llvm::Value* Lowerer::scalarLoad(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty, llvm::Value* ptr) {
  llvm::Value* pred = predicate(op, l, k, 1);
  llvm::Value* other = op.operands.size() > 2 ? slot(op.operands[2], k) : llvm::Constant::getNullValue(ty);
  auto* doLoad = llvm::BasicBlock::Create(ctx_, "load", fn_);
  auto* join = llvm::BasicBlock::Create(ctx_, "loaded", fn_);
  llvm::BasicBlock* from = b_.GetInsertBlock();
  b_.CreateCondBr(pred, doLoad, join);
  b_.SetInsertPoint(doLoad);
  llvm::Value* at = ptr ? ptr : slot(op.operands[0], k);
  llvm::Value* v = !accessHints_.empty() && ty->getPrimitiveSizeInBits() >= 16 ? vectorLoad(at, ty, 1)[0] : b_.CreateLoad(ty, at);
  llvm::BasicBlock* loaded = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  auto* phi = b_.CreatePHI(ty, 2);
  phi->addIncoming(v, loaded);
  phi->addIncoming(other, from);
  return phi;
}

void Lowerer::load(const ir::Op& op) {
  CacheHints hints(*this, op);
  Layout l = layoutOf(op.result());
  llvm::Type* ty = scalarType(op.result()->type.elem());
  std::vector<llvm::Value*> out;
  if (!vectorizable(l, ty)) {
    for (unsigned k = 0; k < l.slots(); ++k) out.push_back(scalarLoad(op, l, k, ty));
    values_[op.result()] = out;
    return;
  }
  unsigned bytes = unsigned(ty->getPrimitiveSizeInBits() / 8);
  bool masked = op.operands.size() > 1;
  for (unsigned k = 0; k < l.slots(); k += l.vec) {
    llvm::Value* isVector = runIsVector(op, l, k, bytes, 1);
    if (isProvenTrue(isVector)) {  // no per-element path at all
      Values lanes = provenVectorLoad(op, l, k, ty);
      out.insert(out.end(), lanes.begin(), lanes.end());
      continue;
    }
    auto* check = llvm::BasicBlock::Create(ctx_, "run_mask", fn_);
    auto* vector = llvm::BasicBlock::Create(ctx_, "run_load", fn_);
    auto* scalar = llvm::BasicBlock::Create(ctx_, "run_scalar", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "run_loaded", fn_);
    b_.CreateCondBr(isVector, check, scalar);
    b_.SetInsertPoint(check);
    if (masked) b_.CreateCondBr(slot(op.operands[1], k), vector, join);  // masked off: `other`, no access
    else b_.CreateBr(vector);
    b_.SetInsertPoint(vector);
    std::vector<llvm::Value*> lanes = vectorLoad(slot(op.operands[0], k), ty, l.vec);
    b_.CreateBr(join);
    b_.SetInsertPoint(scalar);
    std::vector<llvm::Value*> single;
    for (unsigned i = 0; i < l.vec; ++i) single.push_back(scalarLoad(op, l, k + i, ty, lanePointer(op, k, i, ty)));
    llvm::BasicBlock* scalarEnd = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    for (unsigned i = 0; i < l.vec; ++i) {
      auto* phi = b_.CreatePHI(ty, 3);
      phi->addIncoming(lanes[i], vector);
      phi->addIncoming(single[i], scalarEnd);
      if (masked)
        phi->addIncoming(op.operands.size() > 2 ? slot(op.operands[2], k + i) : llvm::Constant::getNullValue(ty), check);
      out.push_back(phi);
    }
  }
  values_[op.result()] = out;
}

// One slot's predicated store; leaves the builder in the join block.
void Lowerer::scalarStore(const ir::Op& op, const Layout& l, unsigned k, llvm::Value* ptr) {
  llvm::Value* pred = predicate(op, l, k, 2);
  auto* doStore = llvm::BasicBlock::Create(ctx_, "store", fn_);
  auto* join = llvm::BasicBlock::Create(ctx_, "stored", fn_);
  b_.CreateCondBr(pred, doStore, join);
  b_.SetInsertPoint(doStore);
  llvm::Value* at = ptr ? ptr : slot(op.operands[0], k);
  llvm::Type* ty = scalarType(op.operands[1]->type.elem());
  if (!accessHints_.empty() && ty->getPrimitiveSizeInBits() >= 16) vectorStore(at, {slot(op.operands[1], k)}, ty);
  else b_.CreateStore(slot(op.operands[1], k), at);
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
}

void Lowerer::store(const ir::Op& op) {
  CacheHints hints(*this, op);
  Layout l = layoutOf(op.operands[0]);
  if (l.scalar) {
    // A scalar store: one thread writes (the value is the same in all of them).
    auto* doStore = llvm::BasicBlock::Create(ctx_, "store", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "stored", fn_);
    llvm::Value* pred = b_.CreateICmpEQ(tid_, b_.getInt32(0));
    if (op.operands.size() > 2) pred = b_.CreateAnd(pred, slot(op.operands[2], 0));
    b_.CreateCondBr(pred, doStore, join);
    b_.SetInsertPoint(doStore);
    b_.CreateStore(slot(op.operands[1], 0), slot(op.operands[0], 0));
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    return;
  }
  llvm::Type* ty = scalarType(op.operands[1]->type.elem());
  if (l.accumulator() && accumulatorThroughShared(op)) return storeThroughShared(op);
  if (l.accumulator() && accumulatorPairs(op, ty)) {
    // An accumulator's slots 2i and 2i + 1 are neighbours in a row (columns 2t, 2t + 1 of a
    // block): one predicated access for the pair (two halves are one b32 word).
    for (unsigned k = 0; k < l.slots(); k += 2) {
      llvm::Value* live = op.operands.size() > 2 ? slot(op.operands[2], k) : nullptr;
      vectorStore(slot(op.operands[0], k), {slot(op.operands[1], k), slot(op.operands[1], k + 1)}, ty, live);
    }
    return;
  }
  if (!vectorizable(l, ty)) {
    for (unsigned k = 0; k < l.slots(); ++k) scalarStore(op, l, k);
    return;
  }
  unsigned bytes = unsigned(ty->getPrimitiveSizeInBits() / 8);
  bool masked = op.operands.size() > 2;
  for (unsigned k = 0; k < l.slots(); k += l.vec) {
    llvm::Value* isVector = runIsVector(op, l, k, bytes, 2);
    if (isProvenTrue(isVector)) {  // no per-element path at all
      provenVectorStore(op, l, k, ty);
      continue;
    }
    auto* check = llvm::BasicBlock::Create(ctx_, "run_mask", fn_);
    auto* vector = llvm::BasicBlock::Create(ctx_, "run_store", fn_);
    auto* scalar = llvm::BasicBlock::Create(ctx_, "run_scalar", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "run_stored", fn_);
    b_.CreateCondBr(isVector, check, scalar);
    b_.SetInsertPoint(check);
    if (masked) b_.CreateCondBr(slot(op.operands[2], k), vector, join);
    else b_.CreateBr(vector);
    b_.SetInsertPoint(vector);
    std::vector<llvm::Value*> lanes;
    for (unsigned i = 0; i < l.vec; ++i) lanes.push_back(slot(op.operands[1], k + i));
    vectorStore(slot(op.operands[0], k), lanes, ty);
    b_.CreateBr(join);
    b_.SetInsertPoint(scalar);
    for (unsigned i = 0; i < l.vec; ++i) scalarStore(op, l, k + i, lanePointer(op, k, i, ty));
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  }
}

namespace {

// Whether a 2-D store's pointers run in aligned 16-byte groups along dimension `dim` of its value
// (whole groups in it), with one mask value per group; `axes`: the axis analysis in the flat order
// in which that dimension is the contiguous one.
bool runsAlong(const std::map<const ir::Value*, AxisInfo>& axes, const ir::Op& op, unsigned dim) {
  const ir::Type& t = op.operands[1]->type;
  const int64_t chunk = 128 / int64_t(ir::bitWidth(t.elem().kind));  // elements per 16-byte store
  if (t.dim(dim) % chunk != 0) return false;
  auto ptr = axes.find(op.operands[0]);
  if (ptr == axes.end() || ptr->second.contiguity < chunk || ptr->second.divisibility % 16 != 0) return false;
  if (op.operands.size() <= 2 || op.operands[2]->type.isScalar()) return true;
  auto mask = axes.find(op.operands[2]);
  return mask != axes.end() && mask->second.constancy >= chunk;
}

// Bytes per staged line of storeThroughShared (a row, or a column when by columns): the line,
// then padding of a quarter warp's pairs (4 lanes x 2 elements), so the 8 lines a warp writes at
// once start in different banks.
int64_t epiloguePitch(const ir::Type& t, int64_t line) { return (line + 8) * (ir::bitWidth(t.elem().kind) / 8); }

}  // namespace

bool Lowerer::accumulatorThroughShared(const ir::Op& op) const {
  const ir::Type& t = op.operands[1]->type;
  const unsigned bits = ir::bitWidth(t.elem().kind);
  if (t.rank() != 2 || (bits != 16 && bits != 32) || !layoutOf(op.operands[1]).accumulator()) return false;
  if (epilogueBytes(t) > maxDynamicSharedBytes(o_) || !isIndexFunction(op.operands[0])) return false;
  if (op.operands.size() > 2 && !op.operands[2]->type.isScalar() && !isIndexFunction(op.operands[2])) return false;
  return runsAlong(axes_, op, 1) || runsAlong(axesReversed_, op, 0);
}

bool Lowerer::epilogueByColumns(const ir::Op& op) const {
  return !runsAlong(axes_, op, 1) && runsAlong(axesReversed_, op, 0);  // rows first
}

uint64_t Lowerer::epilogueBytes(const ir::Type& t) {
  return uint64_t(std::max(t.dim(0) * epiloguePitch(t, t.dim(1)), t.dim(1) * epiloguePitch(t, t.dim(0))));
}

void Lowerer::forEachChunk(int64_t chunks, const std::function<void(llvm::Value*, llvm::Value*)>& body) {
  for (int64_t r = 0; r * threads_ < chunks; ++r) {
    llvm::Value* c = b_.CreateAdd(tid_, b_.getInt32(int32_t(r * threads_)));
    body(c, (r + 1) * threads_ > chunks ? b_.CreateICmpULT(c, b_.getInt32(int32_t(chunks))) : b_.getTrue());
  }
}

// The accumulator's pairs written to shared memory row by row (one word for 16-bit elements,
// two for 32-bit; rows padded as epiloguePitch says), then read back 16 bytes per thread in
// row-major order and stored as one predicated st.global.v4.b32 each, their addresses and mask
// recomputed at each chunk's first element (Triton's epilogue through shared memory). A
// transposed result (epilogueByColumns) is staged column by column, element by element, and
// read back 16 bytes down a column.
void Lowerer::storeThroughShared(const ir::Op& op) {
  const ir::Value* v = op.operands[1];
  const Layout l = layoutOf(v);
  llvm::Type* ty = scalarType(v->type.elem());
  const int64_t rows = v->type.dim(0), cols = v->type.dim(1);
  const bool byColumns = epilogueByColumns(op);
  const int64_t line = byColumns ? rows : cols, pitch = epiloguePitch(v->type, line);  // a staged line's elements, bytes
  const unsigned bytes = unsigned(ty->getPrimitiveSizeInBits() / 8), chunk = 16 / bytes;
  barrier();  // earlier readers of the scratch array are done
  llvm::Value* base = scratch(op, epilogueBytes(v->type));
  auto stagedAt = [&](llvm::Value* s) {  // staged element s (line-major: s / line, s % line)
    llvm::Value* at = b_.CreateAdd(b_.CreateMul(b_.CreateUDiv(s, b_.getInt32(int32_t(line))), b_.getInt32(int32_t(pitch))),
                                   b_.CreateMul(b_.CreateURem(s, b_.getInt32(int32_t(line))), b_.getInt32(int32_t(bytes))));
    return b_.CreateGEP(b_.getInt8Ty(), base, at);
  };
  // Element e (row-major) and its staged index; equal by rows.
  auto transpose = [&](llvm::Value* e, int64_t inner, int64_t outer) {
    return b_.CreateAdd(b_.CreateMul(b_.CreateURem(e, b_.getInt32(int32_t(inner))), b_.getInt32(int32_t(outer))),
                        b_.CreateUDiv(e, b_.getInt32(int32_t(inner))));
  };
  auto staged = [&](llvm::Value* e) { return stagedAt(byColumns ? transpose(e, cols, rows) : e); };
  // By rows slots 2i and 2i + 1 are neighbours in a row, stored as one pair; by columns each alone.
  const unsigned step = byColumns ? 1 : 2;
  for (unsigned k = 0; k < l.slots(); k += step) {
    llvm::Value* cell = slot(v, k);
    if (step == 2 && bytes == 2) {
      cell = packPair(slot(v, k), slot(v, k + 1), ty);
    } else if (step == 2) {
      cell = llvm::PoisonValue::get(llvm::FixedVectorType::get(ty, 2));
      cell = b_.CreateInsertElement(cell, slot(v, k), uint64_t(0));
      cell = b_.CreateInsertElement(cell, slot(v, k + 1), uint64_t(1));
    }
    b_.CreateAlignedStore(cell, staged(elementIndex(l, k)), llvm::MaybeAlign(step * bytes));
  }
  barrier();
  llvm::Type* words = llvm::FixedVectorType::get(b_.getInt32Ty(), 4);
  forEachChunk(rows * cols / chunk, [&](llvm::Value* c, llvm::Value* on) {
    llvm::Value* s = b_.CreateSelect(on, b_.CreateMul(c, b_.getInt32(int32_t(chunk))), b_.getInt32(0));
    auto* words16 = b_.CreateAlignedLoad(words, stagedAt(s), llvm::MaybeAlign(16));
    llvm::Value* e = byColumns ? transpose(s, rows, cols) : s;  // the chunk's first element, row-major
    Values lanes;
    for (unsigned i = 0; i < 4; ++i) lanes.push_back(b_.CreateExtractElement(words16, uint64_t(i)));
    if (op.operands.size() > 2) on = b_.CreateAnd(on, recompute(op.operands[2], e));
    vectorStore(recompute(op.operands[0], e), lanes, b_.getInt32Ty(), isProvenTrue(on) ? nullptr : on);
  });
  barrier();  // the scratch array is free again
}

bool Lowerer::accumulatorPairs(const ir::Op& op, llvm::Type* ty) const {
  unsigned bits = unsigned(ty->getPrimitiveSizeInBits());
  if (!(ty->isFloatingPointTy() || ty->isIntegerTy()) || (bits != 16 && bits != 32)) return false;
  auto ptr = axes_.find(op.operands[0]);
  if (ptr == axes_.end() || ptr->second.contiguity < 2 || ptr->second.divisibility % int64_t(2 * bits / 8) != 0) return false;
  if (op.operands.size() <= 2 || op.operands[2]->type.isScalar()) return true;
  auto mask = axes_.find(op.operands[2]);
  return mask != axes_.end() && mask->second.constancy >= 2;
}

bool Lowerer::isProvenTrue(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c && c->isOne();
}

// The bits of one word of a vector load whose every lane's `other` is the same constant (two
// lanes to a word for 16-bit types); 0 with no `other`; nullopt when `other` varies.
std::optional<uint64_t> Lowerer::fillWord(const ir::Op& op, unsigned k, llvm::Type* ty, unsigned n) {
  if (op.operands.size() <= 2) return 0;
  llvm::Constant* first = nullptr;
  for (unsigned i = 0; i < n; ++i) {
    auto* c = llvm::dyn_cast<llvm::Constant>(slot(op.operands[2], k + i));
    if (!c || (first && c != first)) return std::nullopt;
    first = c;
  }
  auto* bits = llvm::dyn_cast<llvm::ConstantInt>(llvm::ConstantExpr::getBitCast(first, b_.getIntNTy(ty->getPrimitiveSizeInBits())));
  if (!bits) return std::nullopt;
  const unsigned width = unsigned(ty->getPrimitiveSizeInBits());
  uint64_t v = bits->getZExtValue(), word = 0;
  for (unsigned j = 0; j < lanesPerWord(width, n); ++j) word |= v << (j * width);  // the lane in each part of a word
  return word;
}

// A run known contiguous, aligned and of one mask value: one predicated vector access, no
// branch; a load gives `other` where the mask is off.
Lowerer::Values Lowerer::provenVectorLoad(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty) {
  bool masked = op.operands.size() > 1;
  llvm::Value* live = masked ? slot(op.operands[1], k) : b_.getTrue();
  if (!l.full()) live = b_.CreateAnd(live, inTile(l, k));
  if (isProvenTrue(live)) return vectorLoad(slot(op.operands[0], k), ty, l.vec);
  // A constant `other` is what the registers hold before the predicated load (as Triton
  // emits it): no select per element.
  if (std::optional<uint64_t> word = fillWord(op, k, ty, l.vec))
    return vectorLoad(slot(op.operands[0], k), ty, l.vec, live, *word);
  Values lanes = vectorLoad(slot(op.operands[0], k), ty, l.vec, live);
  if (op.operands.size() > 2)
    for (unsigned i = 0; i < l.vec; ++i) {
      llvm::Value* other = slot(op.operands[2], k + i);
      auto* c = llvm::dyn_cast<llvm::Constant>(other);
      if (!(c && c->isNullValue() && !(ty->isFloatingPointTy() && c->isNegativeZeroValue())))
        lanes[i] = b_.CreateSelect(live, lanes[i], other);
    }
  return lanes;
}

void Lowerer::provenVectorStore(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty) {
  bool masked = op.operands.size() > 2;
  llvm::Value* live = masked ? slot(op.operands[2], k) : b_.getTrue();
  if (!l.full()) live = b_.CreateAnd(live, inTile(l, k));
  Values lanes;
  for (unsigned i = 0; i < l.vec; ++i) lanes.push_back(slot(op.operands[1], k + i));
  vectorStore(slot(op.operands[0], k), lanes, ty, isProvenTrue(live) ? nullptr : live);
}

// Atomics, one per slot, predicated like stores; a masked-off lane's result is 0, as in the
// interpreter. An atomic on a scalar pointer is done once per program, by thread 0, and its
// result is shared with the others through shared memory. Memory order from `sem` (acq_rel by
// default, as Triton): LLVM 19's NVPTX emits every atomic relaxed, so release and acquire are
// fences (`fence.acq_rel.gpu`) before and after it, the PTX memory model's equivalent.
void Lowerer::atomic(const ir::Op& op) {
  bool cas = op.code == ir::Opcode::AtomicCas;
  llvm::Type* ty = scalarType(op.result()->type.elem());
  const std::string* semAttr = op.strAttr("sem");
  std::string sem = semAttr ? *semAttr : "acq_rel";
  llvm::AtomicOrdering order = sem == "relaxed"   ? llvm::AtomicOrdering::Monotonic
                               : sem == "acquire" ? llvm::AtomicOrdering::Acquire
                               : sem == "release" ? llvm::AtomicOrdering::Release
                                                  : llvm::AtomicOrdering::AcquireRelease;
  llvm::AtomicRMWInst::BinOp kind = llvm::AtomicRMWInst::Xchg;
  if (!cas) {
    static const std::map<std::string, llvm::AtomicRMWInst::BinOp> intKinds = {
        {"add", llvm::AtomicRMWInst::Add},   {"max", llvm::AtomicRMWInst::Max},   {"min", llvm::AtomicRMWInst::Min},
        {"umax", llvm::AtomicRMWInst::UMax}, {"umin", llvm::AtomicRMWInst::UMin}, {"and", llvm::AtomicRMWInst::And},
        {"or", llvm::AtomicRMWInst::Or},     {"xor", llvm::AtomicRMWInst::Xor},   {"xchg", llvm::AtomicRMWInst::Xchg}};
    const std::string& k = *op.strAttr("kind");
    if (ty->isFloatingPointTy()) {
      if (k == "fadd") kind = llvm::AtomicRMWInst::FAdd;
      else if (k == "max") kind = llvm::AtomicRMWInst::FMax;  // fmax: the number when one is NaN, as the interpreter
      else if (k == "min") kind = llvm::AtomicRMWInst::FMin;
    } else {
      kind = intKinds.at(k);
    }
  }
  // Triton's PTX where it has one: `atom.global.<scope>.<sem>.<op>.<type>` (cas:
  // `atom.global.<sem>.<scope>.cas.b<N>`), the ordering on the instruction itself, on the bits
  // of the operands. Float max/min (a CAS loop) and bf16 add before sm_90 take LLVM's
  // atomicrmw between fences instead.
  const std::string* scopeAttr = op.strAttr("scope");
  const std::string scope = scopeAttr ? *scopeAttr : "gpu";
  const unsigned bits = unsigned(ty->getPrimitiveSizeInBits());
  const Target* target = findTarget(o_.arch);
  std::string ptxOp;  // the op and type suffix, "" where LLVM's path is taken
  if (cas) {
    ptxOp = "cas.b" + std::to_string(bits);
  } else {
    const std::string& k = *op.strAttr("kind");
    const std::string u = (bits == 64 ? "64" : "32");
    if (ty->isFloatingPointTy()) {
      if (k == "fadd" && ty->isFloatTy()) ptxOp = "add.f32";
      else if (k == "fadd" && ty->isDoubleTy()) ptxOp = "add.f64";
      else if (k == "fadd" && ty->isHalfTy()) ptxOp = "add.noftz.f16";
      else if (k == "fadd" && ty->isBFloatTy() && target && target->capability >= 90) ptxOp = "add.noftz.bf16";
      else if (k == "xchg") ptxOp = "exch.b" + u;
    } else if (bits >= 32) {
      static const std::map<std::string, std::string> ops = {{"add", "add.u"}, {"max", "max.s"}, {"min", "min.s"}, {"umax", "max.u"},
                                                             {"umin", "min.u"}, {"and", "and.b"}, {"or", "or.b"}, {"xor", "xor.b"},
                                                             {"xchg", "exch.b"}};
      ptxOp = ops.at(k) + u;
    }
  }
  auto ptxAtomic = [&](unsigned k, llvm::Value* ptr) {
    llvm::Type* bitsTy = b_.getIntNTy(bits);
    const std::string reg = bits == 64 ? "l" : bits == 16 ? "h" : "r";
    std::string text = cas ? "atom.global." + sem + "." + scope + "." + ptxOp + " $0, [$1], $2, $3;"
                           : "atom.global." + scope + "." + sem + "." + ptxOp + " $0, [$1], $2;";
    std::vector<llvm::Value*> args{b_.CreatePtrToInt(ptr, b_.getInt64Ty())};
    for (size_t i = 1; i < (cas ? 3u : 2u); ++i) args.push_back(b_.CreateBitCast(slot(op.operands[i], k), bitsTy));
    std::string cons = "=" + reg + ",l," + reg + (cas ? "," + reg : "") + ",~{memory}";
    return b_.CreateBitCast(asmCall(bitsTy, text, cons, args), ty);
  };
  // LLVM's atomicrmw / cmpxchg between fences of the atomic's scope, as `sem` asks.
  auto llvmAtomic = [&](unsigned k, llvm::Value* ptr) -> llvm::Value* {
    auto fence = [&] { asmCall(b_.getVoidTy(), "fence.acq_rel." + scope + ";", "~{memory}", {}); };
    if (sem == "release" || sem == "acq_rel") fence();
    llvm::Align align(bits / 8);
    llvm::Value* old;
    if (cas) {
      // cmpxchg compares bits: floats go through integers of their width.
      llvm::Type* bitsTy = b_.getIntNTy(bits);
      llvm::Value* cmp = b_.CreateBitCast(slot(op.operands[1], k), bitsTy);
      llvm::Value* val = b_.CreateBitCast(slot(op.operands[2], k), bitsTy);
      auto* x = b_.CreateAtomicCmpXchg(ptr, cmp, val, llvm::MaybeAlign(align), order,
                                       order == llvm::AtomicOrdering::Release ? llvm::AtomicOrdering::Monotonic
                                       : order == llvm::AtomicOrdering::AcquireRelease ? llvm::AtomicOrdering::Acquire
                                                                                        : order);
      old = b_.CreateBitCast(b_.CreateExtractValue(x, 0), ty);
    } else {
      old = b_.CreateAtomicRMW(kind, ptr, slot(op.operands[1], k), llvm::MaybeAlign(align), order);
    }
    if (sem == "acquire" || sem == "acq_rel") fence();
    return old;
  };
  // The access of slot k, done where `pred` holds; the old value, or 0.
  auto access = [&](unsigned k, llvm::Value* pred) {
    auto* doIt = llvm::BasicBlock::Create(ctx_, "atomic", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "atomic_done", fn_);
    llvm::BasicBlock* from = b_.GetInsertBlock();
    b_.CreateCondBr(pred, doIt, join);
    b_.SetInsertPoint(doIt);
    llvm::Value* ptr = slot(op.operands[0], k);
    llvm::Value* old = ptxOp.empty() ? llvmAtomic(k, ptr) : ptxAtomic(k, ptr);
    llvm::BasicBlock* end = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    auto* phi = b_.CreatePHI(ty, 2);
    phi->addIncoming(old, end);
    phi->addIncoming(llvm::Constant::getNullValue(ty), from);
    return phi;
  };
  Layout l = layoutOf(op.operands[0]);
  if (l.scalar) {
    llvm::Value* pred = b_.CreateICmpEQ(tid_, b_.getInt32(0));
    if (!cas && op.operands.size() > 2) pred = b_.CreateAnd(pred, slot(op.operands[2], 0));
    llvm::Value* old = access(0, pred);
    auto* cell = new llvm::GlobalVariable(*mod_, ty, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(ty),
                                          "atomic_old", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    auto* write = llvm::BasicBlock::Create(ctx_, "atomic_share", fn_);
    auto* shared = llvm::BasicBlock::Create(ctx_, "atomic_shared", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(tid_, b_.getInt32(0)), write, shared);
    b_.SetInsertPoint(write);
    b_.CreateStore(old, cell);
    b_.CreateBr(shared);
    b_.SetInsertPoint(shared);
    barrier();
    llvm::Value* v = b_.CreateLoad(ty, cell);
    barrier();  // the cell is free again (an atomic in a loop writes it next iteration)
    values_[op.result()] = {v};
    return;
  }
  Values out;
  for (unsigned k = 0; k < l.slots(); ++k) out.push_back(access(k, cas ? inTile(l, k) : predicate(op, l, k, 2)));
  values_[op.result()] = out;
}

}  // namespace tilevm::codegen

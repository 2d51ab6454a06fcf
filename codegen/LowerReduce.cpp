// LowerReduce.cpp - reduce, scan and histogram (dot: LowerDot.cpp, LowerWgmma.cpp). A 1-D reduce of one 32-bit tile to a scalar over the
// whole program combines in each thread, then by warp-shuffle butterflies and shared warp
// totals. Every other reduce and every scan go through a shared-memory copy of their operands:
// each thread computes the result elements it holds by a loop along the reduced axis (scan in
// the interpreter's order of combination, so results agree bit for bit where each step is
// exact; reduce in sequence, which differs from the interpreter's halving
// tree: diff holds reductions to relative error).
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// A tile's shape split at `axis`: outer x len x inner.
struct AxisSplit {
  int64_t outer = 1, len = 1, inner = 1;
};

AxisSplit splitAt(const ir::Type& t, int64_t axis) {
  AxisSplit s;
  for (unsigned d = 0; d < t.rank(); ++d) {
    if (int64_t(d) < axis) s.outer *= t.dim(d);
    else if (int64_t(d) == axis) s.len = t.dim(d);
    else s.inner *= t.dim(d);
  }
  return s;
}

}  // namespace

Lowerer::Values Lowerer::combine(const ir::Region& region, const Values& a, const Values& b) {
  const ir::Block& blk = region.block;
  size_t n = a.size();
  for (size_t i = 0; i < n; ++i) {
    values_[blk.args[i].get()] = {a[i]};
    values_[blk.args[n + i].get()] = {b[i]};
  }
  for (size_t i = 0; i + 1 < blk.ops.size(); ++i) lowerOp(*blk.ops[i]);
  Values out;
  for (const ir::Value* v : blk.ops.back()->operands) out.push_back(slot(v, 0));
  return out;
}

Lowerer::Values Lowerer::countedLoop(llvm::Value* begin, llvm::Value* end, const Values& init,
                                     const std::function<Values(llvm::Value*, const Values&)>& body) {
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(ctx_, "loop", fn_);
  auto* bodyBlock = llvm::BasicBlock::Create(ctx_, "loop_body", fn_);
  auto* exit = llvm::BasicBlock::Create(ctx_, "loop_exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  auto* i = b_.CreatePHI(begin->getType(), 2);
  i->addIncoming(begin, pre);
  std::vector<llvm::PHINode*> phis;
  Values carried;
  for (llvm::Value* v : init) {
    auto* phi = b_.CreatePHI(v->getType(), 2);
    phi->addIncoming(v, pre);
    phis.push_back(phi);
    carried.push_back(phi);
  }
  b_.CreateCondBr(b_.CreateICmpSLT(i, end), bodyBlock, exit);
  b_.SetInsertPoint(bodyBlock);
  Values next = body(i, carried);
  llvm::BasicBlock* latch = b_.GetInsertBlock();
  i->addIncoming(b_.CreateAdd(i, llvm::ConstantInt::get(i->getType(), 1)), latch);
  for (size_t k = 0; k < phis.size(); ++k) phis[k]->addIncoming(next[k], latch);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  return carried;
}

bool Lowerer::reducesInRegisters(const ir::Op& op) const {
  if (op.code != Opcode::Reduce) return false;
  if (layoutOf(op.result()).kind == LayoutKind::Rows) return true;
  const ir::Value* in = op.operands[0];
  ir::ScalarKind k = in->type.elem().kind;
  bool word = k == ir::ScalarKind::F32 || k == ir::ScalarKind::I32;  // what reduceByShuffles takes
  return op.operands.size() == 1 && in->type.rank() == 1 && layoutOf(in).numel >= threads_ && word;
}

void Lowerer::reduce(const ir::Op& op) {
  if (layoutOf(op.result()).kind == LayoutKind::Rows) {
    values_[op.result()] = reduceRows(op);
    return;
  }
  const ir::Value* in = op.operands[0];
  llvm::Type* ty = scalarType(in->type.elem());
  Layout l = layoutOf(in);
  if (reducesInRegisters(op)) {
    // In-thread: acc over the valid slots (every thread holds slot 0), then shuffles.
    llvm::Value* acc = slot(in, 0);
    for (unsigned k = 1; k < l.slots(); ++k) {
      llvm::Value* combined = combine(*op.regions[0], {acc}, {slot(in, k)})[0];
      acc = b_.CreateSelect(inTile(l, k), combined, acc);
    }
    values_[op.result()] = {reduceByShuffles(op, ty, acc)};
    return;
  }
  // Through shared memory: each result element folds its line along the axis in order.
  AxisSplit s = splitAt(in->type, *op.intAttr("axis"));
  std::vector<llvm::Value*> bases = shareOperands(op);
  auto read = [&](llvm::Value* e) { return readOperands(op, bases, e); };
  Layout rl = layoutOf(op.result());
  std::vector<Values> results(op.results.size());
  for (unsigned k = 0; k < rl.slots(); ++k) {
    llvm::Value* r = elementIndex(rl, k);
    if (!rl.full()) r = b_.CreateSelect(inTile(rl, k), r, b_.getInt32(0));
    llvm::Value* o = b_.CreateUDiv(r, b_.getInt32(int32_t(s.inner)));
    llvm::Value* first = b_.CreateAdd(b_.CreateMul(o, b_.getInt32(int32_t(s.len * s.inner))), b_.CreateURem(r, b_.getInt32(int32_t(s.inner))));
    Values acc = countedLoop(b_.getInt32(1), b_.getInt32(int32_t(s.len)), read(first), [&](llvm::Value* j, const Values& a) {
      return combine(*op.regions[0], a, read(b_.CreateAdd(first, b_.CreateMul(j, b_.getInt32(int32_t(s.inner))))));
    });
    for (size_t i = 0; i < acc.size(); ++i) results[i].push_back(acc[i]);
  }
  for (size_t i = 0; i < results.size(); ++i) values_[op.result(unsigned(i))] = results[i];
  barrier();  // the scratch array is free again
}

// histogram: the counts in shared memory, cleared by every thread; each element of the input
// added to its bin by the thread that holds it (one shared atomic add), unless masked off or
// outside [0, bins); then each thread reads the bins it holds of the result.
void Lowerer::histogram(const ir::Op& op) {
  const ir::Value* x = op.operands[0];
  const ir::Value* mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Layout l = layoutOf(x), rl = layoutOf(op.result());
  const int64_t bins = op.result()->type.dim(0);
  llvm::Type* i32 = b_.getInt32Ty();
  barrier();  // earlier readers of the scratch array are done
  llvm::Value* counts = scratch(op, sharedNeed(op));
  countedLoop(b_.getInt32(0), b_.getInt32(int32_t((bins + threads_ - 1) / threads_)), {}, [&](llvm::Value* j, const Values&) {
    b_.CreateStore(b_.getInt32(0), b_.CreateGEP(i32, counts, b_.CreateAdd(b_.CreateMul(j, b_.getInt32(int32_t(threads_))), tid_)));
    return Values{};
  });
  barrier();
  for (unsigned k = 0; k < l.slots(); ++k) {
    llvm::Value* v = b_.CreateSExt(slot(x, k), b_.getInt64Ty());
    llvm::Value* counted = b_.CreateAnd(inTile(l, k), b_.CreateICmpULT(v, b_.getInt64(uint64_t(bins))));
    if (mask) counted = b_.CreateAnd(counted, slot(mask, k));
    auto* add = llvm::BasicBlock::Create(ctx_, "histogram_add", fn_);
    auto* next = llvm::BasicBlock::Create(ctx_, "histogram_next", fn_);
    b_.CreateCondBr(counted, add, next);
    b_.SetInsertPoint(add);
    b_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, b_.CreateGEP(i32, counts, b_.CreateTrunc(v, i32)), b_.getInt32(1),
                       llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  }
  barrier();
  Values out;
  for (unsigned k = 0; k < rl.slots(); ++k) {
    llvm::Value* e = elementIndex(rl, k);
    if (!rl.full()) e = b_.CreateSelect(inTile(rl, k), e, b_.getInt32(0));
    out.push_back(b_.CreateLoad(i32, b_.CreateGEP(i32, counts, e)));
  }
  values_[op.result()] = out;
  barrier();  // the scratch array is free again
}

// The accumulator's thread holds, of each row it has, 2 elements in each of blocksN 16x8 blocks;
// the row's other elements are in the 3 other threads of its quad (lanes differing in bits 0-1).
// Folded in column order in the thread, then with the quad's partials, the lower lane's first, so
// that every lane of the quad computes the same combination (the combiner need not commute).
Lowerer::Values Lowerer::reduceRows(const ir::Op& op) {
  const ir::Value* in = op.operands[0];
  const Layout al = layoutOf(in), rl = layoutOf(op.result());
  llvm::Type* ty = scalarType(in->type.elem());
  auto shuffle = ty->isFloatTy() ? llvm::Intrinsic::nvvm_shfl_sync_bfly_f32 : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
  llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(31));
  Values out;
  for (unsigned k = 0; k < rl.slots(); ++k) {
    unsigned bm = k / 2, h = k % 2;
    llvm::Value* acc = nullptr;
    for (unsigned bn = 0; bn < al.blocksN(); ++bn)
      for (unsigned r = 2 * h; r < 2 * h + 2; ++r) {
        llvm::Value* v = slot(in, (bm * al.blocksN() + bn) * 4 + r);
        acc = acc ? combine(*op.regions[0], {acc}, {v})[0] : v;
      }
    for (int offset = 1; offset <= 2; offset *= 2) {
      llvm::Value* other = b_.CreateIntrinsic(shuffle, {}, {b_.getInt32(-1), acc, b_.getInt32(offset), b_.getInt32(0x1f)});
      llvm::Value* upper = b_.CreateICmpNE(b_.CreateAnd(lane, b_.getInt32(offset)), b_.getInt32(0));
      llvm::Value* first = b_.CreateSelect(upper, other, acc), *second = b_.CreateSelect(upper, acc, other);
      acc = combine(*op.regions[0], {first}, {second})[0];
    }
    out.push_back(acc);
  }
  return out;
}

// Every thread holds a partial value (32-bit): a butterfly of warp shuffles combines a warp's
// 32 in 5 steps, leaving the warp's total in every lane; lane 0 of each warp writes it to
// shared memory, and every thread combines the warps' totals in warp order.
llvm::Value* Lowerer::reduceByShuffles(const ir::Op& op, llvm::Type* ty, llvm::Value* acc) {
  auto shuffle = ty->isFloatTy() ? llvm::Intrinsic::nvvm_shfl_sync_bfly_f32 : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
  for (int offset = 16; offset >= 1; offset /= 2) {
    llvm::Value* other = b_.CreateIntrinsic(shuffle, {}, {b_.getInt32(-1), acc, b_.getInt32(offset), b_.getInt32(0x1f)});
    acc = combine(*op.regions[0], {acc}, {other})[0];
  }
  unsigned warps = threads_ / 32;
  if (warps == 1) return acc;
  auto* arrTy = llvm::ArrayType::get(ty, warps);
  auto* totals = new llvm::GlobalVariable(*mod_, arrTy, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(arrTy),
                                          "reduce_warps", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
  totals->setAlignment(llvm::Align(16));
  llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(31));
  llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
  auto* write = llvm::BasicBlock::Create(ctx_, "reduce_write", fn_);
  auto* written = llvm::BasicBlock::Create(ctx_, "reduce_written", fn_);
  b_.CreateCondBr(b_.CreateICmpEQ(lane, b_.getInt32(0)), write, written);
  b_.SetInsertPoint(write);
  b_.CreateStore(acc, b_.CreateGEP(arrTy, totals, {b_.getInt32(0), warp}));
  b_.CreateBr(written);
  b_.SetInsertPoint(written);
  barrier();
  llvm::Value* total = b_.CreateLoad(ty, b_.CreateGEP(arrTy, totals, {b_.getInt32(0), b_.getInt32(0)}));
  for (unsigned w = 1; w < warps; ++w)
    total = combine(*op.regions[0], {total}, {b_.CreateLoad(ty, b_.CreateGEP(arrTy, totals, {b_.getInt32(0), b_.getInt32(w)}))})[0];
  barrier();  // the array is free again (a reduce in a loop writes it next iteration)
  return total;
}

// An inclusive scan through shared memory: the element at position p along the axis folds
// positions 0..p in order (p..len-1 from the end when reversed), as the interpreter does.
void Lowerer::scan(const ir::Op& op) {
  const ir::Value* in = op.operands[0];
  AxisSplit s = splitAt(in->type, *op.intAttr("axis"));
  bool reverse = op.intAttr("reverse") && *op.intAttr("reverse");
  std::vector<llvm::Value*> bases = shareOperands(op);
  auto read = [&](llvm::Value* e) { return readOperands(op, bases, e); };
  Layout l = layoutOf(op.result());
  std::vector<Values> results(op.results.size());
  llvm::Value* inner = b_.getInt32(int32_t(s.inner));
  llvm::Value* len = b_.getInt32(int32_t(s.len));
  for (unsigned k = 0; k < l.slots(); ++k) {
    llvm::Value* e = elementIndex(l, k);
    if (!l.full()) e = b_.CreateSelect(inTile(l, k), e, b_.getInt32(0));
    llvm::Value* pos = b_.CreateURem(b_.CreateUDiv(e, inner), len);
    llvm::Value* lineStart = b_.CreateSub(e, b_.CreateMul(pos, inner));  // element at position 0
    auto at = [&](llvm::Value* p) { return b_.CreateAdd(lineStart, b_.CreateMul(p, inner)); };
    llvm::Value* firstPos = reverse ? b_.getInt32(int32_t(s.len - 1)) : b_.getInt32(0);
    llvm::Value* steps = reverse ? b_.CreateSub(b_.getInt32(int32_t(s.len - 1)), pos) : pos;
    Values acc = countedLoop(b_.getInt32(1), b_.CreateAdd(steps, b_.getInt32(1)), read(at(firstPos)), [&](llvm::Value* t, const Values& a) {
      llvm::Value* p = reverse ? b_.CreateSub(b_.getInt32(int32_t(s.len - 1)), t) : t;
      return combine(*op.regions[0], a, read(at(p)));
    });
    for (size_t i = 0; i < acc.size(); ++i) results[i].push_back(acc[i]);
  }
  for (size_t i = 0; i < results.size(); ++i) values_[op.result(unsigned(i))] = results[i];
  barrier();
}

}  // namespace tilevm::codegen

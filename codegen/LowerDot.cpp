// LowerDot.cpp - dot: a @ b + acc. On sm_90a, f16/bf16, tf32 and int8 dots in whole
// warpgroups go to wgmma (LowerWgmma.cpp). Otherwise, with f16/bf16, tf32 or int8 inputs and
// shapes in whole 16x8 blocks, on tensor cores: a and b go to shared memory (b transposed, so
// each thread's fragment words are consecutive elements), each warp loads its fragments and
// issues mma.sync (m16n8k16, k8 for tf32, each input rounded to tf32 as the interpreter rounds
// it; k32 for int8), the result in the mma layout (Layout.h) where it stays for the loop that
// carries it. Otherwise by FMA on CUDA cores in the interpreter's input precision (ieee f32,
// tf32x3 of IR files, f64, and the dots tensor cores do not take: batched (3-D) dots and those
// with a dimension below the tensor-core shapes). The frontend writes tf32x3 and bf16x3/x6 as
// tf32 and bf16 dots.
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

using ir::ScalarKind;

// The bits of an f32 (as i32) rounded to tf32: nearest, ties away, on the 10-bit mantissa
// (Inf/NaN kept), as the interpreter rounds (cvt.rna.tf32.f32 but for NaN payloads).
llvm::Value* Lowerer::tf32Bits(llvm::Value* bits) {
  llvm::Value* special = b_.CreateICmpEQ(b_.CreateAnd(bits, b_.getInt32(0x7f800000)), b_.getInt32(0x7f800000));
  llvm::Value* rounded = b_.CreateAnd(b_.CreateAdd(bits, b_.getInt32(0x1000)), b_.getInt32(int32_t(0xffffe000u)));
  return b_.CreateSelect(special, bits, rounded);
}

void Lowerer::dot(const ir::Op& op) {
  switch (layoutOf(op.result()).kind) {
    case LayoutKind::Wgmma: return dotByWgmma(op);
    case LayoutKind::Mma: return dotByMma(op);
    case LayoutKind::Blocked: return dotByFma(op);
    case LayoutKind::Rows: break;  // a 1-D layout: never a dot's result
  }
  fail(op, "internal: a dot result in a rows layout");
}

// Tensor cores. Per k step (32 bytes of K) and per 16x8 block of the warp's part of the result,
// one mma.sync whose fragments are 32-bit words of w elements (w = 2 halves, 1 tf32, 4 int8;
// g = lane / 4, t = lane % 4): A a0..a3 = A[g][wt..], A[g+8][wt..], A[g][wt+h..], A[g+8][wt+h..]
// and B b0, b1 = B[wt..][g], B[wt+h..][g], h = half the k step (PTX ISA, "Matrix Fragments for
// mma.m16n8k16 / m16n8k8 / m16n8k32"), from the rows and columns the warp's blocks start at.
// tf32 words are rounded as the interpreter rounds them. The accumulator is f32 (s32 for int8),
// or f16 in pairs of halves for f16 inputs (ir::accumulatesInHalf: each mma's k16 step rounds);
// a bf16 one is widened first and rounded at the end, as the interpreter does.
void Lowerer::dotByMma(const ir::Op& op) {
  const ir::Type at = dotSharedType(op, 0);  // fp8 operands are f16 in shared memory
  int64_t K = at.dim(1);
  bool bf16 = at.elem().kind == ScalarKind::BF16;
  bool tf32 = at.elem().kind == ScalarKind::F32;
  bool i8 = at.elem().kind == ScalarKind::I8;
  const bool halfAcc = ir::accumulatesInHalf(op.operands[0]->type.elem().kind, op.result()->type.elem().kind);
  const unsigned elemBytes = ir::bitWidth(at.elem().kind) / 8, w = 4 / elemBytes;
  Layout l = layoutOf(op.result());
  llvm::Type* cTy = scalarType(op.result()->type.elem());
  llvm::Type* accTy = i8 ? b_.getInt32Ty() : halfAcc ? cTy : b_.getFloatTy();
  barrier();
  llvm::Value* aBase = writeShared(op, op.operands[0], 0, nullptr, /*widenFp8=*/true);
  // b (K x N) stored transposed: element (k, n) at n K + k.
  int64_t N = op.operands[1]->type.dim(1);
  llvm::Value* bBase = writeShared(op, op.operands[1], storageBytes(at), [&](llvm::Value* e) {
    llvm::Value* kk = b_.CreateUDiv(e, b_.getInt32(int32_t(N)));
    llvm::Value* n = b_.CreateURem(e, b_.getInt32(int32_t(N)));
    return b_.CreateAdd(b_.CreateMul(n, b_.getInt32(int32_t(K))), kk);
  }, /*widenFp8=*/true);
  barrier();
  llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(31));
  llvm::Value* warp = b_.CreateURem(b_.CreateLShr(tid_, b_.getInt32(5)), b_.getInt32(l.warpsM * l.warpsN));  // replicas: copies
  llvm::Value* g = b_.CreateLShr(lane, b_.getInt32(2));
  llvm::Value* tw = b_.CreateMul(b_.CreateAnd(lane, b_.getInt32(3)), b_.getInt32(int32_t(w)));
  llvm::Value* rowBase = b_.CreateAdd(b_.CreateMul(b_.CreateUDiv(warp, b_.getInt32(l.warpsN)), b_.getInt32(int32_t(l.rows / l.warpsM))), g);
  llvm::Value* colBase = b_.CreateAdd(b_.CreateMul(b_.CreateURem(warp, b_.getInt32(l.warpsN)), b_.getInt32(int32_t(l.cols / l.warpsN))), g);
  // The word of w elements at element index e (a multiple of w) of an array in shared memory;
  // tf32: the f32 rounded to tf32, as its bits.
  auto word = [&](llvm::Value* base, llvm::Value* e) -> llvm::Value* {
    llvm::Value* x = b_.CreateLoad(b_.getInt32Ty(), b_.CreateGEP(b_.getIntNTy(8 * elemBytes), base, e));
    return tf32 ? tf32Bits(x) : x;
  };
  const int64_t kStep = 8 * w, half = kStep / 2;  // the second register pair's k offset
  Values acc;
  for (unsigned k = 0; k < l.slots(); ++k) {
    llvm::Value* c = slot(op.operands[2], k);
    acc.push_back(c->getType() == accTy ? c : b_.CreateFPExt(c, accTy));
  }
  // int8 saturates as Triton's mma.sync does (.satfinite; its wgmma wraps): they differ from
  // the interpreter's wrapping i32 sums only where a result passes 2^31 (K past 2^17).
  std::string shape = "m16n8k" + std::to_string(kStep);
  std::string types = i8     ? "satfinite.s32.s8.s8.s32"
                      : tf32 ? "f32.tf32.tf32.f32"
                      : bf16 ? "f32.bf16.bf16.f32"
                             : (halfAcc ? "f16.f16.f16.f16" : "f32.f16.f16.f32");
  // The accumulator registers: 4 of f32 or s32, or 2 words of f16 pairs (c0 c1, c2 c3).
  const unsigned regs = halfAcc ? 2 : 4;
  llvm::Type* regTy = halfAcc ? b_.getInt32Ty() : accTy;
  std::string text = "mma.sync.aligned." + shape + ".row.col." + types +
                     (halfAcc ? " {$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};"
                              : " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};");
  std::vector<llvm::Type*> ins(6, b_.getInt32Ty());
  ins.insert(ins.end(), regs, regTy);
  auto* asmTy = llvm::FunctionType::get(llvm::StructType::get(ctx_, std::vector<llvm::Type*>(regs, regTy)), ins, false);
  const std::string accReg = i8 || halfAcc ? "=r," : "=f,";
  std::string cons;
  for (unsigned r = 0; r < regs; ++r) cons += accReg;
  cons += "r,r,r,r,r,r";
  for (unsigned r = 0; r < regs; ++r) cons += "," + std::to_string(r);
  auto* mma = llvm::InlineAsm::get(asmTy, text, cons, false);
  for (int64_t k0 = 0; k0 < K; k0 += kStep) {
    std::vector<Values> aFrag(l.blocksM()), bFrag(l.blocksN());
    for (unsigned bm = 0; bm < l.blocksM(); ++bm) {
      llvm::Value* row = b_.CreateAdd(rowBase, b_.getInt32(int32_t(bm * 16)));
      llvm::Value* at0 = b_.CreateAdd(b_.CreateMul(row, b_.getInt32(int32_t(K))), b_.CreateAdd(tw, b_.getInt32(int32_t(k0))));
      int32_t down = int32_t(8 * K);
      aFrag[bm] = {word(aBase, at0), word(aBase, b_.CreateAdd(at0, b_.getInt32(down))),
                   word(aBase, b_.CreateAdd(at0, b_.getInt32(int32_t(half)))), word(aBase, b_.CreateAdd(at0, b_.getInt32(down + int32_t(half))))};
    }
    for (unsigned bn = 0; bn < l.blocksN(); ++bn) {
      llvm::Value* col = b_.CreateAdd(colBase, b_.getInt32(int32_t(bn * 8)));
      llvm::Value* bt0 = b_.CreateAdd(b_.CreateMul(col, b_.getInt32(int32_t(K))), b_.CreateAdd(tw, b_.getInt32(int32_t(k0))));
      bFrag[bn] = {word(bBase, bt0), word(bBase, b_.CreateAdd(bt0, b_.getInt32(int32_t(half))))};
    }
    for (unsigned bm = 0; bm < l.blocksM(); ++bm)
      for (unsigned bn = 0; bn < l.blocksN(); ++bn) {
        unsigned first = (bm * l.blocksN() + bn) * 4;
        std::vector<llvm::Value*> args(aFrag[bm].begin(), aFrag[bm].end());
        args.insert(args.end(), bFrag[bn].begin(), bFrag[bn].end());
        if (halfAcc) {
          for (unsigned r = 0; r < 4; r += 2) args.push_back(packPair(acc[first + r], acc[first + r + 1], accTy));
          llvm::Value* d = b_.CreateCall(mma, args);
          for (unsigned r = 0; r < 2; ++r) std::tie(acc[first + 2 * r], acc[first + 2 * r + 1]) = unpackPair(b_.CreateExtractValue(d, r), accTy);
          continue;
        }
        for (unsigned r = 0; r < 4; ++r) args.push_back(acc[first + r]);
        llvm::Value* d = b_.CreateCall(mma, args);
        for (unsigned r = 0; r < 4; ++r) acc[first + r] = b_.CreateExtractValue(d, r);
      }
  }
  Values out;
  for (llvm::Value* v : acc) out.push_back(v->getType() == cTy ? v : b_.CreateFPTrunc(v, cTy));
  values_[op.result()] = out;
  barrier();
}

// a @ b + acc with FMA on CUDA cores: a and b in shared memory, each thread's result elements
// accumulated along k in order (the interpreter's order). Inputs as the interpreter takes them:
// f16/bf16 exactly in f32, f32 rounded to tf32 unless input_precision is ieee, i8 into i32; an
// f16 accumulator of f16 inputs is rounded after each step of K (ir::accumulatesInHalf), a bf16
// one carried in f32 and rounded at the end.
void Lowerer::dotByFma(const ir::Op& op) {
  const ir::Type& at = op.operands[0]->type;
  const ir::Type& bt = op.operands[1]->type;
  // 2-D, or 3-D (batched: [B, M, K] @ [B, K, N], one matrix product per batch index).
  const bool batched = at.rank() == 3;
  int64_t M = at.dim(batched ? 1 : 0), K = at.dim(batched ? 2 : 1), N = bt.dim(batched ? 2 : 1);
  ScalarKind in = at.elem().kind, ck = op.result()->type.elem().kind;
  const std::string* prec = op.strAttr("input_precision");
  std::string mode = in == ScalarKind::F32 ? (prec ? *prec : "tf32") : "ieee";
  llvm::Type* inTy = scalarType(at.elem());
  llvm::Type* cTy = scalarType(op.result()->type.elem());
  bool intDot = in == ScalarKind::I8;
  llvm::Type* accTy = intDot ? b_.getInt32Ty() : (ck == ScalarKind::F64 ? cTy : b_.getFloatTy());
  barrier();
  llvm::Value* aBase = writeShared(op, op.operands[0], 0);
  llvm::Value* bBase = writeShared(op, op.operands[1], storageBytes(at));
  barrier();
  auto tf32 = [&](llvm::Value* x) { return b_.CreateBitCast(tf32Bits(b_.CreateBitCast(x, b_.getInt32Ty())), accTy); };
  // Which part of an f32 input a pass multiplies (tf32x3 splits each into big + small).
  enum class Part { Whole, Big, Small };
  auto operand = [&](llvm::Value* base, llvm::Value* e, Part part) -> llvm::Value* {
    llvm::Value* x = readShared(base, inTy, e);
    if (intDot) return b_.CreateSExt(x, accTy);
    if (ir::isFp8(in)) return b_.CreateFPExt(fp8ToHalf(op, x, in), accTy);  // exact products in f32
    if (x->getType() != accTy) return b_.CreateFPExt(x, accTy);
    if (part == Part::Whole) return mode == "tf32" ? tf32(x) : x;
    llvm::Value* big = tf32(x);
    return part == Part::Big ? big : tf32(b_.CreateFSub(x, big));
  };
  Layout l = layoutOf(op.result());
  // Per result element (batch, m, n): where its row of a starts and its column of b starts.
  Values init, rowStart, col;
  for (unsigned k = 0; k < l.slots(); ++k) {
    llvm::Value* e = elementIndex(l, k);
    if (!l.full()) e = b_.CreateSelect(inTile(l, k), e, b_.getInt32(0));
    llvm::Value* row = b_.CreateUDiv(e, b_.getInt32(int32_t(N)));  // batch * M + m
    llvm::Value* bCol = b_.CreateURem(e, b_.getInt32(int32_t(N)));
    if (batched) bCol = b_.CreateAdd(bCol, b_.CreateMul(b_.CreateUDiv(row, b_.getInt32(int32_t(M))), b_.getInt32(int32_t(K * N))));
    rowStart.push_back(b_.CreateMul(row, b_.getInt32(int32_t(K))));
    col.push_back(bCol);
    llvm::Value* c = slot(op.operands[2], k);
    init.push_back(c->getType() == accTy ? c : b_.CreateFPExt(c, accTy));
  }
  // One pass along k from k0 to k1: acc += a_part * b_part, element by element in k order.
  auto pass = [&](const Values& start, Part pa, Part pb, llvm::Value* k0, llvm::Value* k1) {
    return countedLoop(k0, k1, start, [&](llvm::Value* kk, const Values& a) {
      Values next;
      for (size_t s = 0; s < a.size(); ++s) {
        llvm::Value* x = operand(aBase, b_.CreateAdd(rowStart[s], kk), pa);
        llvm::Value* y = operand(bBase, b_.CreateAdd(b_.CreateMul(kk, b_.getInt32(int32_t(N))), col[s]), pb);
        // An FMA: the same result as the interpreter's product-then-add where products are
        // exact (f16, bf16, tf32 inputs), one rounding fewer for ieee f32.
        next.push_back(intDot ? b_.CreateAdd(a[s], b_.CreateMul(x, y)) : b_.CreateIntrinsic(llvm::Intrinsic::fma, {accTy}, {x, y, a[s]}));
      }
      return next;
    });
  };
  Values acc;
  llvm::Value *zero = b_.getInt32(0), *kEnd = b_.getInt32(int32_t(K));
  if (mode == "tf32x3") {
    // Triton's 3xTF32 in the interpreter's order (a dot of an IR file; the frontend writes three
    // tf32 dots instead): small * big and big * small from zero, NaNs zeroed, big * big, + acc.
    Values r = pass(Values(init.size(), llvm::ConstantFP::get(accTy, 0.0)), Part::Small, Part::Big, zero, kEnd);
    r = pass(r, Part::Big, Part::Small, zero, kEnd);
    for (llvm::Value*& v : r) v = b_.CreateSelect(b_.CreateFCmpUNO(v, v), llvm::ConstantFP::get(accTy, 0.0), v);
    r = pass(r, Part::Big, Part::Big, zero, kEnd);
    for (size_t s = 0; s < r.size(); ++s) acc.push_back(b_.CreateFAdd(r[s], init[s]));
  } else if (ir::accumulatesInHalf(in, ck)) {
    // Each step of K summed from zero, added to the accumulator and rounded to f16.
    const int64_t step = ir::kHalfAccumulationStep;
    acc = countedLoop(zero, b_.getInt32(int32_t((K + step - 1) / step)), init, [&](llvm::Value* c, const Values& a) {
      llvm::Value* k0 = b_.CreateMul(c, b_.getInt32(int32_t(step)));
      llvm::Value* k1 = b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b_.CreateAdd(k0, b_.getInt32(int32_t(step))), kEnd);
      Values sum = pass(Values(a.size(), llvm::ConstantFP::get(accTy, 0.0)), Part::Whole, Part::Whole, k0, k1);
      Values next;
      for (size_t s = 0; s < a.size(); ++s) next.push_back(b_.CreateFPExt(b_.CreateFPTrunc(b_.CreateFAdd(a[s], sum[s]), cTy), accTy));
      return next;
    });
  } else {
    acc = pass(init, Part::Whole, Part::Whole, zero, kEnd);
  }
  Values out;
  for (llvm::Value* v : acc) out.push_back(v->getType() == cTy ? v : b_.CreateFPTrunc(v, cTy));
  values_[op.result()] = out;
  barrier();
}

}  // namespace tilevm::codegen

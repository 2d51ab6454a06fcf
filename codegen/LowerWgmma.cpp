// LowerWgmma.cpp - dot on Hopper's warpgroup tensor cores (sm_90a): wgmma.mma_async with both
// operands in shared memory in the swizzled layout its matrix descriptors name (SharedLayout:
// A K-major; B N-major read transposed, or K-major when a ring stored its transpose),
// accumulators in registers in the Wgmma layout. An
// operand comes from a cp.async ring filled ahead by the loop (AsyncPipeline.cpp) or is written
// from registers here, 16 bytes a store where its runs allow. Inline PTX (LLVM 19 has no wgmma
// intrinsics), the accumulators tied through the asm so nothing reads them before the wait.
#include <llvm/IR/InlineAsm.h>

#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

namespace {

uint64_t align1024(uint64_t n) { return (n + 1023) / 1024 * 1024; }

}  // namespace

SharedLayout Lowerer::sharedLayoutOf(const ir::Type& t) const {
  SharedLayout s;
  s.rows = t.dim(0);
  s.cols = t.dim(1);
  s.elemBytes = std::max(1u, ir::bitWidth(t.elem().kind) / 8);
  s.swizzleBytes = SharedLayout::swizzleFor(s.cols, s.elemBytes);
  return s;
}

bool Lowerer::wgmmaAFromRegisters(const ir::Op& dot) const {
  const ir::Value* a = dot.operands[0];
  const ir::ScalarKind k = a->type.elem().kind;
  // 16-bit halves are the fragment's pairs as they lie; fp8 quads are gathered across each quad
  // of lanes (dotByWgmma).
  if (k != ir::ScalarKind::F16 && k != ir::ScalarKind::BF16 && k != ir::ScalarKind::F8E5 && k != ir::ScalarKind::F8E4NV) return false;
  const Layout la = layoutOf(a), l = layoutOf(dot.result());
  return la.kind == LayoutKind::Wgmma && la.warpsM == l.warpsM && la.rows == l.rows && la.cols == a->type.dim(1) && !isUniform(a);
}

uint64_t Lowerer::wgmmaStagingBytes(const ir::Op& dot) const {
  return align1024(sharedLayoutOf(dot.operands[0]->type).bytes()) + align1024(sharedLayoutOf(dot.operands[1]->type).bytes()) + 1024;
}

llvm::Value* Lowerer::asmCall(llvm::Type* ret, const std::string& text, const std::string& constraints,
                              const std::vector<llvm::Value*>& args) {
  std::vector<llvm::Type*> types;
  for (llvm::Value* a : args) types.push_back(a->getType());
  auto* fnTy = llvm::FunctionType::get(ret, types, false);
  return b_.CreateCall(llvm::InlineAsm::get(fnTy, text, constraints, /*hasSideEffects=*/true), args);
}

llvm::Value* Lowerer::sharedAddress(const ir::Op& op, uint64_t offset, uint64_t bytes) {
  llvm::Value* base = scratch(op, offset + bytes + 1024);
  llvm::Value* addr = b_.CreateTrunc(b_.CreatePtrToInt(base, b_.getInt64Ty()), b_.getInt32Ty());
  addr = b_.CreateAdd(addr, b_.getInt32(int32_t(offset + 1023)));
  return b_.CreateAnd(addr, b_.getInt32(~int32_t(1023)));
}

// Byte offset of element (row, col) in the swizzled layout: slab col / (S / eb), row S bytes
// apart in it, the 16-byte chunk index XORed with address bits 7.. (the pattern repeats every
// 8 rows of 128 bytes: the tile's base is 1024-aligned).
llvm::Value* Lowerer::swizzledOffset(const SharedLayout& s, llvm::Value* row, llvm::Value* col) {
  int32_t S = int32_t(s.swizzleBytes), perSlab = S / int32_t(s.elemBytes);
  llvm::Value* slab = b_.CreateUDiv(col, b_.getInt32(perSlab));
  llvm::Value* within = b_.CreateMul(b_.CreateURem(col, b_.getInt32(perSlab)), b_.getInt32(int32_t(s.elemBytes)));
  llvm::Value* off = b_.CreateAdd(b_.CreateMul(slab, b_.getInt32(int32_t(s.rows) * S)),
                                  b_.CreateAdd(b_.CreateMul(row, b_.getInt32(S)), within));
  llvm::Value* phase = b_.CreateAnd(b_.CreateLShr(off, b_.getInt32(7)), b_.getInt32(S / 16 - 1));
  return b_.CreateXor(off, b_.CreateShl(phase, b_.getInt32(4)));
}

// f32 elements are tf32 operands: rounded as the interpreter rounds them (tf32Bits).
void Lowerer::writeSwizzled(const ir::Value* v, llvm::Value* addr, const SharedLayout& s, bool transpose) {
  Layout l = layoutOf(v);
  llvm::Type* ty = scalarType(v->type.elem());
  const bool tf32 = v->type.elem().kind == ir::ScalarKind::F32;
  llvm::Type* word = b_.getIntNTy(8 * s.elemBytes);
  auto bits = [&](unsigned k) {
    llvm::Value* x = b_.CreateBitCast(slot(v, k), word);
    return tf32 ? tf32Bits(x) : x;
  };
  unsigned chunk = 16 / s.elemBytes;
  const int64_t cols = v->type.dim(1);
  bool chunks = !transpose && l.kind == LayoutKind::Blocked && !l.scalar && l.full() && l.vec % chunk == 0 &&
                cols % chunk == 0 && !isUniform(v);
  for (unsigned k = 0; k < l.slots(); k += chunks ? chunk : 1) {
    llvm::Value* e = elementIndex(l, k);
    llvm::Value* row = b_.CreateUDiv(e, b_.getInt32(int32_t(cols)));
    llvm::Value* col = b_.CreateURem(e, b_.getInt32(int32_t(cols)));
    llvm::Value* at = b_.CreateAdd(addr, transpose ? swizzledOffset(s, col, row) : swizzledOffset(s, row, col));
    if (chunks) {
      // One 16-byte store: the chunk's lanes as 4 words (halves in pairs, bytes in fours).
      std::vector<llvm::Value*> args{at};
      const unsigned per = 4 / s.elemBytes;
      for (unsigned w = 0; w < 4; ++w) {
        if (per == 1) {
          args.push_back(bits(k + w));
          continue;
        }
        llvm::Value* lanes = llvm::PoisonValue::get(llvm::FixedVectorType::get(ty, per));
        for (unsigned j = 0; j < per; ++j) lanes = b_.CreateInsertElement(lanes, slot(v, k + per * w + j), uint64_t(j));
        args.push_back(b_.CreateBitCast(lanes, b_.getInt32Ty()));
      }
      asmCall(b_.getVoidTy(), "st.shared.v4.b32 [$0], {$1, $2, $3, $4};", "r,r,r,r,r,~{memory}", args);
      continue;
    }
    llvm::Value* in = inTile(l, k);
    auto* doStore = llvm::BasicBlock::Create(ctx_, "swizzle", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "swizzled", fn_);
    b_.CreateCondBr(in, doStore, done);
    b_.SetInsertPoint(doStore);
    if (s.elemBytes == 4) asmCall(b_.getVoidTy(), "st.shared.b32 [$0], $1;", "r,r,~{memory}", {at, bits(k)});
    else if (s.elemBytes == 2) asmCall(b_.getVoidTy(), "st.shared.b16 [$0], $1;", "r,h,~{memory}", {at, bits(k)});
    else asmCall(b_.getVoidTy(), "st.shared.b8 [$0], $1;", "r,r,~{memory}", {at, b_.CreateZExt(bits(k), b_.getInt32Ty())});
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
}

// Each word of `bytes` (a multiple of 16) at shared address `addr` rounded to tf32 in place,
// 16 bytes a thread at a time, by the whole CTA.
void Lowerer::roundSharedToTf32(llvm::Value* addr, uint64_t bytes) {
  llvm::Type* i32 = b_.getInt32Ty();
  auto* v4 = llvm::StructType::get(ctx_, {i32, i32, i32, i32});
  forEachChunk(int64_t(bytes / 16), [&](llvm::Value* c, llvm::Value* on) {
    llvm::Value* at = b_.CreateAdd(addr, b_.CreateMul(b_.CreateSelect(on, c, b_.getInt32(0)), b_.getInt32(16)));
    llvm::Value* words = asmCall(v4, "ld.shared.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r,~{memory}", {at});
    std::vector<llvm::Value*> args{b_.CreateZExt(on, i32), at};
    for (unsigned w = 0; w < 4; ++w) args.push_back(tf32Bits(b_.CreateExtractValue(words, w)));
    asmCall(b_.getVoidTy(), "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $0, 0;\n\t@p st.shared.v4.b32 [$1], {$2, $3, $4, $5};\n\t}",
            "r,r,r,r,r,r,~{memory}", args);
  });
}

void Lowerer::fenceProxyAsync() { asmCall(b_.getVoidTy(), "fence.proxy.async.shared::cta;", "~{memory}", {}); }

// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address >> 4 in bits
// 0-13, leading-dimension byte offset >> 4 in 16-29, stride-dimension byte offset >> 4 in 32-45,
// the swizzle mode in 62-63 (1: 128 bytes, 2: 64, 3: 32); base offset 0 (1024-aligned tiles).
llvm::Value* Lowerer::wgmmaDescriptor(llvm::Value* addr, const SharedLayout& s, bool kMajor) {
  uint64_t S = s.swizzleBytes;
  uint64_t sbo = 8 * S;                               // between groups of 8 rows (K-major) / 8 k rows (N-major)
  uint64_t lbo = kMajor ? 16 : uint64_t(s.rows) * S;  // N-major: between slabs of S bytes of columns
  uint64_t mode = S == 128 ? 1 : S == 64 ? 2 : 3;
  uint64_t fixed = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (mode << 62);
  llvm::Value* start = b_.CreateLShr(b_.CreateAnd(b_.CreateZExt(addr, b_.getInt64Ty()), b_.getInt64(0x3ffff)), b_.getInt64(4));
  return b_.CreateOr(start, b_.getInt64(fixed));
}

Lowerer::Values Lowerer::wgmmaWait(const Values& acc, unsigned pending) {
  llvm::Type* ty = acc.front()->getType();  // f32, or i32 (int8 dots)
  const std::string reg = ty->isFloatTy() ? "=f," : "=r,";
  std::string cons;
  for (size_t i = 0; i < acc.size(); ++i) cons += reg;
  for (size_t i = 0; i < acc.size(); ++i) cons += std::to_string(i) + (i + 1 < acc.size() ? "," : "");
  std::vector<llvm::Type*> tys(acc.size(), ty);
  llvm::Value* r = asmCall(llvm::StructType::get(ctx_, tys), "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";", cons,
                           std::vector<llvm::Value*>(acc.begin(), acc.end()));
  Values out;
  for (unsigned i = 0; i < acc.size(); ++i) out.push_back(b_.CreateExtractValue(r, i));
  return out;
}

// Per k step (32 bytes: 16 halves, 8 tf32 or 32 int8 / fp8) and 64-row slab of the warpgroup's
// rows: one wgmma.m64nNk16 (k8 for tf32, k32 for int8 and fp8; N = the tile's columns, at most
// 256) whose N / 2 f32 (s32) accumulators per thread (N / 4 words of f16 pairs) are the slab's
// slots in the Wgmma layout, in order. A descriptor: the slab's first row, the k step's 32 bytes
// into the row's slab; B: the k step's 16 rows (N-major), or as A (K-major: always for tf32,
// int8 and fp8, which wgmma cannot transpose).
void Lowerer::dotByWgmma(const ir::Op& op) {
  const ir::Value* a = op.operands[0];
  const ir::Value* bv = op.operands[1];
  SharedLayout sa = sharedLayoutOf(a->type), sb = sharedLayoutOf(bv->type);
  int64_t K = sa.cols, N = bv->type.dim(1);
  Layout l = layoutOf(op.result());
  bool bf16 = a->type.elem().kind == ir::ScalarKind::BF16;
  const bool tf32 = a->type.elem().kind == ir::ScalarKind::F32;
  const bool i8 = a->type.elem().kind == ir::ScalarKind::I8;
  const bool e5m2 = a->type.elem().kind == ir::ScalarKind::F8E5, e4m3 = a->type.elem().kind == ir::ScalarKind::F8E4NV;
  const bool kMajorOnly = tf32 || i8 || e5m2 || e4m3;  // wgmma transposes only 16-bit operands
  auto ta = sharedTiles_.find(a), tb = sharedTiles_.find(bv);
  // A already in an accumulator layout of the same rows (attention's P, computed from the
  // first dot's result) is fed from registers: the accumulator's 16x8 blocks are the A
  // fragment's halves (wgmmaRegisterA), so nothing goes through shared memory.
  const bool aRegs = ta == sharedTiles_.end() && wgmmaAFromRegisters(op);
  bool staged = (ta == sharedTiles_.end() && !aRegs) || tb == sharedTiles_.end();
  llvm::Value* aAddr = ta != sharedTiles_.end() ? ta->second.addr : nullptr;
  llvm::Value* bAddr = tb != sharedTiles_.end() ? tb->second.addr : nullptr;
  // B from a ring may be K-major (its N x K transpose); staged from registers it is N-major,
  // but for tf32 and int8, which are written transposed.
  const bool bKMajor = tb != sharedTiles_.end() ? tb->second.kMajor : kMajorOnly;
  if (tb != sharedTiles_.end() && bKMajor) sb = tb->second.layout;
  else if (bKMajor) sb = sharedLayoutOf(ir::Type(bv->type.elem(), std::vector<int64_t>{N, K}));
  if (kMajorOnly && !bKMajor) fail(op, "internal: a tf32, int8 or fp8 wgmma operand B in shared memory N-major");
  if (staged) {
    // Operands in registers go to the dot's own staging area (scratch offset 0; a ring, if any,
    // lies past it), between barriers.
    barrier();
    llvm::Value* base = sharedAddress(op, 0, wgmmaStagingBytes(op) - 1024);
    if (!aAddr && !aRegs) writeSwizzled(a, aAddr = base, sa);
    if (!bAddr) writeSwizzled(bv, bAddr = b_.CreateAdd(base, b_.getInt32(int32_t(align1024(sa.bytes())))), sb, bKMajor);
    fenceProxyAsync();
    barrier();
  }
  llvm::Type* cTy = scalarType(op.result()->type.elem());
  // The accumulator registers: f32, s32 for int8, or f16 pairs (ir::accumulatesInHalf: slots
  // 2i and 2i + 1 in word i, each k16 instruction rounding).
  const bool halfAcc = ir::accumulatesInHalf(a->type.elem().kind, op.result()->type.elem().kind);
  llvm::Type* accTy = i8 || halfAcc ? b_.getInt32Ty() : b_.getFloatTy();
  const std::string reg = i8 || halfAcc ? "r" : "f";
  Values acc;
  for (unsigned k = 0; k < l.slots(); ++k) {
    llvm::Value* c = slot(op.operands[2], k);
    if (halfAcc) {
      if (k % 2) acc.push_back(packPair(slot(op.operands[2], k - 1), c, cTy));
      continue;
    }
    acc.push_back(c->getType() == accTy ? c : b_.CreateFPExt(c, accTy));
  }
  // The warpgroup's first row.
  llvm::Value* group = b_.CreateLShr(tid_, b_.getInt32(7));
  llvm::Value* groupRow = b_.CreateMul(group, b_.getInt32(int32_t(l.rows / (l.warpsM / 4))));
  llvm::Value* aDesc =
      aRegs ? nullptr : wgmmaDescriptor(b_.CreateAdd(aAddr, b_.CreateMul(groupRow, b_.getInt32(int32_t(sa.swizzleBytes)))), sa, true);
  llvm::Value* bDesc = wgmmaDescriptor(bAddr, sb, bKMajor);
  unsigned n = unsigned(halfAcc ? N / 4 : N / 2);  // accumulator registers per thread per instruction
  std::string type = tf32 ? "tf32" : i8 ? "s8" : e5m2 ? "e5m2" : e4m3 ? "e4m3" : bf16 ? "bf16" : "f16";
  const int64_t kStep = 32 / sa.elemBytes;  // 32 bytes of K per instruction
  // Operands: n accumulators (tied), then A (a descriptor, or 4 registers of half pairs), B's
  // descriptor and scale-d.
  const unsigned aArgs = aRegs ? 4 : 1;
  // A fresh wgmma (`fresh`): scale-d the immediate 0 and the accumulators outputs only, so no
  // zeros are moved into them; ptxas fences and waits around registers written between the
  // wgmmas of a group, which serializes them.
  auto mmaAsm = [&](bool fresh) {
    auto arg = [&](unsigned i) { return "$" + std::to_string(n + i); };
    std::string text = std::string(fresh ? "{\n\t" : "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " + arg(aArgs + 1) + ", 0;\n\t") +
                       "wgmma.mma_async.sync.aligned.m64n" + std::to_string(N) + "k" + std::to_string(kStep) +
                       (i8 ? ".s32." : halfAcc ? ".f16." : ".f32.") + type + "." + type + " {";
    std::string cons;
    for (unsigned i = 0; i < n; ++i) {
      text += (i ? ", $" : "$") + std::to_string(i);
      cons += "=" + reg + ",";
    }
    // Operands after scale-d: for floats imm-scale-a and -b (1), and for 16-bit types the
    // transposes; int8 has neither.
    std::string tail = i8 ? "" : kMajorOnly ? ", 1, 1" : std::string(", 1, 1") + (aRegs ? "" : ", 0") + (bKMajor ? ", 0" : ", 1");
    text += "}, " + (aRegs ? "{" + arg(0) + ", " + arg(1) + ", " + arg(2) + ", " + arg(3) + "}" : arg(0)) + ", " + arg(aArgs) +
            (fresh ? ", 0" : ", p") + tail + ";\n\t}";
    cons += aRegs ? "r,r,r,r,l" : "l,l";
    if (!fresh) {
      cons += ",r";
      for (unsigned i = 0; i < n; ++i) cons += "," + std::to_string(i);
    }
    std::vector<llvm::Type*> ins(aArgs, aRegs ? b_.getInt32Ty() : b_.getInt64Ty());
    ins.push_back(b_.getInt64Ty());
    if (!fresh) {
      ins.push_back(b_.getInt32Ty());
      ins.insert(ins.end(), n, accTy);
    }
    std::vector<llvm::Type*> outTys(n, accTy);
    return llvm::InlineAsm::get(llvm::FunctionType::get(llvm::StructType::get(ctx_, outTys), ins, false), text, cons,
                                /*hasSideEffects=*/true);
  };
  // A from registers: per slab bm and k step k0, the fragment a0..a3 = rows g / g + 8 of the
  // 8-column blocks k0 / 8 and k0 / 8 + 1 (the accumulator's slots, in pairs), packed.
  // fp8 (k32): a_i holds 4 bytes, columns 4t..4t+3 (t = lane % 4) of the 16-column window
  // k0 + 16 (i / 2) at row g + 8 (i % 2), which lanes 2 (t % 2) and 2 (t % 2) + 1 of the quad
  // hold (2 columns each) in block 2 window + t / 2: each lane packs its pairs of the window's
  // two blocks in a word, two shuffles fetch its sources' words, and it keeps their halves for
  // block t / 2.
  std::vector<llvm::Value*> aFragments;
  if (aRegs && sa.elemBytes == 2) {
    llvm::Type* half = scalarType(a->type.elem());
    for (unsigned bm = 0; bm < l.blocksM(); ++bm)
      for (int64_t k0 = 0; k0 < K; k0 += 16)
        for (unsigned w = 0; w < 4; ++w) {
          unsigned k = bm * unsigned(K / 2) + unsigned(k0 / 8) * 4 + 2 * w;
          aFragments.push_back(packPair(slot(a, k), slot(a, k + 1), half));
        }
  } else if (aRegs) {
    llvm::Type* i32 = b_.getInt32Ty();
    llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(31));
    llvm::Value* t = b_.CreateAnd(lane, b_.getInt32(3));
    llvm::Value* first = b_.CreateOr(b_.CreateAnd(lane, b_.getInt32(~3)), b_.CreateShl(b_.CreateAnd(t, b_.getInt32(1)), b_.getInt32(1)));
    llvm::Value* upper = b_.CreateICmpUGE(t, b_.getInt32(2));
    auto byteAt = [&](unsigned k) { return b_.CreateZExt(b_.CreateBitCast(slot(a, k), b_.getInt8Ty()), i32); };
    auto shfl = [&](llvm::Value* x, llvm::Value* src) {
      return b_.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_idx_i32, {}, {b_.getInt32(-1), x, src, b_.getInt32(31)});
    };
    for (unsigned bm = 0; bm < l.blocksM(); ++bm)
      for (int64_t k0 = 0; k0 < K; k0 += 32)
        for (unsigned w = 0; w < 4; ++w) {  // a0..a3: window k0 + 16 (w / 2), row half w % 2
          const unsigned block = bm * unsigned(K / 8) + unsigned(k0 / 8) + 2 * (w / 2), r = 2 * (w % 2);
          auto pair = [&](unsigned blk) {
            unsigned k = (block + blk) * 4 + r;
            return b_.CreateOr(byteAt(k), b_.CreateShl(byteAt(k + 1), b_.getInt32(8)));
          };
          llvm::Value* mine = b_.CreateOr(pair(0), b_.CreateShl(pair(1), b_.getInt32(16)));
          llvm::Value* lo = shfl(mine, first);
          llvm::Value* hi = shfl(mine, b_.CreateAdd(first, b_.getInt32(1)));
          llvm::Value* low = b_.CreateOr(b_.CreateAnd(lo, b_.getInt32(0xffff)), b_.CreateShl(hi, b_.getInt32(16)));
          llvm::Value* high = b_.CreateOr(b_.CreateLShr(lo, b_.getInt32(16)), b_.CreateAnd(hi, b_.getInt32(int32_t(0xffff0000u))));
          aFragments.push_back(b_.CreateSelect(upper, high, low));
        }
  }
  auto* mma = mmaAsm(false);
  auto* freshMma = mmaAsm(true);
  asmCall(b_.getVoidTy(), "wgmma.fence.sync.aligned;", "~{memory}", {});
  // A K-major tile's k step: slab of columns k0 / (S / e), e k0 bytes into its rows.
  auto kMajorStep = [](const SharedLayout& t, int64_t k0) {
    int64_t perSlab = t.swizzleBytes / t.elemBytes;
    return uint64_t(k0 / perSlab) * uint64_t(t.rows) * t.swizzleBytes + uint64_t(k0 % perSlab) * t.elemBytes;
  };
  // Triton's max_num_imprecise_acc (fp8): every `chunk` elements of K accumulate from zero in a
  // group of their own (scale-d 0 on the group's first step), which is waited for and added to
  // the accumulator in f32; without it one group accumulates into the accumulator throughout.
  const int64_t* impreciseAttr = op.intAttr("max_num_imprecise_acc");
  const bool chunked = impreciseAttr != nullptr;
  // A zero accumulator (a dot without one, tl.zeros): each slab's first k step starts fresh.
  const bool zeroAcc = !chunked && isZeroConstant(op.operands[2]);
  const int64_t chunk = chunked ? std::max<int64_t>(*impreciseAttr, kStep) : K;
  Values total = acc;  // chunked: the accumulator, between chunks
  for (int64_t k0 = 0; k0 < K; k0 += kStep) {
    if (chunked && k0 % chunk == 0 && k0 > 0) {
      asmCall(b_.getVoidTy(), "wgmma.commit_group.sync.aligned;", "~{memory}", {});
      acc = wgmmaWait(acc, 0);
      for (size_t i = 0; i < acc.size(); ++i) total[i] = b_.CreateFAdd(total[i], acc[i]);
      // The adds read the accumulator registers the next group writes: fenced, as PTX requires
      // between other accesses to them and a wgmma.
      asmCall(b_.getVoidTy(), "wgmma.fence.sync.aligned;", "~{memory}", {});
    }
    const bool fresh = chunked && k0 % chunk == 0;  // the chunk's first step: its sum starts at zero
    // A as above; B N-major: rows k0.. (16 rows of S bytes), or K-major as A.
    uint64_t aStep = kMajorStep(sa, k0);
    uint64_t bStep = bKMajor ? kMajorStep(sb, k0) : uint64_t(k0) * sb.swizzleBytes;
    for (unsigned bm = 0; bm < l.blocksM(); ++bm) {
      std::vector<llvm::Value*> args;
      if (aRegs) {
        auto f = aFragments.begin() + (bm * (K / kStep) + k0 / kStep) * 4;
        args.assign(f, f + 4);
      } else {
        uint64_t aOff = aStep + uint64_t(bm) * 64 * sa.swizzleBytes;
        args.push_back(b_.CreateAdd(aDesc, b_.getInt64(aOff >> 4)));
      }
      args.push_back(b_.CreateAdd(bDesc, b_.getInt64(bStep >> 4)));
      unsigned first = bm * n;
      const bool freshStep = zeroAcc && k0 == 0;
      if (!freshStep) {
        args.push_back(b_.getInt32(fresh ? 0 : 1));
        for (unsigned i = 0; i < n; ++i) args.push_back(acc[first + i]);
      }
      llvm::Value* d = b_.CreateCall(freshStep ? freshMma : mma, args);
      for (unsigned i = 0; i < n; ++i) acc[first + i] = b_.CreateExtractValue(d, i);
    }
  }
  asmCall(b_.getVoidTy(), "wgmma.commit_group.sync.aligned;", "~{memory}", {});
  // A dot whose accumulator only the next iteration's dot reads leaves its wgmma in flight (one
  // group: the ring waits for it before reusing its buffers); any other waits here, as does
  // one accumulated in chunks, whose last chunk is added now.
  acc = wgmmaWait(acc, asyncDots_.count(&op) && !chunked ? 1 : 0);
  if (chunked)
    for (size_t i = 0; i < acc.size(); ++i) acc[i] = b_.CreateFAdd(total[i], acc[i]);
  Values out;
  for (llvm::Value* v : acc) {
    if (halfAcc) {
      auto [lo, hi] = unpackPair(v, cTy);
      out.push_back(lo);
      out.push_back(hi);
    } else {
      out.push_back(v->getType() == cTy ? v : b_.CreateFPTrunc(v, cTy));
    }
  }
  values_[op.result()] = out;
  if (staged) barrier();
}

}  // namespace tilevm::codegen

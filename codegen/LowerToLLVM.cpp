// LowerToLLVM.cpp - tile IR to LLVM IR for the NVPTX target. A program is one CTA of
// 32 * numWarps threads; each tile value lives in the blocked layout (Layout.h) as one LLVM value
// per register slot (a scalar, or a result of elementwise ops on scalars, as one value); lanes
// past a tile's end compute on harmless values and are masked off at every load and store.
// Elementwise ops, casts, math, 1-D reductions and masked loads/stores are lowered; any other op
// is a located error naming it (docs/codegen.md).
#include "codegen/Lowering.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Verifier.h>

#include <cmath>
#include <map>

#include "codegen/Contiguity.h"
#include "codegen/Layout.h"

namespace tilevm::codegen {

using ir::Opcode;
using ir::ScalarKind;

namespace {

class Lowering {
 public:
  Lowering(const ir::Module& m, const ir::Kernel& k, const Options& o, llvm::LLVMContext& ctx)
      : m_(m), k_(k), o_(o), ctx_(ctx), b_(ctx), threads_(threadsPerProgram(o)) {}

  std::unique_ptr<llvm::Module> run() {
    auto mod = std::make_unique<llvm::Module>(k_.name, ctx_);
    mod->setTargetTriple("nvptx64-nvidia-cuda");
    std::vector<llvm::Type*> params;
    for (const auto& p : k_.params()) params.push_back(scalarType(p->type.elem()));
    auto* fnTy = llvm::FunctionType::get(b_.getVoidTy(), params, false);
    fn_ = llvm::Function::Create(fnTy, llvm::Function::ExternalLinkage, k_.name, mod.get());
    fn_->setCallingConv(llvm::CallingConv::PTX_Kernel);
    // The launch's exact block size (.reqntid): ptxas may budget registers for it.
    llvm::Metadata* reqntid[] = {llvm::ValueAsMetadata::get(fn_), llvm::MDString::get(ctx_, "reqntidx"),
                                 llvm::ValueAsMetadata::get(b_.getInt32(threads_))};
    mod->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx_, reqntid));
    mod_ = mod.get();
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry);
    tid_ = b_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
    for (size_t i = 0; i < k_.params().size(); ++i) values_[k_.params()[i].get()] = {fn_->getArg(unsigned(i))};
    runs_ = analyzeRuns(k_);
    lowerBlock(k_.body.block);
    return mod;
  }

 private:
  [[noreturn]] void fail(const ir::Op& op, const std::string& msg) {
    const ir::Location& l = op.loc;
    std::string file = l.file < m_.files.size() ? m_.files[l.file] : "";
    throw DiagnosticError(Diagnostic{file, l.line, l.col, msg});
  }

  llvm::Type* scalarType(const ir::ElemType& e) {
    switch (e.kind) {
      case ScalarKind::I1: return b_.getInt1Ty();
      case ScalarKind::I8: return b_.getInt8Ty();
      case ScalarKind::I16: return b_.getInt16Ty();
      case ScalarKind::I32: return b_.getInt32Ty();
      case ScalarKind::I64: return b_.getInt64Ty();
      case ScalarKind::F16: return b_.getHalfTy();
      case ScalarKind::BF16: return b_.getBFloatTy();
      case ScalarKind::F32: return b_.getFloatTy();
      case ScalarKind::F64: return b_.getDoubleTy();
      case ScalarKind::Ptr: return llvm::PointerType::get(ctx_, 1);  // global memory
    }
    return nullptr;
  }

  Layout layoutOf(const ir::Value* v) const { return Layout::of(v->type, threads_); }

  // The element index a thread's slot k holds.
  llvm::Value* elementIndex(const Layout& l, unsigned k) {
    unsigned run = k / l.vec, lane = k % l.vec;
    llvm::Value* first = l.vec == 1 ? tid_ : b_.CreateMul(tid_, b_.getInt32(l.vec));
    return b_.CreateAdd(first, b_.getInt32(run * l.vec * threads_ + lane));
  }

  // Slot k of v (a scalar gives its single value to every slot; elementwise ops on scalars have
  // a scalar layout, one slot, so they stay single values too).
  llvm::Value* slot(const ir::Value* v, unsigned k) {
    const auto& s = values_.at(v);
    return s.size() == 1 ? s[0] : s[k];
  }

  // Whether slot k of a tile of `numel` elements holds a real element in this thread.
  llvm::Value* inTile(const Layout& l, unsigned k) {
    if (l.full() || (l.vec == 1 && int64_t(k + 1) * threads_ <= l.numel)) return b_.getTrue();
    return b_.CreateICmpSLT(elementIndex(l, k), b_.getInt32(int32_t(l.numel)));
  }

  template <typename F>
  void elementwise(const ir::Op& op, F&& f) {
    Layout l = layoutOf(op.result());
    std::vector<llvm::Value*> out;
    for (unsigned k = 0; k < l.slots(); ++k) out.push_back(f(k));
    values_[op.result()] = out;
  }

  void lowerBlock(const ir::Block& block) {
    for (const auto& opPtr : block.ops) lowerOp(*opPtr);
  }

  void lowerOp(const ir::Op& op) {
    switch (op.code) {
      case Opcode::ProgramId:
      case Opcode::NumPrograms: {
        int64_t axis = *op.intAttr("axis");
        static const llvm::Intrinsic::ID ctaid[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
        static const llvm::Intrinsic::ID nctaid[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
        auto id = (op.code == Opcode::ProgramId ? ctaid : nctaid)[axis];
        values_[op.result()] = {b_.CreateIntrinsic(id, {}, {})};
        return;
      }
      case Opcode::Constant: {
        const ir::Type& t = op.result()->type;
        llvm::Type* ty = scalarType(t.elem());
        llvm::Value* c = nullptr;
        if (const int64_t* i = op.intAttr("value")) c = t.isFloat() ? llvm::ConstantFP::get(ty, double(*i)) : llvm::ConstantInt::get(ty, uint64_t(*i), true);
        else if (const double* d = op.floatAttr("value")) c = t.isFloat() ? llvm::ConstantFP::get(ty, *d) : llvm::ConstantInt::get(ty, uint64_t(int64_t(*d)), true);
        else fail(op, "codegen: constant of this form is not supported yet");
        values_[op.result()] = {c};  // uniform: one value serves every slot
        return;
      }
      case Opcode::Splat:
        values_[op.result()] = {slot(op.operands[0], 0)};
        return;
      case Opcode::Arange: {
        int64_t start = *op.intAttr("start");
        Layout l = layoutOf(op.result());
        elementwise(op, [&](unsigned k) { return b_.CreateAdd(elementIndex(l, k), b_.getInt32(int32_t(start))); });
        return;
      }
      case Opcode::AddI: return binary(op, llvm::Instruction::Add);
      case Opcode::SubI: return binary(op, llvm::Instruction::Sub);
      case Opcode::MulI: return binary(op, llvm::Instruction::Mul);
      case Opcode::AndI: return binary(op, llvm::Instruction::And);
      case Opcode::OrI: return binary(op, llvm::Instruction::Or);
      case Opcode::XorI: return binary(op, llvm::Instruction::Xor);
      case Opcode::AddF: return binary(op, llvm::Instruction::FAdd);
      case Opcode::SubF: return binary(op, llvm::Instruction::FSub);
      case Opcode::MulF: return binary(op, llvm::Instruction::FMul);
      case Opcode::DivF: return binary(op, llvm::Instruction::FDiv);
      case Opcode::CmpI: {
        static const std::map<std::string, llvm::CmpInst::Predicate> preds = {
            {"eq", llvm::CmpInst::ICMP_EQ},   {"ne", llvm::CmpInst::ICMP_NE},   {"slt", llvm::CmpInst::ICMP_SLT},
            {"sle", llvm::CmpInst::ICMP_SLE}, {"sgt", llvm::CmpInst::ICMP_SGT}, {"sge", llvm::CmpInst::ICMP_SGE},
            {"ult", llvm::CmpInst::ICMP_ULT}, {"ule", llvm::CmpInst::ICMP_ULE}, {"ugt", llvm::CmpInst::ICMP_UGT},
            {"uge", llvm::CmpInst::ICMP_UGE}};
        auto pred = preds.at(*op.strAttr("pred"));
        elementwise(op, [&](unsigned k) { return b_.CreateICmp(pred, slot(op.operands[0], k), slot(op.operands[1], k)); });
        return;
      }
      case Opcode::MaximumF:
      case Opcode::MinimumF:
      case Opcode::MaxNumF:
      case Opcode::MinNumF: {
        // maximum/minimum propagate NaN; maxnum/minnum return the other operand (IEEE 754-2008).
        llvm::Intrinsic::ID id = op.code == Opcode::MaximumF   ? llvm::Intrinsic::maximum
                                 : op.code == Opcode::MinimumF ? llvm::Intrinsic::minimum
                                 : op.code == Opcode::MaxNumF  ? llvm::Intrinsic::maxnum
                                                               : llvm::Intrinsic::minnum;
        elementwise(op, [&](unsigned k) {
          llvm::Value* a = slot(op.operands[0], k);
          return b_.CreateBinaryIntrinsic(id, a, slot(op.operands[1], k));
        });
        return;
      }
      case Opcode::Exp:
        if (op.result()->type.elem().kind != ScalarKind::F32) fail(op, "codegen: exp is lowered for f32 only yet");
        elementwise(op, [&](unsigned k) { return expF32(slot(op.operands[0], k)); });
        return;
      case Opcode::Exp2:
        if (op.result()->type.elem().kind != ScalarKind::F32) fail(op, "codegen: exp2 is lowered for f32 only yet");
        elementwise(op, [&](unsigned k) { return exp2F32(slot(op.operands[0], k)); });
        return;
      case Opcode::Sqrt:
      case Opcode::PreciseSqrt:  // sqrt.rn: correctly rounded, as the interpreter
        return unaryIntrinsic(op, llvm::Intrinsic::sqrt);
      case Opcode::AbsF: return unaryIntrinsic(op, llvm::Intrinsic::fabs);
      case Opcode::Floor: return unaryIntrinsic(op, llvm::Intrinsic::floor);
      case Opcode::Ceil: return unaryIntrinsic(op, llvm::Intrinsic::ceil);
      case Opcode::Rsqrt: {  // 1 / sqrt(x), both correctly rounded, as the interpreter computes it
        llvm::Type* ty = scalarType(op.result()->type.elem());
        elementwise(op, [&](unsigned k) {
          return b_.CreateFDiv(llvm::ConstantFP::get(ty, 1.0), b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, slot(op.operands[0], k)));
        });
        return;
      }
      case Opcode::NegF:
        elementwise(op, [&](unsigned k) { return b_.CreateFNeg(slot(op.operands[0], k)); });
        return;
      case Opcode::PreciseDiv: return binary(op, llvm::Instruction::FDiv);
      case Opcode::Fma: {
        llvm::Type* ty = scalarType(op.result()->type.elem());
        elementwise(op, [&](unsigned k) {
          return b_.CreateIntrinsic(llvm::Intrinsic::fma, {ty}, {slot(op.operands[0], k), slot(op.operands[1], k), slot(op.operands[2], k)});
        });
        return;
      }
      case Opcode::MinSI: return binaryIntrinsic(op, llvm::Intrinsic::smin);
      case Opcode::MaxSI: return binaryIntrinsic(op, llvm::Intrinsic::smax);
      case Opcode::MinUI: return binaryIntrinsic(op, llvm::Intrinsic::umin);
      case Opcode::MaxUI: return binaryIntrinsic(op, llvm::Intrinsic::umax);
      case Opcode::CmpF: {
        static const std::map<std::string, llvm::CmpInst::Predicate> preds = {
            {"oeq", llvm::CmpInst::FCMP_OEQ}, {"one", llvm::CmpInst::FCMP_ONE}, {"olt", llvm::CmpInst::FCMP_OLT},
            {"ole", llvm::CmpInst::FCMP_OLE}, {"ogt", llvm::CmpInst::FCMP_OGT}, {"oge", llvm::CmpInst::FCMP_OGE},
            {"ueq", llvm::CmpInst::FCMP_UEQ}, {"une", llvm::CmpInst::FCMP_UNE}, {"ult", llvm::CmpInst::FCMP_ULT},
            {"ule", llvm::CmpInst::FCMP_ULE}, {"ugt", llvm::CmpInst::FCMP_UGT}, {"uge", llvm::CmpInst::FCMP_UGE},
            {"ord", llvm::CmpInst::FCMP_ORD}, {"uno", llvm::CmpInst::FCMP_UNO}};
        auto pred = preds.at(*op.strAttr("pred"));
        elementwise(op, [&](unsigned k) { return b_.CreateFCmp(pred, slot(op.operands[0], k), slot(op.operands[1], k)); });
        return;
      }
      // Casts whose result is defined for every input (float-to-int is not lowered yet: PTX
      // saturates where the interpreter's rule differs).
      case Opcode::ExtF: return cast(op, llvm::Instruction::FPExt);
      case Opcode::TruncF: return cast(op, llvm::Instruction::FPTrunc);
      case Opcode::ExtSI: return cast(op, llvm::Instruction::SExt);
      case Opcode::ExtUI: return cast(op, llvm::Instruction::ZExt);
      case Opcode::TruncI: return cast(op, llvm::Instruction::Trunc);
      case Opcode::SIToFP: return cast(op, llvm::Instruction::SIToFP);
      case Opcode::UIToFP: return cast(op, llvm::Instruction::UIToFP);
      case Opcode::Reduce: return reduce(op);
      case Opcode::Select:
        elementwise(op, [&](unsigned k) {
          return b_.CreateSelect(slot(op.operands[0], k), slot(op.operands[1], k), slot(op.operands[2], k));
        });
        return;
      case Opcode::AddPtr: {
        llvm::Type* elem = scalarType(ir::ElemType{op.result()->type.elem().pointee, ScalarKind::I32});
        elementwise(op, [&](unsigned k) {
          llvm::Value* off = slot(op.operands[1], k);
          if (off->getType()->getIntegerBitWidth() < 64) off = b_.CreateSExt(off, b_.getInt64Ty());
          return b_.CreateGEP(elem, slot(op.operands[0], k), off);
        });
        return;
      }
      case Opcode::Load: return load(op);
      case Opcode::Store: return store(op);
      case Opcode::Return:
        b_.CreateRetVoid();
        return;
      default:
        fail(op, "codegen: '" + std::string(op.mnemonic()) +
                     "' is not lowered to the GPU yet (docs/codegen.md lists what is)");
    }
  }

  void unaryIntrinsic(const ir::Op& op, llvm::Intrinsic::ID id) {
    elementwise(op, [&](unsigned k) { return b_.CreateUnaryIntrinsic(id, slot(op.operands[0], k)); });
  }

  void binaryIntrinsic(const ir::Op& op, llvm::Intrinsic::ID id) {
    elementwise(op, [&](unsigned k) { return b_.CreateBinaryIntrinsic(id, slot(op.operands[0], k), slot(op.operands[1], k)); });
  }

  void cast(const ir::Op& op, llvm::Instruction::CastOps how) {
    llvm::Type* to = scalarType(op.result()->type.elem());
    elementwise(op, [&](unsigned k) { return b_.CreateCast(how, slot(op.operands[0], k), to); });
  }

  // 2^x for f32: ex2.approx (Triton's choice for tl.exp2; within 2 ulp on its full range).
  llvm::Value* exp2F32(llvm::Value* x) {
    return b_.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_f, {}, {x});
  }

  // exp(x) for f32 within a few ulp over the whole range: x = n ln2 + r with n = rint(x log2 e)
  // and ln2 split in two (FMA), e^r = 2^(r log2 e) by ex2.approx on |r log2 e| <= 1/2, times 2^n
  // (ex2.approx of an integer is exact). Infinities and NaN are passed through.
  llvm::Value* expF32(llvm::Value* x) {
    llvm::Type* f = b_.getFloatTy();
    auto c = [&](double v) { return llvm::ConstantFP::get(f, v); };
    llvm::Value* n = b_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, b_.CreateFMul(x, c(1.4426950408889634)));
    llvm::Value* negN = b_.CreateFNeg(n);
    llvm::Value* r = b_.CreateIntrinsic(llvm::Intrinsic::fma, {f}, {negN, c(0.693145751953125), x});
    r = b_.CreateIntrinsic(llvm::Intrinsic::fma, {f}, {negN, c(1.428606765330187e-06), r});
    llvm::Value* er = b_.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_f, {}, {b_.CreateFMul(r, c(1.4426950408889634))});
    // 2^n in two halves, so that n near the ends of the range neither overflows nor flushes early.
    llvm::Value* half = b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, b_.CreateFMul(n, c(0.5)));
    llvm::Value* p1 = b_.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_f, {}, {half});
    llvm::Value* p2 = b_.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_f, {}, {b_.CreateFSub(n, half)});
    llvm::Value* y = b_.CreateFMul(b_.CreateFMul(er, p1), p2);
    llvm::Value* isInf = b_.CreateFCmpOEQ(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), c(INFINITY));
    llvm::Value* inf = b_.CreateSelect(b_.CreateFCmpOGT(x, c(0)), c(INFINITY), c(0));
    return b_.CreateSelect(isInf, inf, y);
  }

  // The values a reduce's combiner region gives for (a, b): its ops lowered inline.
  llvm::Value* combine(const ir::Region& region, llvm::Value* a, llvm::Value* b) {
    const ir::Block& blk = region.block;
    values_[blk.args[0].get()] = {a};
    values_[blk.args[1].get()] = {b};
    for (size_t i = 0; i + 1 < blk.ops.size(); ++i) lowerOp(*blk.ops[i]);
    return slot(blk.ops.back()->operands[0], 0);
  }

  // A reduce of a 1-D tile to a scalar: each thread combines its slots in element order, then the
  // threads' partial values are combined by warp shuffles (reduceByShuffles) or, for tiles
  // smaller than the program and other widths, by thread 0 from shared memory in thread order;
  // every thread gets the result. Any combiner works (no identity needed).
  void reduce(const ir::Op& op) {
    const ir::Value* in = op.operands[0];
    if (op.operands.size() != 1 || in->type.rank() != 1 || !op.result()->type.isScalar())
      fail(op, "codegen: only reductions of one 1-D tile to a scalar are lowered yet");
    Layout l = layoutOf(in);
    llvm::Type* ty = scalarType(in->type.elem());
    // In-thread: acc over the valid slots (threads below min(numel, T) all hold slot 0).
    llvm::Value* acc = slot(in, 0);
    for (unsigned k = 1; k < l.slots(); ++k) {
      llvm::Value* combined = combine(*op.regions[0], acc, slot(in, k));
      acc = b_.CreateSelect(inTile(l, k), combined, acc);
    }
    unsigned used = unsigned(std::min<int64_t>(l.numel, threads_));
    bool shuffles = used == threads_ && (ty->isFloatTy() || ty->isIntegerTy(32));
    if (shuffles) {
      values_[op.result()] = {reduceByShuffles(op, ty, acc)};
      return;
    }
    // Across threads, through shared memory.
    auto* arrTy = llvm::ArrayType::get(ty, threads_);
    auto* vals = new llvm::GlobalVariable(*mod_, arrTy, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(arrTy),
                                          "reduce_vals", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    auto* result = new llvm::GlobalVariable(*mod_, ty, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(ty),
                                            "reduce_out", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    vals->setAlignment(llvm::Align(16));  // the serial phase's loads are vectorized by O3
    result->setAlignment(llvm::Align(16));
    b_.CreateStore(acc, b_.CreateGEP(arrTy, vals, {b_.getInt32(0), tid_}));
    barrier();
    auto* serial = llvm::BasicBlock::Create(ctx_, "reduce_serial", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "reduce_done", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(tid_, b_.getInt32(0)), serial, done);
    b_.SetInsertPoint(serial);
    // Thread 0 combines the partial values of the threads that hold elements, in thread order.
    llvm::Value* total = b_.CreateLoad(ty, b_.CreateGEP(arrTy, vals, {b_.getInt32(0), b_.getInt32(0)}));
    for (unsigned t = 1; t < used; ++t) {
      llvm::Value* v = b_.CreateLoad(ty, b_.CreateGEP(arrTy, vals, {b_.getInt32(0), b_.getInt32(t)}));
      total = combine(*op.regions[0], total, v);
    }
    b_.CreateStore(total, result);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    barrier();
    values_[op.result()] = {b_.CreateLoad(ty, result)};
    // The next reduce reuses nothing: each has its own shared arrays.
  }

  // Every thread holds a partial value (32-bit): a butterfly of warp shuffles combines a warp's
  // 32 in 5 steps, leaving the warp's total in every lane; lane 0 of each warp writes it to
  // shared memory, and every thread combines the warps' totals in warp order. The order of
  // combination differs from the interpreter's (diff holds reductions to relative error).
  llvm::Value* reduceByShuffles(const ir::Op& op, llvm::Type* ty, llvm::Value* acc) {
    auto shuffle = ty->isFloatTy() ? llvm::Intrinsic::nvvm_shfl_sync_bfly_f32 : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
    for (int offset = 16; offset >= 1; offset /= 2) {
      llvm::Value* other = b_.CreateIntrinsic(shuffle, {}, {b_.getInt32(-1), acc, b_.getInt32(offset), b_.getInt32(0x1f)});
      acc = combine(*op.regions[0], acc, other);
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
      total = combine(*op.regions[0], total, b_.CreateLoad(ty, b_.CreateGEP(arrTy, totals, {b_.getInt32(0), b_.getInt32(w)})));
    barrier();  // the array is free again (a reduce in a loop writes it next iteration)
    return total;
  }

  void barrier() { b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }

  void binary(const ir::Op& op, llvm::Instruction::BinaryOps code) {
    elementwise(op, [&](unsigned k) { return b_.CreateBinOp(code, slot(op.operands[0], k), slot(op.operands[1], k)); });
  }

  // Slot-wise predicated access: the lane runs the access only when its element is in the tile
  // and, if there is a mask, the mask is set.
  llvm::Value* predicate(const ir::Op& op, const Layout& l, unsigned k, size_t maskIndex) {
    llvm::Value* p = inTile(l, k);
    if (op.operands.size() > maskIndex) p = b_.CreateAnd(p, slot(op.operands[maskIndex], k));
    return p;
  }

  // Loads and stores go a run of `vec` slots at a time when the layout gives a thread runs
  // (Layout.h): if, at run time, the run's addresses are consecutive and aligned to the run's
  // width and its mask is the same in every lane, one vector access (ld/st.global.v2/v4) serves
  // it; otherwise each slot is accessed alone. The check costs a few integer ops per run (no
  // axis analysis is needed to be correct; where O3 can prove the run contiguous it folds away).
  bool vectorizable(const Layout& l, llvm::Type* ty) const {
    unsigned bits = unsigned(ty->getPrimitiveSizeInBits());
    return !l.scalar && l.vec > 1 && (ty->isFloatingPointTy() || ty->isIntegerTy()) && (bits == 16 || bits == 32 || bits == 64);
  }

  // Whether the run of slots k..k+vec-1 of op's pointers (operand 0) may be one vector access:
  // consecutive, aligned, one mask value (operand maskIndex, when present).
  // What the analysis (Contiguity.h) proved spares run-time checks: a contiguous pointer tile
  // leaves only the alignment of the run's first address; a uniform mask needs no check, a
  // monotone one only its two ends.
  llvm::Value* runIsVector(const ir::Op& op, const Layout& l, unsigned k, unsigned bytes, size_t maskIndex) {
    llvm::Value* base = b_.CreatePtrToInt(slot(op.operands[0], k), b_.getInt64Ty());
    llvm::Value* ok = b_.CreateICmpEQ(b_.CreateAnd(base, b_.getInt64(uint64_t(l.vec) * bytes - 1)), b_.getInt64(0));
    if (runShape(op.operands[0]) != RunShape::Contiguous)
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

  RunShape runShape(const ir::Value* v) const {
    auto it = runs_.find(v);
    return it == runs_.end() ? RunShape::Unknown : it->second;
  }

  // The address of slot k + i of op's pointer operand: derived from slot k when the tile is known
  // contiguous (so the other slots' addresses need not be computed at all).
  llvm::Value* lanePointer(const ir::Op& op, unsigned k, unsigned i, llvm::Type* elem) {
    if (i == 0 || runShape(op.operands[0]) != RunShape::Contiguous) return slot(op.operands[0], k + i);
    return b_.CreateGEP(elem, slot(op.operands[0], k), b_.getInt64(i));
  }

  // A vector access is inline PTX (`ld/st.global.v2/v4.bN`), as Triton emits it: LLVM's own
  // vector loads get split again by O3's CFG merging of the vector and per-slot paths. At most
  // 16 bytes per instruction; a run wider than that takes several. The asm is marked as having
  // side effects, so LLVM never moves it across other memory accesses.
  struct AccessWidth {
    unsigned bits;
    char constraint;
    llvm::Type* reg;
  };
  AccessWidth widthOf(llvm::Type* ty) {
    unsigned bits = unsigned(ty->getPrimitiveSizeInBits());
    if (bits == 16) return {16, 'h', b_.getInt16Ty()};
    if (bits == 32) return {32, 'r', b_.getInt32Ty()};
    return {64, 'l', b_.getInt64Ty()};
  }

  std::vector<llvm::Value*> vectorLoad(llvm::Value* ptr, llvm::Type* ty, unsigned n) {
    AccessWidth w = widthOf(ty);
    unsigned per = std::min(n, 128 / w.bits);
    std::vector<llvm::Value*> lanes;
    for (unsigned first = 0; first < n; first += per) {
      std::string text = "ld.global.v" + std::to_string(per) + ".b" + std::to_string(w.bits) + " {", cons;
      for (unsigned i = 0; i < per; ++i) {
        text += (i ? ", $" : "$") + std::to_string(i);
        cons += std::string("=") + w.constraint + ",";
      }
      text += "}, [$" + std::to_string(per) + "];";
      cons += "l";
      std::vector<llvm::Type*> regs(per, w.reg);
      auto* fnTy = llvm::FunctionType::get(llvm::StructType::get(ctx_, regs), {b_.getInt64Ty()}, false);
      llvm::Value* addr = b_.CreatePtrToInt(ptr, b_.getInt64Ty());
      if (first) addr = b_.CreateAdd(addr, b_.getInt64(uint64_t(first) * w.bits / 8));
      llvm::Value* r = b_.CreateCall(llvm::InlineAsm::get(fnTy, text, cons, /*hasSideEffects=*/true), {addr});
      for (unsigned i = 0; i < per; ++i) lanes.push_back(b_.CreateBitCast(b_.CreateExtractValue(r, i), ty));
    }
    return lanes;
  }

  void vectorStore(llvm::Value* ptr, const std::vector<llvm::Value*>& lanes, llvm::Type* ty) {
    AccessWidth w = widthOf(ty);
    unsigned n = unsigned(lanes.size()), per = std::min(n, 128 / w.bits);
    for (unsigned first = 0; first < n; first += per) {
      std::string text = "st.global.v" + std::to_string(per) + ".b" + std::to_string(w.bits) + " [$0], {", cons = "l";
      std::vector<llvm::Type*> types{b_.getInt64Ty()};
      llvm::Value* addr = b_.CreatePtrToInt(ptr, b_.getInt64Ty());
      if (first) addr = b_.CreateAdd(addr, b_.getInt64(uint64_t(first) * w.bits / 8));
      std::vector<llvm::Value*> args{addr};
      for (unsigned i = 0; i < per; ++i) {
        text += (i ? ", $" : "$") + std::to_string(i + 1);
        cons += std::string(",") + w.constraint;
        types.push_back(w.reg);
        args.push_back(b_.CreateBitCast(lanes[first + i], w.reg));
      }
      text += "};";
      cons += ",~{memory}";
      auto* fnTy = llvm::FunctionType::get(b_.getVoidTy(), types, false);
      b_.CreateCall(llvm::InlineAsm::get(fnTy, text, cons, /*hasSideEffects=*/true), args);
    }
  }

  // One slot's predicated load; leaves the builder in the join block.
  llvm::Value* scalarLoad(const ir::Op& op, const Layout& l, unsigned k, llvm::Type* ty, llvm::Value* ptr = nullptr) {
    llvm::Value* pred = predicate(op, l, k, 1);
    llvm::Value* other = op.operands.size() > 2 ? slot(op.operands[2], k) : llvm::Constant::getNullValue(ty);
    auto* doLoad = llvm::BasicBlock::Create(ctx_, "load", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "loaded", fn_);
    llvm::BasicBlock* from = b_.GetInsertBlock();
    b_.CreateCondBr(pred, doLoad, join);
    b_.SetInsertPoint(doLoad);
    llvm::Value* v = b_.CreateLoad(ty, ptr ? ptr : slot(op.operands[0], k));
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    auto* phi = b_.CreatePHI(ty, 2);
    phi->addIncoming(v, doLoad);
    phi->addIncoming(other, from);
    return phi;
  }

  void load(const ir::Op& op) {
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
      auto* check = llvm::BasicBlock::Create(ctx_, "run_mask", fn_);
      auto* vector = llvm::BasicBlock::Create(ctx_, "run_load", fn_);
      auto* scalar = llvm::BasicBlock::Create(ctx_, "run_scalar", fn_);
      auto* join = llvm::BasicBlock::Create(ctx_, "run_loaded", fn_);
      b_.CreateCondBr(runIsVector(op, l, k, bytes, 1), check, scalar);
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
  void scalarStore(const ir::Op& op, const Layout& l, unsigned k, llvm::Value* ptr = nullptr) {
    llvm::Value* pred = predicate(op, l, k, 2);
    auto* doStore = llvm::BasicBlock::Create(ctx_, "store", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "stored", fn_);
    b_.CreateCondBr(pred, doStore, join);
    b_.SetInsertPoint(doStore);
    b_.CreateStore(slot(op.operands[1], k), ptr ? ptr : slot(op.operands[0], k));
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  }

  void store(const ir::Op& op) {
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
    if (!vectorizable(l, ty)) {
      for (unsigned k = 0; k < l.slots(); ++k) scalarStore(op, l, k);
      return;
    }
    unsigned bytes = unsigned(ty->getPrimitiveSizeInBits() / 8);
    bool masked = op.operands.size() > 2;
    for (unsigned k = 0; k < l.slots(); k += l.vec) {
      auto* check = llvm::BasicBlock::Create(ctx_, "run_mask", fn_);
      auto* vector = llvm::BasicBlock::Create(ctx_, "run_store", fn_);
      auto* scalar = llvm::BasicBlock::Create(ctx_, "run_scalar", fn_);
      auto* join = llvm::BasicBlock::Create(ctx_, "run_stored", fn_);
      b_.CreateCondBr(runIsVector(op, l, k, bytes, 2), check, scalar);
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

  const ir::Module& m_;
  const ir::Kernel& k_;
  const Options& o_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  unsigned threads_;
  llvm::Function* fn_ = nullptr;
  llvm::Module* mod_ = nullptr;
  llvm::Value* tid_ = nullptr;
  std::map<const ir::Value*, std::vector<llvm::Value*>> values_;
  std::map<const ir::Value*, RunShape> runs_;
};

}  // namespace

Result<std::unique_ptr<llvm::Module>> lowerToLLVM(const ir::Module& m, const ir::Kernel& k, const Options& o,
                                                 llvm::LLVMContext& ctx) {
  try {
    auto mod = Lowering(m, k, o, ctx).run();
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyModule(*mod, &os))
      return Diagnostic{"<codegen>", 0, 0, "internal error: the generated LLVM IR does not verify: " + os.str()};
    return mod;
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
}

}  // namespace tilevm::codegen

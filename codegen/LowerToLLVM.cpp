// LowerToLLVM.cpp - tile IR to LLVM IR for the NVPTX target. A program is one CTA of
// 32 * numWarps threads; each tile value lives in the cyclic layout (Layout.h) as one LLVM value
// per register slot; lanes past the tile's end compute on harmless values and are masked off at
// every load and store. Version one lowers the ops of elementwise kernels; any other op is a
// located error naming it (docs/codegen.md).
#include "codegen/Lowering.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Verifier.h>

#include <map>

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
    mod_ = mod.get();
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    b_.SetInsertPoint(entry);
    tid_ = b_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
    for (size_t i = 0; i < k_.params().size(); ++i) values_[k_.params()[i].get()] = {fn_->getArg(unsigned(i))};
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
  llvm::Value* elementIndex(unsigned k) { return b_.CreateAdd(tid_, b_.getInt32(k * threads_)); }

  // Slot k of v (a scalar gives its single value to every slot).
  llvm::Value* slot(const ir::Value* v, unsigned k) {
    const auto& s = values_.at(v);
    return s.size() == 1 ? s[0] : s[k];
  }

  // Whether slot k of a tile of `numel` elements holds a real element in this thread.
  llvm::Value* inTile(const Layout& l, unsigned k) {
    if (l.scalar || int64_t(k + 1) * threads_ <= l.numel) return b_.getTrue();
    return b_.CreateICmpSLT(elementIndex(k), b_.getInt32(int32_t(l.numel)));
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
        elementwise(op, [&](unsigned k) { return b_.CreateAdd(elementIndex(k), b_.getInt32(int32_t(start))); });
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
        if (op.result()->type.isScalar()) values_[op.result()].resize(1);
        return;
      }
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
        if (op.result()->type.isScalar()) values_[op.result()].resize(1);
        return;
      }
      case Opcode::Load: return load(op);
      case Opcode::Store: return store(op);
      case Opcode::Return:
        b_.CreateRetVoid();
        return;
      default:
        fail(op, "codegen: '" + std::string(op.mnemonic()) +
                     "' is not lowered to the GPU yet (version one covers elementwise kernels; docs/codegen.md)");
    }
  }

  void binary(const ir::Op& op, llvm::Instruction::BinaryOps code) {
    elementwise(op, [&](unsigned k) { return b_.CreateBinOp(code, slot(op.operands[0], k), slot(op.operands[1], k)); });
    if (op.result()->type.isScalar()) values_[op.result()].resize(1);
  }

  // Slot-wise predicated access: the lane runs the access only when its element is in the tile
  // and, if there is a mask, the mask is set.
  llvm::Value* predicate(const ir::Op& op, const Layout& l, unsigned k, size_t maskIndex) {
    llvm::Value* p = inTile(l, k);
    if (op.operands.size() > maskIndex) p = b_.CreateAnd(p, slot(op.operands[maskIndex], k));
    return p;
  }

  void load(const ir::Op& op) {
    Layout l = layoutOf(op.result());
    llvm::Type* ty = scalarType(op.result()->type.elem());
    std::vector<llvm::Value*> out;
    for (unsigned k = 0; k < l.slots(); ++k) {
      llvm::Value* pred = predicate(op, l, k, 1);
      llvm::Value* other = op.operands.size() > 2 ? slot(op.operands[2], k) : llvm::Constant::getNullValue(ty);
      auto* doLoad = llvm::BasicBlock::Create(ctx_, "load", fn_);
      auto* join = llvm::BasicBlock::Create(ctx_, "loaded", fn_);
      llvm::BasicBlock* from = b_.GetInsertBlock();
      b_.CreateCondBr(pred, doLoad, join);
      b_.SetInsertPoint(doLoad);
      llvm::Value* v = b_.CreateLoad(ty, slot(op.operands[0], k));
      b_.CreateBr(join);
      b_.SetInsertPoint(join);
      auto* phi = b_.CreatePHI(ty, 2);
      phi->addIncoming(v, doLoad);
      phi->addIncoming(other, from);
      out.push_back(phi);
    }
    values_[op.result()] = out;
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
    for (unsigned k = 0; k < l.slots(); ++k) {
      llvm::Value* pred = predicate(op, l, k, 2);
      auto* doStore = llvm::BasicBlock::Create(ctx_, "store", fn_);
      auto* join = llvm::BasicBlock::Create(ctx_, "stored", fn_);
      b_.CreateCondBr(pred, doStore, join);
      b_.SetInsertPoint(doStore);
      b_.CreateStore(slot(op.operands[1], k), slot(op.operands[0], k));
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

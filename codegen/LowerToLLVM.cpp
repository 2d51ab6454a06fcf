// LowerToLLVM.cpp - the entry of the tile IR to LLVM IR step: the kernel function, its values in
// the blocked layout (Lowerer.h), and the dispatch of each op to the file lowering its family.
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Verifier.h>

#include "codegen/Lowerer.h"
#include "codegen/Lowering.h"
#include "ir/Fp8.h"

namespace tilevm::codegen {

using ir::Opcode;
using ir::ScalarKind;

Lowerer::Lowerer(const ir::Module& m, const ir::Kernel& k, const Options& o, llvm::LLVMContext& ctx)
    : m_(m), k_(k), o_(o), ctx_(ctx), b_(ctx), threads_(threadsPerProgram(o)) {}

std::unique_ptr<llvm::Module> Lowerer::run() {
  // Planned first: the rings decide the tensor maps, the kernel's hidden parameters.
  maxVec_ = kernelRunLength(k_);
  Axes axes = analyzeAxes(k_, ParamFacts{o_.paramDivisors, o_.paramOnes});
  axes_ = std::move(axes.rowMajor);
  axesReversed_ = std::move(axes.reversed);
  orderOps();
  assignLayouts();
  planRings();
  auto mod = std::make_unique<llvm::Module>(k_.name, ctx_);
  mod->setTargetTriple("nvptx64-nvidia-cuda");
  std::vector<llvm::Type*> params;
  for (const auto& p : k_.params()) params.push_back(scalarType(p->type.elem()));
  for (size_t i = 0; i < tensorMaps_.size(); ++i) params.push_back(llvm::PointerType::get(ctx_, 0));
  if (deviceMaps_) params.push_back(llvm::PointerType::get(ctx_, 1));  // the programs' tensor maps (LaunchInfo::deviceTensorMaps)
  auto* fnTy = llvm::FunctionType::get(b_.getVoidTy(), params, false);
  fn_ = llvm::Function::Create(fnTy, llvm::Function::ExternalLinkage, k_.name, mod.get());
  fn_->setCallingConv(llvm::CallingConv::PTX_Kernel);
  // The launch's exact block size (.reqntid): ptxas may budget registers for it.
  llvm::NamedMDNode* annotations = mod->getOrInsertNamedMetadata("nvvm.annotations");
  llvm::Metadata* reqntid[] = {llvm::ValueAsMetadata::get(fn_), llvm::MDString::get(ctx_, "reqntidx"),
                               llvm::ValueAsMetadata::get(b_.getInt32(threads_))};
  annotations->addOperand(llvm::MDNode::get(ctx_, reqntid));
  // Tensor maps: 128 bytes by value (64-byte aligned), read in place by the TMA (grid constants,
  // numbered from 1).
  if (!tensorMaps_.empty()) {
    auto* bytes = llvm::ArrayType::get(b_.getInt8Ty(), 128);
    std::vector<llvm::Metadata*> indices;
    for (size_t i = 0; i < tensorMaps_.size(); ++i) {
      unsigned arg = unsigned(k_.params().size() + i);
      fn_->addParamAttr(arg, llvm::Attribute::getWithByValType(ctx_, bytes));
      fn_->addParamAttr(arg, llvm::Attribute::getWithAlignment(ctx_, llvm::Align(64)));
      indices.push_back(llvm::ValueAsMetadata::get(b_.getInt32(arg + 1)));
    }
    llvm::Metadata* gridConstant[] = {llvm::ValueAsMetadata::get(fn_), llvm::MDString::get(ctx_, "grid_constant"),
                                      llvm::MDNode::get(ctx_, indices)};
    annotations->addOperand(llvm::MDNode::get(ctx_, gridConstant));
  }
  mod_ = mod.get();
  auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn_);
  b_.SetInsertPoint(entry);
  tid_ = b_.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
  for (size_t i = 0; i < k_.params().size(); ++i) values_[k_.params()[i].get()] = {fn_->getArg(unsigned(i))};
  lowerBlock(k_.body.block);
  return mod;
}

void Lowerer::fail(const ir::Op& op, const std::string& msg) {
  const ir::Location& l = op.loc;
  std::string file = l.file < m_.files.size() ? m_.files[l.file] : "";
  throw DiagnosticError(Diagnostic{file, l.line, l.col, msg});
}

llvm::Type* Lowerer::scalarType(const ir::ElemType& e) {
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
    case ScalarKind::F8E5:  // fp8: the byte; conversions are cvt instructions (LowerFp8.cpp)
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: return b_.getInt8Ty();
  }
  return nullptr;
}

llvm::Value* Lowerer::elementIndex(const Layout& l, unsigned k) {
  if (l.scalar) return b_.getInt32(0);
  if (l.accumulator() || l.kind == LayoutKind::Rows) {
    // Slot k = (block (bm, bn), element r of the thread's 4 in it): rows g and g + 8, columns
    // 2t and 2t + 1 of the 16x8 block (g = lane / 4, t = lane % 4). The block's first row: Mma,
    // the warp's rectangle then 16 bm; Wgmma, the warpgroup's rows, its 64-row slab bm, then the
    // warp's 16 rows in the slab. Rows: slot k = 2 bm + h, row g + 8 h of block bm.
    const bool rowsOnly = l.kind == LayoutKind::Rows;
    const LayoutKind kind = rowsOnly ? l.parent : l.kind;
    llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(31));
    llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
    unsigned block = rowsOnly ? k / 2 : k / 4, r = rowsOnly ? 2 * (k % 2) : k % 4;
    unsigned bm = rowsOnly ? block : block / l.blocksN(), bn = rowsOnly ? 0 : block % l.blocksN();
    llvm::Value* inBlock = b_.CreateAdd(b_.CreateLShr(lane, b_.getInt32(2)), b_.getInt32(r >= 2 ? 8 : 0));
    llvm::Value *rowStart, *colStart;
    if (kind == LayoutKind::Wgmma) {
      int32_t perGroup = int32_t(l.rows / (l.warpsM / 4));
      llvm::Value* group = b_.CreateLShr(warp, b_.getInt32(2));
      llvm::Value* quarter = b_.CreateAnd(warp, b_.getInt32(3));
      rowStart = b_.CreateAdd(b_.CreateMul(group, b_.getInt32(perGroup)),
                              b_.CreateAdd(b_.CreateShl(quarter, b_.getInt32(4)), b_.getInt32(int32_t(bm * 64))));
      colStart = b_.getInt32(int32_t(bn * 8));
    } else {
      warp = b_.CreateURem(warp, b_.getInt32(l.warpsM * l.warpsN));  // replicas hold copies
      llvm::Value* warpM = b_.CreateUDiv(warp, b_.getInt32(l.warpsN));
      llvm::Value* warpN = b_.CreateURem(warp, b_.getInt32(l.warpsN));
      rowStart = b_.CreateAdd(b_.CreateMul(warpM, b_.getInt32(int32_t(l.rows / l.warpsM))), b_.getInt32(int32_t(bm * 16)));
      colStart = b_.CreateAdd(b_.CreateMul(warpN, b_.getInt32(int32_t(l.cols / l.warpsN))), b_.getInt32(int32_t(bn * 8)));
    }
    llvm::Value* row = b_.CreateAdd(rowStart, inBlock);
    if (rowsOnly) return row;
    llvm::Value* col = b_.CreateAdd(colStart, b_.CreateAdd(b_.CreateShl(b_.CreateAnd(lane, b_.getInt32(3)), b_.getInt32(1)),
                                                           b_.getInt32(int32_t(r & 1))));
    return b_.CreateAdd(b_.CreateMul(row, b_.getInt32(int32_t(l.cols))), col);
  }
  unsigned run = k / l.vec, lane = k % l.vec;
  llvm::Value* first = l.vec == 1 ? tid_ : b_.CreateMul(tid_, b_.getInt32(l.vec));
  return b_.CreateAdd(first, b_.getInt32(run * l.vec * threads_ + lane));
}

llvm::Value* Lowerer::slot(const ir::Value* v, unsigned k) {
  const auto& s = values_.at(v);
  return s.size() == 1 ? s[0] : s[k];
}

Lowerer::Values Lowerer::allSlots(const ir::Value* v) {
  Values out;
  for (unsigned k = 0; k < layoutOf(v).slots(); ++k) out.push_back(slot(v, k));
  return out;
}

llvm::Value* Lowerer::inTile(const Layout& l, unsigned k) {
  if (l.full() || (l.vec == 1 && int64_t(k + 1) * threads_ <= l.numel)) return b_.getTrue();
  return b_.CreateICmpSLT(elementIndex(l, k), b_.getInt32(int32_t(l.numel)));
}

RunShape Lowerer::runShape(const ir::Value* v) const {
  if (v->type.isScalar()) return RunShape::Uniform;
  auto it = axes_.find(v);
  if (it == axes_.end()) return RunShape::Unknown;
  int64_t vec = layoutOf(v).vec;
  if (it->second.contiguity >= vec) return RunShape::Contiguous;  // first: with vec 1 both hold
  if (it->second.constancy >= vec) return RunShape::Uniform;
  if (it->second.monotoneGroup >= vec) return RunShape::Monotone;
  return RunShape::Unknown;
}

int64_t Lowerer::runDivisor(const ir::Value* v) const {
  auto it = axes_.find(v);
  return it == axes_.end() ? 1 : it->second.divisibility;
}

void Lowerer::barrier() { b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }

void Lowerer::lowerBlock(const ir::Block& block) {
  for (const auto& opPtr : block.ops)
    if (!lowered_.count(opPtr.get()) && !onlyRecomputed(*opPtr)) lowerWithLayouts(*opPtr);
}

void Lowerer::lowerOp(const ir::Op& op) {
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
      if (t.isFp8() && op.floatAttr("value"))  // the byte the interpreter stores (ir/Fp8.h)
        c = b_.getInt8(ir::fp8FromDouble(*op.floatAttr("value"), t.elem().kind));
      else if (const int64_t* i = op.intAttr("value"))
        c = t.isFloat() ? llvm::ConstantFP::get(ty, double(*i)) : llvm::ConstantInt::get(ty, uint64_t(*i), true);
      else if (const double* d = op.floatAttr("value"))
        c = t.isFloat() ? llvm::ConstantFP::get(ty, *d) : llvm::ConstantInt::get(ty, uint64_t(int64_t(*d)), true);
      else fail(op, "codegen: constant of this form is not supported yet");
      values_[op.result()] = {c};  // uniform: one value serves every slot
      uniform_.insert(op.result());
      return;
    }
    case Opcode::Splat:
      values_[op.result()] = {slot(op.operands[0], 0)};
      uniform_.insert(op.result());
      return;
    case Opcode::Arange: {
      int64_t start = *op.intAttr("start");
      Layout l = layoutOf(op.result());
      Values out;
      for (unsigned k = 0; k < l.slots(); ++k) out.push_back(b_.CreateAdd(elementIndex(l, k), b_.getInt32(int32_t(start))));
      values_[op.result()] = out;
      return;
    }
    case Opcode::Broadcast:
    case Opcode::ExpandDims:
    case Opcode::Reshape:
    case Opcode::Permute:
    case Opcode::Flip:
    case Opcode::Cat:
    case Opcode::Join:
    case Opcode::Split: return shapeOp(op);
    case Opcode::Load: return load(op);
    case Opcode::Store: return store(op);
    case Opcode::AtomicRmw:
    case Opcode::AtomicCas: return atomic(op);
    case Opcode::Reduce: return reduce(op);
    case Opcode::Scan: return scan(op);
    case Opcode::Map: return mapElementwise(op);
    case Opcode::Histogram: return histogram(op);
    case Opcode::InlineAsm: return inlineAsm(op);
    case Opcode::Dot: return dot(op);
    case Opcode::For: return lowerFor(op);
    case Opcode::If: return lowerIf(op);
    case Opcode::While: return lowerWhile(op);
    case Opcode::Assert: return lowerAssert(op);
    case Opcode::Print: return lowerPrint(op);
    case Opcode::Barrier:
      barrier();
      return;
    case Opcode::Yield:
    case Opcode::Condition: return;  // the owner of the region reads the operands
    case Opcode::Return:
      b_.CreateRetVoid();
      return;
    default:
      if (ir::hasTrait(op.code, ir::Elementwise)) return elementwise(op);
      fail(op, "codegen: '" + std::string(op.mnemonic()) + "' is not lowered to the GPU yet (docs/codegen.md lists what is)");
  }
}

Result<Lowered> lowerToLLVM(const ir::Module& m, const ir::Kernel& k, const Options& o, llvm::LLVMContext& ctx) {
  try {
    Lowerer lowerer(m, k, o, ctx);
    auto mod = lowerer.run();
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyModule(*mod, &os))
      return Diagnostic{"<codegen>", 0, 0, "internal error: the generated LLVM IR does not verify: " + os.str()};
    return Lowered{std::move(mod), lowerer.tensorMaps(), lowerer.deviceTensorMaps()};
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
}

}  // namespace tilevm::codegen

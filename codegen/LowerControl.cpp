// LowerControl.cpp - structured control flow, device asserts and prints. for, if and while
// become LLVM loops and branches whose carried values are phis, one per register slot of each
// value (a value held once is repeated into every slot). Every condition is a scalar, the same
// in all threads of a program, so barriers inside bodies stay uniform.
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

Lowerer::Values Lowerer::allSlotsOf(const ir::Op& user, const ir::Value* v, const ir::Value* like) {
  Layout want = layoutOf(like);
  Values held = inLayout(user, v, want);
  Values out;
  for (unsigned k = 0; k < want.slots(); ++k) out.push_back(held.size() == 1 ? held[0] : held[k]);
  return out;
}

std::vector<Lowerer::Values> Lowerer::yielded(const ir::Block& block, const std::vector<const ir::Value*>& targets, size_t first) {
  std::vector<Values> out;
  const ir::Op* t = block.ops.back().get();
  for (size_t i = first; i < t->operands.size(); ++i) out.push_back(allSlotsOf(*t, t->operands[i], targets[i - first]));
  return out;
}

void Lowerer::lowerRegionBody(const ir::Block& block) {
  ++depth_;
  lowerBlock(block);
  --depth_;
}

std::vector<std::vector<llvm::PHINode*>> Lowerer::phisFor(const std::vector<Values>& init, llvm::BasicBlock* from) {
  std::vector<std::vector<llvm::PHINode*>> phis;
  for (const Values& v : init) {
    std::vector<llvm::PHINode*> p;
    for (llvm::Value* x : v) {
      auto* phi = b_.CreatePHI(x->getType(), 2);
      phi->addIncoming(x, from);
      p.push_back(phi);
    }
    phis.push_back(p);
  }
  return phis;
}

namespace {

Lowerer::Values asValues(const std::vector<llvm::PHINode*>& p) { return Lowerer::Values(p.begin(), p.end()); }

}  // namespace

Lowerer::ForHeader Lowerer::forHeader(const ir::Op& op) {
  const ir::Block& body = op.regions[0]->block;
  auto wide = [&](const ir::Value* v) { return b_.CreateSExtOrTrunc(slot(v, 0), b_.getInt64Ty()); };
  ForHeader h;
  h.lb = wide(op.operands[0]);
  h.ub = wide(op.operands[1]);
  h.step = wide(op.operands[2]);
  for (size_t i = 3; i < op.operands.size(); ++i) h.init.push_back(allSlotsOf(op, op.operands[i], body.args[i - 2].get()));
  return h;
}

llvm::Value* Lowerer::iterationRuns(const ForHeader& h, llvm::Value* i) {
  llvm::Value* zero = b_.getInt64(0);
  return b_.CreateSelect(b_.CreateICmpSGT(h.step, zero), b_.CreateICmpSLT(i, h.ub),
                         b_.CreateAnd(b_.CreateICmpSLT(h.step, zero), b_.CreateICmpSGT(i, h.ub)));
}

// for iv in [lb, ub) by step: the counter runs in 64 bits (as the interpreter's) and the body
// sees it in the induction variable's type; a zero step runs no iteration.
void Lowerer::lowerFor(const ir::Op& op) {
  if (auto it = rings_.find(&op); it != rings_.end()) return lowerRingFor(op, it->second);
  const ir::Block& body = op.regions[0]->block;
  ForHeader h = forHeader(op);
  auto& [lb, ub, step, init] = h;
  auto runs = [&](llvm::Value* i) { return iterationRuns(h, i); };
  const ir::Value* ivArg = body.args[0].get();
  llvm::Type* ivTy = scalarType(ivArg->type.elem());
  // Software pipelining (Pipeline.cpp): the first iteration's loads before the loop.
  PipelinePlan plan = planPipeline(op);
  std::vector<Values> ahead;
  if (!plan.loads.empty()) {
    std::map<const ir::Value*, Values> first{{ivArg, {b_.CreateTrunc(lb, ivTy)}}};
    for (const ir::Value* a : plan.carried) first[a] = init[a->index - 1];
    ahead = prefetch(plan, first, runs(lb));
  }
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(ctx_, "for", fn_);
  auto* bodyBlock = llvm::BasicBlock::Create(ctx_, "for_body", fn_);
  auto* exit = llvm::BasicBlock::Create(ctx_, "for_exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  auto* iv = b_.CreatePHI(b_.getInt64Ty(), 2);
  iv->addIncoming(lb, pre);
  auto phis = phisFor(init, pre);
  auto aheadPhis = phisFor(ahead, pre);
  b_.CreateCondBr(runs(iv), bodyBlock, exit);
  b_.SetInsertPoint(bodyBlock);
  values_[ivArg] = {b_.CreateTrunc(iv, ivTy)};
  for (size_t i = 0; i < phis.size(); ++i) values_[body.args[i + 1].get()] = asValues(phis[i]);
  std::vector<Values> aheadNext;
  if (!plan.loads.empty()) {
    // The next iteration's loads first, then this iteration's body with the loads it was given.
    std::map<const ir::Value*, Values> next = nextCarried(plan, body);
    llvm::Value* ivNext = b_.CreateAdd(iv, step);
    next[ivArg] = {b_.CreateTrunc(ivNext, ivTy)};
    aheadNext = prefetch(plan, next, runs(ivNext));
    for (size_t i = 0; i < plan.loads.size(); ++i) {
      values_[plan.loads[i]->result()] = asValues(aheadPhis[i]);
      lowered_.insert(plan.loads[i]);
    }
  }
  lowerRegionBody(body);
  std::vector<const ir::Value*> carried;
  for (size_t i = 1; i < body.args.size(); ++i) carried.push_back(body.args[i].get());
  std::vector<Values> next = yielded(body, carried);
  llvm::BasicBlock* latch = b_.GetInsertBlock();
  iv->addIncoming(b_.CreateAdd(iv, step), latch);
  for (size_t i = 0; i < phis.size(); ++i)
    for (size_t k = 0; k < phis[i].size(); ++k) phis[i][k]->addIncoming(next[i][k], latch);
  for (size_t i = 0; i < aheadPhis.size(); ++i)
    for (size_t k = 0; k < aheadPhis[i].size(); ++k) aheadPhis[i][k]->addIncoming(aheadNext[i][k], latch);
  loopBackEdge(op, header);
  b_.SetInsertPoint(exit);
  for (size_t i = 0; i < phis.size(); ++i) values_[op.result(unsigned(i))] = asValues(phis[i]);
}

void Lowerer::loopBackEdge(const ir::Op& loop, llvm::BasicBlock* header) {
  llvm::BranchInst* br = b_.CreateBr(header);
  std::vector<llvm::Metadata*> hints;
  if (const int64_t* licm = loop.intAttr("disable_licm"); licm && *licm)
    hints.push_back(llvm::MDNode::get(ctx_, llvm::MDString::get(ctx_, "llvm.licm.disable")));
  if (const int64_t* n = loop.intAttr("unroll_factor")) {
    if (*n == 1) hints.push_back(llvm::MDNode::get(ctx_, llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")));
    else
      hints.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.count"),
                                                llvm::ConstantAsMetadata::get(b_.getInt32(uint32_t(*n)))}));
  }
  if (hints.empty()) return;
  // A loop ID: a distinct node whose first operand is itself, then the hints.
  hints.insert(hints.begin(), nullptr);
  llvm::MDNode* id = llvm::MDNode::getDistinct(ctx_, hints);
  id->replaceOperandWith(0, id);
  br->setMetadata(llvm::LLVMContext::MD_loop, id);
}

void Lowerer::lowerIf(const ir::Op& op) {
  auto* thenBlock = llvm::BasicBlock::Create(ctx_, "then", fn_);
  auto* elseBlock = llvm::BasicBlock::Create(ctx_, "else", fn_);
  auto* merge = llvm::BasicBlock::Create(ctx_, "endif", fn_);
  b_.CreateCondBr(slot(op.operands[0], 0), thenBlock, elseBlock);
  std::vector<Values> yields[2];
  llvm::BasicBlock* ends[2];
  llvm::BasicBlock* starts[2] = {thenBlock, elseBlock};
  for (int side = 0; side < 2; ++side) {
    b_.SetInsertPoint(starts[side]);
    const ir::Block& blk = op.regions[side]->block;
    lowerRegionBody(blk);
    std::vector<const ir::Value*> results;
    for (const auto& r : op.results) results.push_back(r.get());
    yields[side] = yielded(blk, results);
    ends[side] = b_.GetInsertBlock();
    b_.CreateBr(merge);
  }
  b_.SetInsertPoint(merge);
  for (size_t i = 0; i < op.results.size(); ++i) {
    Values out;
    for (size_t k = 0; k < yields[0][i].size(); ++k) {
      auto* phi = b_.CreatePHI(yields[0][i][k]->getType(), 2);
      phi->addIncoming(yields[0][i][k], ends[0]);
      phi->addIncoming(yields[1][i][k], ends[1]);
      out.push_back(phi);
    }
    values_[op.result(unsigned(i))] = out;
  }
}

// while: the before-region computes the condition and the values it passes on (to the
// after-region, or out as the results); the after-region yields the next inits.
void Lowerer::lowerWhile(const ir::Op& op) {
  const ir::Block& before = op.regions[0]->block;
  const ir::Block& after = op.regions[1]->block;
  std::vector<Values> init;
  for (size_t i = 0; i < op.operands.size(); ++i) init.push_back(allSlotsOf(op, op.operands[i], before.args[i].get()));
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(ctx_, "while", fn_);
  auto* afterBlock = llvm::BasicBlock::Create(ctx_, "while_body", fn_);
  auto* exit = llvm::BasicBlock::Create(ctx_, "while_exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  auto phis = phisFor(init, pre);
  for (size_t i = 0; i < phis.size(); ++i) values_[before.args[i].get()] = asValues(phis[i]);
  lowerRegionBody(before);
  const ir::Op* cond = before.ops.back().get();
  std::vector<Values> passed;
  for (size_t i = 1; i < cond->operands.size(); ++i) passed.push_back(allSlotsOf(*cond, cond->operands[i], after.args[i - 1].get()));
  b_.CreateCondBr(slot(cond->operands[0], 0), afterBlock, exit);
  b_.SetInsertPoint(afterBlock);
  for (size_t i = 0; i < passed.size(); ++i) values_[after.args[i].get()] = passed[i];
  lowerRegionBody(after);
  std::vector<const ir::Value*> carried;
  for (const auto& a : before.args) carried.push_back(a.get());
  std::vector<Values> next = yielded(after, carried);
  llvm::BasicBlock* latch = b_.GetInsertBlock();
  for (size_t i = 0; i < phis.size(); ++i)
    for (size_t k = 0; k < phis[i].size(); ++k) phis[i][k]->addIncoming(next[i][k], latch);
  loopBackEdge(op, header);
  b_.SetInsertPoint(exit);
  for (size_t i = 0; i < passed.size(); ++i) values_[op.result(unsigned(i))] = passed[i];
}

// device_print: each element printed by the thread holding it, through the CUDA device
// runtime's vprintf (as Triton does), in the interpreter's format: "pid (x, y, z) idx (i, j)
// PREFIX v1, v2" (floats with 9 significant digits, integers in decimal, pointers and --hex in
// hex). Lines come in the GPU's order, not the interpreter's. Scalars print once per program.
void Lowerer::lowerPrint(const ir::Op& op) {
  const std::string* prefixAttr = op.strAttr("prefix");
  std::string prefix = prefixAttr ? *prefixAttr : "";
  bool hex = op.intAttr("hex") && *op.intAttr("hex");
  std::string format = "pid (%d, %d, %d)";
  std::vector<llvm::Value*> args;
  for (auto id : {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                  llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z})
    args.push_back(b_.CreateIntrinsic(id, {}, {}));
  const ir::Value* shapeOf = nullptr;  // the first tile operand gives the index
  for (const ir::Value* v : op.operands)
    if (!v->type.isScalar() && !shapeOf) shapeOf = v;
  if (shapeOf) {
    format += " idx (";
    for (unsigned d = 0; d < shapeOf->type.rank(); ++d) format += d ? ", %d" : "%d";
    format += ")";
  }
  format += " " + prefix;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const ir::Type& t = op.operands[i]->type;
    format += i ? ", " : "";
    if (t.isFloat()) format += "%.9g";
    else if (hex || t.isPtr()) format += "0x%llx";
    else format += "%lld";
  }
  format += "\n";
  llvm::Constant* text = llvm::ConstantDataArray::getString(ctx_, format);
  auto* fmt = new llvm::GlobalVariable(*mod_, text->getType(), true, llvm::GlobalValue::PrivateLinkage, text, "print_format",
                                       nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  llvm::Type* generic = llvm::PointerType::get(ctx_, 0);
  llvm::FunctionCallee vprintf =
      mod_->getOrInsertFunction("vprintf", llvm::FunctionType::get(b_.getInt32Ty(), {generic, generic}, false));
  // The arguments buffer: each value at its natural alignment (ints as 32 or 64 bits, floats
  // as double, as C's varargs promote them), in a local array made once in the entry block.
  auto emitLine = [&](const std::vector<llvm::Value*>& values) {
    std::vector<llvm::Type*> fields;
    for (llvm::Value* v : values) fields.push_back(v->getType());
    auto* argsTy = llvm::StructType::get(ctx_, fields);
    llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst* buffer = entry.CreateAlloca(argsTy);
    for (size_t i = 0; i < values.size(); ++i) b_.CreateStore(values[i], b_.CreateStructGEP(argsTy, buffer, unsigned(i)));
    b_.CreateCall(vprintf, {b_.CreateAddrSpaceCast(fmt, generic), b_.CreateAddrSpaceCast(buffer, generic)});
  };
  auto widen = [&](llvm::Value* v, const ir::Type& t) -> llvm::Value* {
    if (t.isFloat()) return v->getType()->isDoubleTy() ? v : b_.CreateFPExt(v, b_.getDoubleTy());
    if (t.isPtr()) return b_.CreatePtrToInt(v, b_.getInt64Ty());
    bool isSigned = t.elem().kind != ir::ScalarKind::I1;
    return isSigned ? b_.CreateSExtOrTrunc(v, b_.getInt64Ty()) : b_.CreateZExt(v, b_.getInt64Ty());
  };
  if (!shapeOf) {  // scalars: once per program, by thread 0
    auto* doPrint = llvm::BasicBlock::Create(ctx_, "print", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "printed", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(tid_, b_.getInt32(0)), doPrint, done);
    b_.SetInsertPoint(doPrint);
    std::vector<llvm::Value*> values = args;
    for (const ir::Value* v : op.operands) values.push_back(widen(slot(v, 0), v->type));
    emitLine(values);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    return;
  }
  Layout tl = layoutOf(shapeOf);
  std::vector<int64_t> strides(shapeOf->type.rank(), 1);
  for (size_t d = strides.size(); d-- > 1;) strides[d - 1] = strides[d] * shapeOf->type.dim(unsigned(d));
  for (unsigned k = 0; k < tl.slots(); ++k) {
    auto* doPrint = llvm::BasicBlock::Create(ctx_, "print", fn_);
    auto* done = llvm::BasicBlock::Create(ctx_, "printed", fn_);
    b_.CreateCondBr(inTile(tl, k), doPrint, done);
    b_.SetInsertPoint(doPrint);
    std::vector<llvm::Value*> values = args;
    llvm::Value* e = elementIndex(tl, k);
    for (size_t d = 0; d < strides.size(); ++d)
      values.push_back(b_.CreateURem(b_.CreateUDiv(e, b_.getInt32(int32_t(strides[d]))), b_.getInt32(int32_t(shapeOf->type.dim(unsigned(d))))));
    for (const ir::Value* v : op.operands) values.push_back(widen(slot(v, k), v->type));
    emitLine(values);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
}

// device_assert: a lane whose element is false calls __assertfail (the CUDA device runtime's
// system call, as Triton does), which prints the message with the kernel's source position and
// stops the kernel; the launch then fails with the driver's assert error.
void Lowerer::lowerAssert(const ir::Op& op) {
  const ir::Value* c = op.operands[0];
  Layout l = layoutOf(c);
  if (op.strAttr("assume")) {  // tl.assume: a hint, never a check on the GPU
    llvm::Function* assume = llvm::Intrinsic::getDeclaration(mod_, llvm::Intrinsic::assume);
    for (unsigned k = 0; k < l.slots(); ++k) b_.CreateCall(assume, {b_.CreateOr(b_.CreateNot(inTile(l, k)), slot(c, k))});
    return;
  }
  llvm::Value* failed = b_.getFalse();
  for (unsigned k = 0; k < l.slots(); ++k)
    failed = b_.CreateOr(failed, b_.CreateAnd(inTile(l, k), b_.CreateNot(slot(c, k))));
  auto* fire = llvm::BasicBlock::Create(ctx_, "assert_failed", fn_);
  auto* ok = llvm::BasicBlock::Create(ctx_, "assert_ok", fn_);
  b_.CreateCondBr(failed, fire, ok);
  b_.SetInsertPoint(fire);
  auto text = [&](const std::string& s) {
    llvm::Constant* data = llvm::ConstantDataArray::getString(ctx_, s);
    auto* g = new llvm::GlobalVariable(*mod_, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data, "assert_text",
                                       nullptr, llvm::GlobalValue::NotThreadLocal, 1);
    return b_.CreateAddrSpaceCast(g, llvm::PointerType::get(ctx_, 0));
  };
  const std::string* msg = op.strAttr("message");
  std::string file = op.loc.file < m_.files.size() ? m_.files[op.loc.file] : "";
  llvm::Type* generic = llvm::PointerType::get(ctx_, 0);
  auto* fnTy = llvm::FunctionType::get(b_.getVoidTy(), {generic, generic, b_.getInt32Ty(), generic, b_.getInt64Ty()}, false);
  llvm::FunctionCallee assertFail = mod_->getOrInsertFunction("__assertfail", fnTy);
  b_.CreateCall(assertFail, {text(msg ? *msg : "device_assert"), text(file), b_.getInt32(int32_t(op.loc.line)), text(k_.name), b_.getInt64(1)});
  b_.CreateBr(ok);
  b_.SetInsertPoint(ok);
}

}  // namespace tilevm::codegen

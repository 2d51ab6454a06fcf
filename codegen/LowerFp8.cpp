// LowerFp8.cpp - conversions between the fp8 kinds float8e5 (e5m2) and float8e4nv (e4m3fn) and
// the wider floats with the cvt instructions of sm_89 and newer: cvt.rn.f16x2.{e5m2,e4m3}x2
// widens exactly, cvt.rn.satfinite.{e5m2,e4m3}x2.{f32,f16x2} narrows to nearest even with
// saturation (the interpreter's ir/Fp8.h). Each cvt converts a pair; one lane of it is used.
// A tensor-core dot of fp8 operands writes them to shared memory as f16 (exact) and runs the
// f16 mma.sync: the products are exact either way, the sums f32.
// The other fp8 kinds have no GPU lowering: a located error names them.
#include <llvm/IR/InlineAsm.h>

#include "codegen/Lowerer.h"
#include "codegen/Targets.h"

namespace tilevm::codegen {

using ir::ScalarKind;

namespace {
const char* ptxName(ScalarKind k) { return k == ScalarKind::F8E5 ? "e5m2" : "e4m3"; }
}  // namespace

// The fp8 kinds and targets the cvt instructions exist for; a located error otherwise.
void Lowerer::requireFp8Cvt(const ir::Op& op, ScalarKind k) {
  if (k != ScalarKind::F8E5 && k != ScalarKind::F8E4NV)
    fail(op, "codegen: " + std::string(ir::scalarName(k)) +
                 " has no GPU lowering (f8e5 and f8e4nv convert on sm_89 and newer); the interpreter runs it");
  const Target* t = findTarget(o_.arch);
  if (t && t->capability < 89)
    fail(op, "codegen: converting " + std::string(ir::scalarName(k)) + " needs sm_89 or newer (the fp8 cvt instructions), not " +
                 o_.arch);
}

llvm::Value* Lowerer::fp8ToHalf(const ir::Op& op, llvm::Value* byte, ScalarKind from) {
  requireFp8Cvt(op, from);
  auto* fnTy = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getInt16Ty()}, false);
  std::string text = std::string("cvt.rn.f16x2.") + ptxName(from) + "x2 $0, $1;";
  llvm::Value* pair = b_.CreateCall(llvm::InlineAsm::get(fnTy, text, "=r,h", false), {b_.CreateZExt(byte, b_.getInt16Ty())});
  return b_.CreateBitCast(b_.CreateTrunc(pair, b_.getInt16Ty()), b_.getHalfTy());  // the low lane
}

llvm::Value* Lowerer::fp8Ext(const ir::Op& op, llvm::Value* byte, ScalarKind from, llvm::Type* to) {
  llvm::Value* h = fp8ToHalf(op, byte, from);
  if (to->isHalfTy()) return h;
  llvm::Value* f = b_.CreateFPExt(h, b_.getFloatTy());
  if (to->isBFloatTy()) return b_.CreateFPTrunc(f, to);  // exact: every fp8 value is a bf16
  return to->isFloatTy() ? f : b_.CreateFPExt(f, to);
}

llvm::Value* Lowerer::fp8Trunc(const ir::Op& op, llvm::Value* x, ScalarKind to) {
  requireFp8Cvt(op, to);
  llvm::Type* src = x->getType();
  if (src->isDoubleTy())
    fail(op, "codegen: truncf from f64 to " + std::string(ir::scalarName(to)) +
                 " is not lowered to the GPU (no single-rounding cvt; convert to f32 first)");
  if (const std::string* r = op.strAttr("rounding"); r && *r == "rtz") {  // e5m2 (the verifier's rule)
    // The top byte of f16 rounded toward zero (cvt.rz; an f16 operand is that already).
    if (src->isBFloatTy()) x = b_.CreateFPExt(x, b_.getFloatTy());  // exact
    llvm::Value* half = src->isHalfTy() ? x : truncTowardZero(op, x, b_.getHalfTy());
    return b_.CreateTrunc(b_.CreateLShr(b_.CreateBitCast(half, b_.getInt16Ty()), 8), b_.getInt8Ty());
  }
  llvm::Value* pair;
  if (src->isHalfTy()) {
    auto* fnTy = llvm::FunctionType::get(b_.getInt16Ty(), {b_.getInt32Ty()}, false);
    std::string text = std::string("cvt.rn.satfinite.") + ptxName(to) + "x2.f16x2 $0, $1;";
    llvm::Value* word = b_.CreateZExt(b_.CreateBitCast(x, b_.getInt16Ty()), b_.getInt32Ty());
    pair = b_.CreateCall(llvm::InlineAsm::get(fnTy, text, "=h,r", false), {word});
  } else {
    if (src->isBFloatTy()) x = b_.CreateFPExt(x, b_.getFloatTy());  // exact, then one rounding
    auto* fnTy = llvm::FunctionType::get(b_.getInt16Ty(), {b_.getFloatTy(), b_.getFloatTy()}, false);
    // d, a, b: a goes to the upper byte, b (the value) to the lower one.
    std::string text = std::string("cvt.rn.satfinite.") + ptxName(to) + "x2.f32 $0, $1, $2;";
    pair = b_.CreateCall(llvm::InlineAsm::get(fnTy, text, "=h,f,f", false), {llvm::ConstantFP::get(b_.getFloatTy(), 0.0), x});
  }
  return b_.CreateTrunc(pair, b_.getInt8Ty());
}

ir::Type Lowerer::dotSharedType(const ir::Op& dot, unsigned i) const {
  const ir::Type& t = dot.operands[i]->type;
  return t.isFp8() && dotKind(dot) == LayoutKind::Mma ? t.withElem(ScalarKind::F16) : t;
}

}  // namespace tilevm::codegen

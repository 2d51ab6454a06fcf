// LowerElementwise.cpp - ops with the Elementwise trait: integer and float arithmetic with the
// IR's defined results at every input (division by zero, shifts past the width, float-to-int
// saturation, as the interpreter computes them), comparisons, casts, pointers, and math (exp and
// exp2 inline, the rest from NVIDIA's libdevice; f16/bf16 math in f32), and map_elementwise's
// scalar region per group of elements. Accuracy of each choice: docs/codegen.md.
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>
#include <cmath>

#include "codegen/Lowerer.h"

namespace tilevm::codegen {

using ir::Opcode;
using ir::ScalarKind;

void Lowerer::elementwise(const ir::Op& op) {
  bool once = true, uniform = true;
  for (const ir::Value* v : op.operands) {
    once = once && values_.at(v).size() == 1;
    uniform = uniform && isUniform(v);
  }
  if (uniform) uniform_.insert(op.result());
  Layout l = layoutOf(op.result());
  unsigned n = once ? 1 : l.slots();
  // Elements the axis analysis proves equal within an aligned group of a run are computed once
  // per group (Triton's deduplication by constancy): `cols < N` with N divisible by 16 is one
  // compare per run, not one per element kept live in a predicate register.
  unsigned group = 1;
  if (auto it = axes_.find(op.result()); !once && l.kind == LayoutKind::Blocked && !l.scalar && it != axes_.end())
    group = unsigned(std::min<int64_t>(it->second.constancy, l.vec));
  Values out;
  for (unsigned k = 0; k < n; ++k) {
    if (unsigned lead = k - (k % l.vec) % group; lead != k) {
      out.push_back(out[lead]);
      continue;
    }
    Values args;
    for (const ir::Value* v : op.operands) args.push_back(slot(v, k));
    out.push_back(elementOp(op, args));
  }
  values_[op.result()] = out;
}

llvm::Value* Lowerer::elementOp(const ir::Op& op, std::span<llvm::Value* const> a) {
  llvm::Type* ty = scalarType(op.result()->type.elem());
  auto bin = [&](llvm::Instruction::BinaryOps code) { return b_.CreateBinOp(code, a[0], a[1]); };
  auto intr2 = [&](llvm::Intrinsic::ID id) { return b_.CreateBinaryIntrinsic(id, a[0], a[1]); };
  switch (op.code) {
    case Opcode::AddI: return bin(llvm::Instruction::Add);
    case Opcode::SubI: return bin(llvm::Instruction::Sub);
    case Opcode::MulI: return bin(llvm::Instruction::Mul);
    case Opcode::AndI: return bin(llvm::Instruction::And);
    case Opcode::OrI: return bin(llvm::Instruction::Or);
    case Opcode::XorI: return bin(llvm::Instruction::Xor);
    case Opcode::DivSI:
    case Opcode::DivUI:
    case Opcode::RemSI:
    case Opcode::RemUI: return intDivRem(op.code, a[0], a[1]);
    case Opcode::ShlI:
    case Opcode::ShrSI:
    case Opcode::ShrUI: return shift(op.code, a[0], a[1]);
    case Opcode::MinSI: return intr2(llvm::Intrinsic::smin);
    case Opcode::MaxSI: return intr2(llvm::Intrinsic::smax);
    case Opcode::MinUI: return intr2(llvm::Intrinsic::umin);
    case Opcode::MaxUI: return intr2(llvm::Intrinsic::umax);
    case Opcode::MulHiSI:
    case Opcode::MulHiUI: {
      unsigned bits = ty->getIntegerBitWidth();
      llvm::Type* wide = b_.getIntNTy(bits * 2);
      bool s = op.code == Opcode::MulHiSI;
      llvm::Value* x = s ? b_.CreateSExt(a[0], wide) : b_.CreateZExt(a[0], wide);
      llvm::Value* y = s ? b_.CreateSExt(a[1], wide) : b_.CreateZExt(a[1], wide);
      return b_.CreateTrunc(b_.CreateLShr(b_.CreateMul(x, y), bits), ty);
    }
    case Opcode::AbsI:  // wrapping: abs(INT_MIN) = INT_MIN
      return b_.CreateSelect(b_.CreateICmpSLT(a[0], llvm::Constant::getNullValue(ty)), b_.CreateNeg(a[0]), a[0]);
    case Opcode::Clz: return b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a[0], b_.getFalse());  // the width for 0
    case Opcode::Popc: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, a[0]);
    case Opcode::Brev: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, a[0]);
    case Opcode::CmpI: {
      static const std::map<std::string, llvm::CmpInst::Predicate> preds = {
          {"eq", llvm::CmpInst::ICMP_EQ},   {"ne", llvm::CmpInst::ICMP_NE},   {"slt", llvm::CmpInst::ICMP_SLT},
          {"sle", llvm::CmpInst::ICMP_SLE}, {"sgt", llvm::CmpInst::ICMP_SGT}, {"sge", llvm::CmpInst::ICMP_SGE},
          {"ult", llvm::CmpInst::ICMP_ULT}, {"ule", llvm::CmpInst::ICMP_ULE}, {"ugt", llvm::CmpInst::ICMP_UGT},
          {"uge", llvm::CmpInst::ICMP_UGE}};
      return b_.CreateICmp(preds.at(*op.strAttr("pred")), a[0], a[1]);
    }
    case Opcode::CmpF: {
      static const std::map<std::string, llvm::CmpInst::Predicate> preds = {
          {"oeq", llvm::CmpInst::FCMP_OEQ}, {"one", llvm::CmpInst::FCMP_ONE}, {"olt", llvm::CmpInst::FCMP_OLT},
          {"ole", llvm::CmpInst::FCMP_OLE}, {"ogt", llvm::CmpInst::FCMP_OGT}, {"oge", llvm::CmpInst::FCMP_OGE},
          {"ueq", llvm::CmpInst::FCMP_UEQ}, {"une", llvm::CmpInst::FCMP_UNE}, {"ult", llvm::CmpInst::FCMP_ULT},
          {"ule", llvm::CmpInst::FCMP_ULE}, {"ugt", llvm::CmpInst::FCMP_UGT}, {"uge", llvm::CmpInst::FCMP_UGE},
          {"ord", llvm::CmpInst::FCMP_ORD}, {"uno", llvm::CmpInst::FCMP_UNO}};
      return b_.CreateFCmp(preds.at(*op.strAttr("pred")), a[0], a[1]);
    }
    // f16/bf16 +, -, *, / round once to the narrow type: the same result as computing in f32
    // and rounding (f32 holds more than twice their significand bits).
    case Opcode::AddF: return bin(llvm::Instruction::FAdd);
    case Opcode::SubF: return bin(llvm::Instruction::FSub);
    case Opcode::MulF: return bin(llvm::Instruction::FMul);
    // f32 `/` is Triton's div.full.f32 (within 2 ulp, full range: a few instructions where the
    // correctly rounded division is a dozen and a slow path); tl.math.div_rn is `.rn`.
    case Opcode::DivF:
      if (ty->isFloatTy()) {
        auto* fnTy = llvm::FunctionType::get(ty, {ty, ty}, false);
        return b_.CreateCall(llvm::InlineAsm::get(fnTy, "div.full.f32 $0, $1, $2;", "=f,f,f", /*hasSideEffects=*/false), {a[0], a[1]});
      }
      return bin(llvm::Instruction::FDiv);
    case Opcode::PreciseDiv: return bin(llvm::Instruction::FDiv);
    case Opcode::NegF: return b_.CreateFNeg(a[0]);
    // maximum/minimum propagate NaN; maxnum/minnum return the other operand (IEEE 754-2008).
    case Opcode::MaximumF: return intr2(llvm::Intrinsic::maximum);
    case Opcode::MinimumF: return intr2(llvm::Intrinsic::minimum);
    case Opcode::MaxNumF: return intr2(llvm::Intrinsic::maxnum);
    case Opcode::MinNumF: return intr2(llvm::Intrinsic::minnum);
    case Opcode::Fma: return b_.CreateIntrinsic(llvm::Intrinsic::fma, {ty}, {a[0], a[1], a[2]});
    case Opcode::Select: return b_.CreateSelect(a[0], a[1], a[2]);
    case Opcode::AddPtr: {
      llvm::Type* elem = scalarType(ir::ElemType{op.result()->type.elem().pointee, ScalarKind::I32});
      llvm::Value* off = a[1];
      if (off->getType()->getIntegerBitWidth() < 64) off = b_.CreateSExt(off, b_.getInt64Ty());
      return b_.CreateGEP(elem, a[0], off);
    }
    case Opcode::PtrToInt: return b_.CreatePtrToInt(a[0], ty);
    case Opcode::IntToPtr: return b_.CreateIntToPtr(a[0], ty);
    case Opcode::Bitcast: return b_.CreateBitCast(a[0], ty);
    case Opcode::ExtF:
      if (op.operands[0]->type.isFp8()) return fp8Ext(op, a[0], op.operands[0]->type.elem().kind, ty);
      return b_.CreateFPExt(a[0], ty);
    case Opcode::TruncF: {
      if (op.result()->type.isFp8()) return fp8Trunc(op, a[0], op.result()->type.elem().kind);
      const std::string* r = op.strAttr("rounding");
      if (r && *r == "rtz") return truncTowardZero(op, a[0], ty);
      return b_.CreateFPTrunc(a[0], ty);
    }
    case Opcode::ExtSI: return b_.CreateSExt(a[0], ty);
    case Opcode::ExtUI: return b_.CreateZExt(a[0], ty);
    case Opcode::TruncI: return b_.CreateTrunc(a[0], ty);
    case Opcode::SIToFP: return b_.CreateSIToFP(a[0], ty);
    case Opcode::UIToFP: return b_.CreateUIToFP(a[0], ty);
    case Opcode::FPToSI:
    case Opcode::FPToUI: return floatToInt(op, a[0]);
    default: return mathOp(op, a);
  }
}

// Division and remainder with the IR's results where C leaves them undefined: x / 0 = -1
// (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN, x % -1 = 0. The divisor is replaced by 1
// before dividing, so no lane traps, and the defined value is selected afterwards.
llvm::Value* Lowerer::intDivRem(Opcode code, llvm::Value* x, llvm::Value* y) {
  llvm::Type* ty = x->getType();
  llvm::Value* zero = llvm::Constant::getNullValue(ty);
  llvm::Value* one = llvm::ConstantInt::get(ty, 1);
  llvm::Value* allOnes = llvm::Constant::getAllOnesValue(ty);
  llvm::Value* byZero = b_.CreateICmpEQ(y, zero);
  bool isSigned = code == Opcode::DivSI || code == Opcode::RemSI;
  llvm::Value* byMinusOne = isSigned ? b_.CreateICmpEQ(y, allOnes) : b_.getFalse();
  llvm::Value* safe = b_.CreateSelect(b_.CreateOr(byZero, byMinusOne), one, y);
  switch (code) {
    case Opcode::DivSI:  // x / -1 = -x (wrapping: INT_MIN stays)
      return b_.CreateSelect(byZero, allOnes, b_.CreateSelect(byMinusOne, b_.CreateNeg(x), b_.CreateSDiv(x, safe)));
    case Opcode::DivUI: return b_.CreateSelect(byZero, allOnes, b_.CreateUDiv(x, safe));
    case Opcode::RemSI: return b_.CreateSelect(byZero, x, b_.CreateSelect(byMinusOne, zero, b_.CreateSRem(x, safe)));
    default: return b_.CreateSelect(byZero, x, b_.CreateURem(x, safe));
  }
}

// Shifts by the width or more give 0 (or the sign for an arithmetic right shift), as the IR
// defines them; LLVM would give poison.
llvm::Value* Lowerer::shift(Opcode code, llvm::Value* x, llvm::Value* y) {
  llvm::Type* ty = x->getType();
  unsigned bits = ty->getIntegerBitWidth();
  llvm::Value* width = llvm::ConstantInt::get(ty, bits);
  llvm::Value* past = b_.CreateICmpUGE(y, width);
  llvm::Value* safe = b_.CreateSelect(past, llvm::Constant::getNullValue(ty), y);
  switch (code) {
    case Opcode::ShlI: return b_.CreateSelect(past, llvm::Constant::getNullValue(ty), b_.CreateShl(x, safe));
    case Opcode::ShrUI: return b_.CreateSelect(past, llvm::Constant::getNullValue(ty), b_.CreateLShr(x, safe));
    default: return b_.CreateAShr(x, b_.CreateSelect(past, llvm::ConstantInt::get(ty, bits - 1), y));
  }
}

// Toward zero, saturating at the type's range, NaN to 0: LLVM's fpto[su]i.sat is exactly the
// interpreter's rule (and PTX cvt.rzi's). To i1: whether the value is nonzero.
llvm::Value* Lowerer::truncTowardZero(const ir::Op& op, llvm::Value* x, llvm::Type* to) {
  llvm::Type* from = x->getType();
  // f64 to bf16 has no cvt: through f32, toward zero twice, which is toward zero once.
  if (from->isDoubleTy() && to->isBFloatTy()) return truncTowardZero(op, truncTowardZero(op, x, b_.getFloatTy()), to);
  auto name = [](llvm::Type* t) { return t->isDoubleTy() ? "f64" : t->isFloatTy() ? "f32" : t->isHalfTy() ? "f16" : "bf16"; };
  const bool supported = (from->isFloatTy() && (to->isHalfTy() || to->isBFloatTy())) ||
                         (from->isDoubleTy() && (to->isFloatTy() || to->isHalfTy()));
  if (!supported)
    fail(op, std::string("codegen: truncf ") + name(from) + " to " + name(to) + " with rounding rtz is not lowered to the GPU");
  const bool half = to->isHalfTy() || to->isBFloatTy();  // 16-bit results live in .b16 registers
  auto* fnTy = llvm::FunctionType::get(half ? b_.getInt16Ty() : to, {from}, false);
  std::string text = std::string("cvt.rz.") + name(to) + "." + name(from) + " $0, $1;";
  std::string constraints = std::string(half ? "=h," : "=f,") + (from->isDoubleTy() ? "d" : "f");
  llvm::Value* r = b_.CreateCall(llvm::InlineAsm::get(fnTy, text, constraints, false), {x});
  return half ? b_.CreateBitCast(r, to) : r;
}

llvm::Value* Lowerer::floatToInt(const ir::Op& op, llvm::Value* x) {
  llvm::Type* ty = scalarType(op.result()->type.elem());
  if (ty->isIntegerTy(1)) return b_.CreateFCmpUNE(x, llvm::ConstantFP::get(x->getType(), 0.0));
  auto id = op.code == Opcode::FPToSI ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
  return b_.CreateIntrinsic(id, {ty, x->getType()}, {x});
}

// Math: sqrt correctly rounded (sqrt.rn, as the interpreter); rsqrt as 1/sqrt, both correctly
// rounded; exp and exp2 inline (ex2.approx, exp2's flushing subnormals); trunc, round, rint and
// copysign exact; log, log2, sin, cos, erf, tanh, pow, fmod and the other transcendentals from
// libdevice (within 4 ulp of the correctly rounded result; docs/codegen.md). f16/bf16 inputs are
// computed in f32 and rounded once, as the interpreter does.
llvm::Value* Lowerer::mathOp(const ir::Op& op, std::span<llvm::Value* const> args) {
  llvm::Type* ty = scalarType(op.result()->type.elem());
  bool narrow = ty->isHalfTy() || ty->isBFloatTy();
  Values a(args.begin(), args.end());
  if (narrow)
    for (auto& v : a) v = b_.CreateFPExt(v, b_.getFloatTy());
  llvm::Type* cty = narrow ? b_.getFloatTy() : ty;
  bool f64 = cty->isDoubleTy();
  auto lib = [&](const char* f32name, const char* f64name) { return libdevice(f64 ? f64name : f32name, cty, a); };
  llvm::Value* r = nullptr;
  switch (op.code) {
    case Opcode::Sqrt:
    case Opcode::PreciseSqrt: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a[0]); break;
    case Opcode::Rsqrt:
      r = b_.CreateFDiv(llvm::ConstantFP::get(cty, 1.0), b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a[0]));
      break;
    case Opcode::AbsF: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a[0]); break;
    case Opcode::Floor: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, a[0]); break;
    case Opcode::Ceil: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, a[0]); break;
    case Opcode::Exp: r = f64 ? lib("", "__nv_exp") : expF32(a[0]); break;
    case Opcode::Exp2:  // ex2.approx.ftz: Triton's tl.exp2 (libdevice's exp2f under its ftz reflect),
      // within 2 ulp, subnormal results flushed to +0 as the interpreter does (exp2ToFloatFtz)
      r = f64 ? lib("", "__nv_exp2") : b_.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz_f, {}, {a[0]});
      break;
    case Opcode::Log: r = lib("__nv_logf", "__nv_log"); break;
    case Opcode::Log2: r = lib("__nv_log2f", "__nv_log2"); break;
    case Opcode::Sin: r = lib("__nv_sinf", "__nv_sin"); break;
    case Opcode::Cos: r = lib("__nv_cosf", "__nv_cos"); break;
    case Opcode::Erf: r = lib("__nv_erff", "__nv_erf"); break;
    case Opcode::Tanh: r = lib("__nv_tanhf", "__nv_tanh"); break;
    case Opcode::Pow: r = lib("__nv_powf", "__nv_pow"); break;
    case Opcode::Trunc: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, a[0]); break;
    case Opcode::Round: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::round, a[0]); break;
    case Opcode::Rint: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::nearbyint, a[0]); break;
    case Opcode::CopySign: r = b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, a[0], a[1]); break;
    case Opcode::Log10: r = lib("__nv_log10f", "__nv_log10"); break;
    case Opcode::Log1p: r = lib("__nv_log1pf", "__nv_log1p"); break;
    case Opcode::Expm1: r = lib("__nv_expm1f", "__nv_expm1"); break;
    case Opcode::Sinh: r = lib("__nv_sinhf", "__nv_sinh"); break;
    case Opcode::Cosh: r = lib("__nv_coshf", "__nv_cosh"); break;
    case Opcode::Tan: r = lib("__nv_tanf", "__nv_tan"); break;
    case Opcode::Asin: r = lib("__nv_asinf", "__nv_asin"); break;
    case Opcode::Acos: r = lib("__nv_acosf", "__nv_acos"); break;
    case Opcode::Atan: r = lib("__nv_atanf", "__nv_atan"); break;
    case Opcode::Asinh: r = lib("__nv_asinhf", "__nv_asinh"); break;
    case Opcode::Acosh: r = lib("__nv_acoshf", "__nv_acosh"); break;
    case Opcode::Atanh: r = lib("__nv_atanhf", "__nv_atanh"); break;
    case Opcode::Erfc: r = lib("__nv_erfcf", "__nv_erfc"); break;
    case Opcode::Cbrt: r = lib("__nv_cbrtf", "__nv_cbrt"); break;
    case Opcode::Exp10: r = lib("__nv_exp10f", "__nv_exp10"); break;
    case Opcode::Erfinv: r = lib("__nv_erfinvf", "__nv_erfinv"); break;
    case Opcode::Erfcinv: r = lib("__nv_erfcinvf", "__nv_erfcinv"); break;
    case Opcode::Normcdf: r = lib("__nv_normcdff", "__nv_normcdf"); break;
    case Opcode::Normcdfinv: r = lib("__nv_normcdfinvf", "__nv_normcdfinv"); break;
    case Opcode::Atan2: r = lib("__nv_atan2f", "__nv_atan2"); break;
    case Opcode::Hypot: r = lib("__nv_hypotf", "__nv_hypot"); break;
    case Opcode::RemF: r = lib("__nv_fmodf", "__nv_fmod"); break;
    default: fail(op, "codegen: '" + std::string(op.mnemonic()) + "' is not lowered to the GPU yet (docs/codegen.md lists what is)");
  }
  return narrow ? b_.CreateFPTrunc(r, ty) : r;
}

// A call of a libdevice function (linked into the module after lowering, EmitPtx.cpp).
llvm::Value* Lowerer::libdevice(const char* name, llvm::Type* ty, std::span<llvm::Value* const> args) {
  std::vector<llvm::Type*> params(args.size(), ty);
  llvm::FunctionCallee f = mod_->getOrInsertFunction(name, llvm::FunctionType::get(ty, params, false));
  return b_.CreateCall(f, std::vector<llvm::Value*>(args.begin(), args.end()));
}

// exp(x) for f32 as Triton computes it: ex2.approx.f32(x * log2 e), the product rounded to f32
// (two instructions where a range-reduced exp takes about fifteen: softmax-like kernels are
// bound by them). Its error grows with |x|: the product's rounding is amplified by |x log2 e|,
// up to 63 ulp near x = -87 (measured over 3 million points), plus ex2.approx's 2; ops.def's
// `exp` row grants diff that. The non-ftz ex2, as Triton's: subnormal results are kept.
llvm::Value* Lowerer::expF32(llvm::Value* x) {
  llvm::Value* p = b_.CreateFMul(x, llvm::ConstantFP::get(b_.getFloatTy(), 1.4426950408889634));
  return b_.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_f, {}, {p});
}

// map_elementwise and inline_asm: `group(s)` lowered once per group of `pack` slots of the
// blocked layout, starting at slot s (pack consecutive elements, as the interpreter groups them:
// the run length must be a multiple of pack); it returns the group's results, result-major.
// Where the layout pads the tile, a group past its end is skipped, so its loads, asserts and PTX
// never see elements that do not exist.
void Lowerer::lowerGroups(const ir::Op& op, const char* what, const char* label,
                          const std::function<std::vector<llvm::Value*>(unsigned)>& group) {
  const unsigned pack = unsigned(*op.intAttr("pack"));
  const Layout l = layoutOf(op.result());
  if (pack > 1 && (l.kind != LayoutKind::Blocked || l.scalar || l.vec % pack != 0))
    fail(op, std::string("codegen: ") + what + " with pack " + std::to_string(pack) + " needs runs of a multiple of " +
                 std::to_string(pack) + " consecutive elements per thread; this kernel's layout of " + op.result()->type.str() +
                 " has runs of " + std::to_string(l.scalar ? 1 : l.vec));
  const size_t results = op.results.size();
  std::vector<Values> outs(results);
  for (unsigned s = 0; s < l.slots(); s += pack) {
    llvm::BasicBlock *guard = nullptr, *merge = nullptr;
    if (!l.full()) {
      guard = b_.GetInsertBlock();
      auto* body = llvm::BasicBlock::Create(ctx_, std::string(label) + "_group", fn_);
      merge = llvm::BasicBlock::Create(ctx_, std::string(label) + "_next", fn_);
      b_.CreateCondBr(b_.CreateICmpSLT(elementIndex(l, s), b_.getInt32(int32_t(l.numel))), body, merge);
      b_.SetInsertPoint(body);
    }
    std::vector<llvm::Value*> values = group(s);
    if (merge) {
      llvm::BasicBlock* end = b_.GetInsertBlock();
      b_.CreateBr(merge);
      b_.SetInsertPoint(merge);
      for (llvm::Value*& v : values) {
        auto* phi = b_.CreatePHI(v->getType(), 2);
        phi->addIncoming(v, end);
        phi->addIncoming(llvm::UndefValue::get(v->getType()), guard);
        v = phi;
      }
    }
    for (size_t r = 0; r < results; ++r)
      for (unsigned j = 0; j < pack; ++j) outs[r].push_back(values[r * pack + j]);
  }
  for (size_t r = 0; r < results; ++r) values_[op.result(unsigned(r))] = outs[r];
}

// map_elementwise: the scalar region, its arguments the group's slots of each operand.
void Lowerer::mapElementwise(const ir::Op& op) {
  const unsigned pack = unsigned(*op.intAttr("pack"));
  const ir::Block& blk = op.regions[0]->block;
  const ir::Op& yield = *blk.ops.back();
  lowerGroups(op, "map_elementwise", "map", [&](unsigned s) {
    for (size_t k = 0; k < op.operands.size(); ++k)
      for (unsigned j = 0; j < pack; ++j) values_[blk.args[k * pack + j].get()] = {slot(op.operands[k], s + j)};
    lowerRegionBody(blk);
    std::vector<llvm::Value*> group;
    for (const ir::Value* v : yield.operands) group.push_back(slot(v, 0));
    return group;
  });
}

}  // namespace tilevm::codegen

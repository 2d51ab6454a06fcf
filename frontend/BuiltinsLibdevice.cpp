// BuiltinsLibdevice.cpp - libdevice's functions beyond tl.math's (Triton's
// triton.language.extra.libdevice, reached by the canonical "tl.NAME"): each an op of its own
// where the engines compute it (ops.def: trunc .. normcdfinv, clz, popc, brev), the rest written
// with existing ops (predicates as int32 compares, llrint and llround as rounding then a cast,
// saturatef as a clamp, the fast_* and *_rn forms as the ops they approximate or are, the
// reciprocals, fdim, mulhi, mul24, hadd, rhadd and ffs from their definitions). Dtypes as
// Triton's dispatch tables: fp32 and fp64 for the float functions, int32 and int64 for the bit
// functions.
#include <limits>

#include "frontend/BuiltinTable.h"
#include "frontend/Builtins.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// x as an fp32 or fp64 tensor (Triton's words for any other dtype).
CV floatArg(Lowerer& L, const Args& a, size_t i, bool f32Only = false) {
  requireF32OrF64(L, a.get(i), a.at(i), f32Only);
  CV x = a.tensor(i);
  if (!x.dtype.isFloat()) L.fail(a.at(i), "expected a floating-point tensor, got " + x.describe());
  return x;
}

// x as an int32 or int64 tensor (signed or not).
CV intArg(Lowerer& L, const Args& a, size_t i) {
  CV x = a.tensor(i);
  if (!x.dtype.isInt() || x.dtype.isBool() || x.dtype.bits() < 32)
    L.fail(a.at(i), "Expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got " + x.dtype.name());
  return x;
}

BuiltinFn unary(const char* fn, Opcode code, bool f32Only = false) {
  return [fn, code, f32Only](Lowerer& L, CallArgs& c) {
    Args a(L, c, fn, {"arg0"});
    CV x = floatArg(L, a, 0, f32Only);
    L.setLoc(a.site());
    return CV::tensor(L.b.unary(code, x.value), x.dtype);
  };
}

BuiltinFn binary(const char* fn, Opcode code, bool f32Only = false) {
  return [fn, code, f32Only](Lowerer& L, CallArgs& c) {
    Args a(L, c, fn, {"arg0", "arg1"});
    CV x = floatArg(L, a, 0, f32Only), y = floatArg(L, a, 1, f32Only);
    L.unify(x, y, a.site(), true);
    L.setLoc(a.site());
    return CV::tensor(L.b.binary(code, x.value, y.value), x.dtype);
  };
}

// A float predicate as libdevice returns it: int32 0 or 1.
BuiltinFn predicate(const char* fn, bool f32Only, bool f64Only, CV (*test)(Lowerer&, const CV&)) {
  return [fn, f32Only, f64Only, test](Lowerer& L, CallArgs& c) {
    Args a(L, c, fn, {"arg0"});
    if (f64Only && a.get(0).isTensor() && a.get(0).dtype.kind != ScalarKind::F64)
      L.fail(a.at(0), "Expected dtype ['fp64'] but got " + a.get(0).dtype.name());
    CV x = floatArg(L, a, 0, f32Only);
    L.setLoc(a.site());
    return L.cast(test(L, x), DType::of(ScalarKind::I32), a.site());
  };
}

CV boolean(ir::Value* v) { return CV::tensor(v, DType::of(ScalarKind::I1)); }

CV infinity(Lowerer& L, const CV& x) {
  return CV::tensor(L.b.constant(x.type(), std::numeric_limits<double>::infinity()), x.dtype);
}

}  // namespace

void registerLibdeviceBuiltins(BuiltinTable& t) {
  struct U { const char* name; Opcode code; bool f32Only; };
  for (U u : {U{"trunc", Opcode::Trunc, false}, U{"round", Opcode::Round, false}, U{"rint", Opcode::Rint, false},
              U{"nearbyint", Opcode::Rint, false}, U{"log10", Opcode::Log10, false}, U{"log1p", Opcode::Log1p, false},
              U{"expm1", Opcode::Expm1, false}, U{"exp10", Opcode::Exp10, false}, U{"sinh", Opcode::Sinh, false},
              U{"cosh", Opcode::Cosh, false}, U{"tan", Opcode::Tan, false}, U{"asin", Opcode::Asin, false},
              U{"acos", Opcode::Acos, false}, U{"atan", Opcode::Atan, false}, U{"asinh", Opcode::Asinh, false},
              U{"acosh", Opcode::Acosh, false}, U{"atanh", Opcode::Atanh, false}, U{"erfc", Opcode::Erfc, false},
              U{"cbrt", Opcode::Cbrt, false}, U{"erfinv", Opcode::Erfinv, false}, U{"erfcinv", Opcode::Erfcinv, false},
              U{"normcdf", Opcode::Normcdf, false}, U{"normcdfinv", Opcode::Normcdfinv, false},
              // libdevice's fast forms compute what these ops compute, within their tolerances
              U{"fast_expf", Opcode::Exp, true}, U{"fast_exp10f", Opcode::Exp10, true}, U{"fast_logf", Opcode::Log, true},
              U{"fast_log2f", Opcode::Log2, true}, U{"fast_log10f", Opcode::Log10, true}, U{"fast_sinf", Opcode::Sin, true},
              U{"fast_cosf", Opcode::Cos, true}, U{"fast_tanf", Opcode::Tan, true}})
    t[std::string("tl.") + u.name] = unary(u.name, u.code, u.f32Only);
  struct B { const char* name; Opcode code; bool f32Only; };
  for (B b : {B{"atan2", Opcode::Atan2, false}, B{"hypot", Opcode::Hypot, false}, B{"copysign", Opcode::CopySign, false},
              B{"fmod", Opcode::RemF, false},
              B{"add_rn", Opcode::AddF, false}, B{"mul_rn", Opcode::MulF, false}, B{"fast_dividef", Opcode::DivF, true},
              B{"fast_powf", Opcode::Pow, true}})
    t[std::string("tl.") + b.name] = binary(b.name, b.code, b.f32Only);
  // rcbrt, rhypot: 1 / cbrt, 1 / hypot, the division correctly rounded.
  t["tl.rcbrt"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "rcbrt", {"arg0"});
    CV x = floatArg(L, a, 0);
    L.setLoc(a.site());
    return CV::tensor(L.b.binary(Opcode::PreciseDiv, L.b.constant(x.type(), 1.0), L.b.unary(Opcode::Cbrt, x.value)), x.dtype);
  };
  t["tl.rhypot"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "rhypot", {"arg0", "arg1"});
    CV x = floatArg(L, a, 0), y = floatArg(L, a, 1);
    L.unify(x, y, a.site(), true);
    L.setLoc(a.site());
    ir::Value* h = L.b.binary(Opcode::Hypot, x.value, y.value);
    return CV::tensor(L.b.binary(Opcode::PreciseDiv, L.b.constant(x.type(), 1.0), h), x.dtype);
  };
  // fdim: x - y where x > y, else +0; NaN where either is (x + y carries it).
  t["tl.fdim"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "fdim", {"arg0", "arg1"});
    CV x = floatArg(L, a, 0), y = floatArg(L, a, 1);
    L.unify(x, y, a.site(), true);
    L.setLoc(a.site());
    ir::Value* nan = L.b.compare(Opcode::CmpF, "uno", x.value, y.value);
    auto select = [&](ir::Value* c, ir::Value* p, ir::Value* q) { return L.b.create(Opcode::Select, {c, p, q}, {p->type})->result(); };
    ir::Value* rest = select(nan, L.b.binary(Opcode::AddF, x.value, y.value), L.b.constant(x.type(), 0.0));
    ir::Value* above = L.b.compare(Opcode::CmpF, "ogt", x.value, y.value);
    return CV::tensor(select(above, L.b.binary(Opcode::SubF, x.value, y.value), rest), x.dtype);
  };
  t["tl.rcp_rn"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "rcp_rn", {"arg0"});
    CV x = floatArg(L, a, 0);
    L.setLoc(a.site());
    return CV::tensor(L.b.binary(Opcode::PreciseDiv, L.b.constant(x.type(), 1.0), x.value), x.dtype);
  };
  t["tl.fma_rn"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "fma_rn", {"arg0", "arg1", "arg2"});
    CV x = floatArg(L, a, 0), y = floatArg(L, a, 1), z = floatArg(L, a, 2);
    L.unify(x, y, a.site(), true);
    L.unify(x, z, a.site(), true);
    L.unify(y, z, a.site(), true);
    L.setLoc(a.site());
    return CV::tensor(L.b.create(Opcode::Fma, {x.value, y.value, z.value}, {x.type()})->result(), x.dtype);
  };
  // saturatef: x clamped to [0, 1], NaN to 0 (maxnum takes the number).
  t["tl.saturatef"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "saturatef", {"arg0"});
    CV x = floatArg(L, a, 0, true);
    L.setLoc(a.site());
    ir::Value* low = L.b.binary(Opcode::MaxNumF, x.value, L.b.constant(x.type(), 0.0));
    return CV::tensor(L.b.binary(Opcode::MinNumF, low, L.b.constant(x.type(), 1.0)), x.dtype);
  };
  // llrint, llround: rounded as rint / round, then to int64 (out of its range: the cast's rule).
  for (auto [name, code] : {std::pair{"llrint", Opcode::Rint}, std::pair{"llround", Opcode::Round}})
    t[std::string("tl.") + name] = [name, code](Lowerer& L, CallArgs& c) {
      Args a(L, c, name, {"arg0"});
      CV x = floatArg(L, a, 0);
      L.setLoc(a.site());
      return L.cast(CV::tensor(L.b.unary(code, x.value), x.dtype), DType::of(ScalarKind::I64), a.site());
    };
  t["tl.isnan"] = predicate("isnan", false, false, [](Lowerer& L, const CV& x) {
    return boolean(L.b.compare(Opcode::CmpF, "uno", x.value, x.value));
  });
  t["tl.isinf"] = predicate("isinf", false, false, [](Lowerer& L, const CV& x) {
    return boolean(L.b.compare(Opcode::CmpF, "oeq", L.b.unary(Opcode::AbsF, x.value), infinity(L, x).value));
  });
  auto finite = [](Lowerer& L, const CV& x) {
    return boolean(L.b.compare(Opcode::CmpF, "olt", L.b.unary(Opcode::AbsF, x.value), infinity(L, x).value));
  };
  t["tl.finitef"] = predicate("finitef", true, false, finite);
  t["tl.isfinited"] = predicate("isfinited", false, true, finite);
  // signbit: the sign bit itself (set for -0.0 and negative NaNs), through copysign of 1.
  t["tl.signbit"] = predicate("signbit", false, false, [](Lowerer& L, const CV& x) {
    ir::Value* one = L.b.binary(Opcode::CopySign, L.b.constant(x.type(), 1.0), x.value);
    return boolean(L.b.compare(Opcode::CmpF, "olt", one, L.b.constant(x.type(), 0.0)));
  });
  // mulhi: the high half of the product, signed or not as the operands are.
  t["tl.mulhi"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "mulhi", {"arg0", "arg1"});
    CV x = intArg(L, a, 0), y = intArg(L, a, 1);
    L.unify(x, y, a.site());
    L.setLoc(a.site());
    return CV::tensor(L.b.binary(x.dtype.isUnsigned ? Opcode::MulHiUI : Opcode::MulHiSI, x.value, y.value), x.dtype);
  };
  // mul24 (int32, uint32): the low 32 bits of the product of the operands' low 24 bits (signed
  // or not), hadd and rhadd: (x + y) / 2 rounded down or up, without the sum's overflow.
  t["tl.mul24"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "mul24", {"arg0", "arg1"});
    CV x = intArg(L, a, 0), y = intArg(L, a, 1);
    L.unify(x, y, a.site());
    if (x.dtype.bits() != 32) L.fail(a.site(), "Expected dtype ['int32', 'uint32'] but got " + x.dtype.name());
    L.setLoc(a.site());
    auto low24 = [&](ir::Value* v) {
      ir::Value* eight = L.b.constant(v->type, int64_t(8));
      return L.b.binary(x.dtype.isUnsigned ? Opcode::ShrUI : Opcode::ShrSI, L.b.binary(Opcode::ShlI, v, eight), eight);
    };
    return CV::tensor(L.b.binary(Opcode::MulI, low24(x.value), low24(y.value)), x.dtype);
  };
  for (auto [name, up] : {std::pair{"hadd", false}, std::pair{"rhadd", true}})
    t[std::string("tl.") + name] = [name, up](Lowerer& L, CallArgs& c) {
      Args a(L, c, name, {"arg0", "arg1"});
      CV x = intArg(L, a, 0), y = intArg(L, a, 1);
      L.unify(x, y, a.site());
      if (x.dtype.bits() != 32) L.fail(a.site(), "Expected dtype ['int32', 'uint32'] but got " + x.dtype.name());
      L.setLoc(a.site());
      const DType wide = DType::of(ScalarKind::I64, x.dtype.isUnsigned);
      CV sum = L.binary("+", L.cast(x, wide, a.site()), L.cast(y, wide, a.site()), a.site());
      if (up) sum = L.binary("+", sum, CV::integer(1), a.site());
      return L.cast(L.binary(">>", sum, CV::integer(1), a.site()), x.dtype, a.site());
    };
  // ffs: the 1-based position of the lowest set bit, 0 for 0 (int32 of int32 and int64).
  t["tl.ffs"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "ffs", {"arg0"});
    CV x = intArg(L, a, 0);
    L.setLoc(a.site());
    ir::Value* zero = L.b.constant(x.type(), int64_t(0));
    ir::Value* lowest = L.b.binary(Opcode::AndI, x.value, L.b.binary(Opcode::SubI, zero, x.value));
    ir::Value* width = L.b.constant(x.type(), int64_t(x.dtype.bits()));
    ir::Value* pos = L.b.binary(Opcode::SubI, width, L.b.unary(Opcode::Clz, lowest));  // width - clz: 0 for 0
    return L.cast(CV::tensor(pos, x.dtype), DType::of(ScalarKind::I32), a.site());
  };
  // clz and popc give int32 for both widths; brev keeps the input's dtype.
  for (auto [name, code] : {std::pair{"clz", Opcode::Clz}, std::pair{"popc", Opcode::Popc}, std::pair{"brev", Opcode::Brev}})
    t[std::string("tl.") + name] = [name, code](Lowerer& L, CallArgs& c) {
      Args a(L, c, name, {"arg0"});
      CV x = intArg(L, a, 0);
      L.setLoc(a.site());
      CV r = CV::tensor(L.b.unary(code, x.value), x.dtype);
      return code == Opcode::Brev ? r : L.cast(r, DType::of(ScalarKind::I32), a.site());
    };
}

}  // namespace tilevm::frontend

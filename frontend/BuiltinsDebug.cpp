// BuiltinsDebug.cpp - the builtins that check and report: tl.static_assert and tl.static_print
// at compile time (static_print as Python's print of what Triton's code generator holds),
// tl.device_print, tl.device_assert, tl.assume and tl.debug_barrier.
#include <charconv>
#include <cmath>
#include <iostream>

#include "frontend/BuiltinTable.h"

namespace tilevm::frontend {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// Python's str() of a float: the shortest text that reads back, "1.0" not "1", exponents past
// 1e16 and below 1e-4.
std::string pythonFloat(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  const bool sci = x != 0 && (std::fabs(x) >= 1e16 || std::fabs(x) < 1e-4);
  auto r = std::to_chars(buf, buf + sizeof buf, x, sci ? std::chars_format::scientific : std::chars_format::fixed);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// One value of tl.static_print as Triton prints it.
std::string staticPrintText(const CV& v) {
  switch (v.kind) {
    case CV::K::Str: return v.s;
    case CV::K::Int: return v.intText();
    case CV::K::Bool: return v.i ? "True" : "False";
    case CV::K::Float: return pythonFloat(v.f);
    case CV::K::DType: return v.dtype.name();
    case CV::K::Tensor: {
      if (v.value->type.isScalar()) return v.dtype.name();
      std::string s = v.dtype.name() + "[";
      for (unsigned d = 0; d < v.value->type.rank(); ++d) s += (d ? ", " : "") + std::string("constexpr[") + std::to_string(v.value->type.dim(d)) + "]";
      return s + "]";
    }
    case CV::K::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < v.elts.size(); ++i) s += (i ? ", " : "") + staticPrintText(v.elts[i]);
      return s + (v.elts.size() == 1 ? ",)" : ")");
    }
    default: return v.describe();
  }
}

}  // namespace

void registerDebugBuiltins(BuiltinTable& t) {
  t["tl.static_assert"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "static_assert", {"cond", "msg"});
    if (!L.constexprTruth(a.get(0), a.at(0), "static_assert condition"))
      L.fail(a.site(), "static_assert failed" + (a.has(1) ? ": " + a.strOr(1, "") : std::string()));
    return CV::none();
  };
  t["tl.static_print"] = [](Lowerer& L, CallArgs& c) {
    // Python's print(*values) of what Triton's code generator holds: constexprs unwrapped, a
    // tensor as its dtype and shape of constexprs ("int32[constexpr[128]]").
    std::string line;
    for (size_t i = 0; i < c.pos.size(); ++i) line += (i ? " " : "") + staticPrintText(c.pos[i]);
    if (L.staticPrint) L.staticPrint(line);
    else std::cerr << L.module->fileName << ":" << c.site->line << ": static_print: " << line << "\n";
    return CV::none();
  };
  t["tl.device_print"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "device_print", {"prefix", "*", "hex"});
    std::string prefix;
    std::vector<CV> values = a.rest();
    if (a.has(0)) {
      if (a.get(0).kind == CV::K::Str) prefix = a.get(0).s;
      else values.insert(values.begin(), a.get(0));
    }
    std::vector<ir::Value*> ops;
    for (const CV& v : values) ops.push_back(L.toTensor(v, a.site()).value);
    std::vector<ir::Attribute> attrs{{"prefix", prefix}};
    if (a.boolOr(1, false)) attrs.push_back({"hex", int64_t(1)});
    L.setLoc(a.site());
    L.b.create(Opcode::Print, ops, {}, attrs);
    return CV::none();
  };
  t["tl.device_assert"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "device_assert", {"cond", "msg", "mask"});
    CV cond = a.get(0);
    // A condition known true asserts nothing; one known false fails where the program runs its
    // unmasked lanes, as Triton's (a scalar assert of a constant), not at compile time.
    if (!cond.isTensor() && L.constexprTruth(cond, a.at(0), "condition")) return CV::none();
    CV cb = L.cast(cond, DType::of(ScalarKind::I1), a.at(0));
    if (a.has(2)) {  // masked-off lanes pass
      CV m = L.cast(a.get(2), DType::of(ScalarKind::I1), a.at(2));
      cb = L.binary("|", cb, L.unary("not", m, a.at(2)), a.site());
    }
    L.setLoc(a.site());
    L.b.create(Opcode::Assert, {cb.value}, {}, {{"message", a.strOr(1, "")}});
    return CV::none();
  };
  // tl.assume: a hint to the code generator (llvm.assume), and a check on the interpreter,
  // where a false assumption is a finding at its line (Triton: undefined behaviour).
  t["tl.assume"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "assume", {"cond"});
    CV cond = a.get(0);
    if (!cond.isTensor()) {
      if (!L.constexprTruth(cond, a.at(0), "assumption")) L.fail(a.site(), "tl.assume of a condition that is false at compile time");
      return CV::none();
    }
    if (!cond.dtype.isBool()) L.fail(a.at(0), "tl.assume needs a boolean condition, got " + cond.describe());
    L.setLoc(a.site());
    L.b.create(Opcode::Assert, {cond.value}, {}, {{"message", ""}, {"assume", "1"}});
    return CV::none();
  };
  t["tl.debug_barrier"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "debug_barrier", {});
    L.setLoc(a.site());
    L.b.create(Opcode::Barrier, {}, {});
    return CV::none();
  };
}

}  // namespace tilevm::frontend

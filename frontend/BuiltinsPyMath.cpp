// BuiltinsPyMath.cpp - Python's `math` module on compile-time numbers: module-level constants
// such as `_sqrt2pi = math.sqrt(2.0 / math.pi)` and constexpr arithmetic inside kernels.
#include <cmath>
#include <limits>
#include <utility>

#include "frontend/BuiltinArgs.h"
#include "frontend/BuiltinTable.h"

namespace tilevm::frontend {

namespace {

double number(Lowerer& L, const Args& a, size_t i, const char* fn) {
  const CV& v = a.get(i);
  if (!v.isNumber()) L.fail(a.at(i), std::string("math.") + fn + "() needs a compile-time number, got " + v.describe());
  return v.asDouble();
}

}  // namespace

bool pythonMathConstant(const std::string& name, CV& out) {
  if (name == "pi") return out = CV::real(M_PI), true;
  if (name == "e") return out = CV::real(M_E), true;
  if (name == "tau") return out = CV::real(2 * M_PI), true;
  if (name == "inf") return out = CV::real(std::numeric_limits<double>::infinity()), true;
  if (name == "nan") return out = CV::real(std::numeric_limits<double>::quiet_NaN()), true;
  return false;
}

void registerPythonMath(BuiltinTable& t) {
  using F = double (*)(double);
  static const std::pair<const char*, F> unary[] = {
      {"sqrt", [](double x) { return std::sqrt(x); }}, {"exp", [](double x) { return std::exp(x); }},
      {"log2", [](double x) { return std::log2(x); }}, {"log10", [](double x) { return std::log10(x); }},
      {"sin", [](double x) { return std::sin(x); }},   {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},   {"atan", [](double x) { return std::atan(x); }},
      {"tanh", [](double x) { return std::tanh(x); }}, {"erf", [](double x) { return std::erf(x); }},
      {"fabs", [](double x) { return std::fabs(x); }}, {"log1p", [](double x) { return std::log1p(x); }},
      {"exp2", [](double x) { return std::exp2(x); }}, {"expm1", [](double x) { return std::expm1(x); }}};
  for (const auto& [name, fn] : unary) {
    std::string n = name;
    F f = fn;
    t["math." + n] = [n, f](Lowerer& L, CallArgs& c) {
      Args a(L, c, "math." + n, {"x"});
      double x = number(L, a, 0, n.c_str());
      if ((n == "sqrt" && x < 0) || ((n == "log2" || n == "log10") && x <= 0)) L.fail(a.site(), "math domain error");
      return CV::real(f(x));
    };
  }
  t["math.log"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "math.log", {"x", "base"});
    double x = number(L, a, 0, "log");
    if (x <= 0) L.fail(a.site(), "math domain error");
    return CV::real(a.has(1) ? std::log(x) / std::log(number(L, a, 1, "log")) : std::log(x));
  };
  t["math.pow"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "math.pow", {"x", "y"});
    return CV::real(std::pow(number(L, a, 0, "pow"), number(L, a, 1, "pow")));
  };
  auto rounding = [](const char* name, double (*f)(double)) {
    return [name, f](Lowerer& L, CallArgs& c) {
      Args a(L, c, std::string("math.") + name, {"x"});
      if (a.get(0).kind == CV::K::Int) return a.get(0);  // exact, as Python's
      double r = f(number(L, a, 0, name));
      if (!std::isfinite(r) || std::fabs(r) > 9.2e18) L.fail(a.site(), std::string("math.") + name + "(): result does not fit an integer");
      return CV::integer(int64_t(r));
    };
  };
  t["math.floor"] = rounding("floor", [](double x) { return std::floor(x); });
  t["math.ceil"] = rounding("ceil", [](double x) { return std::ceil(x); });
  t["math.trunc"] = rounding("trunc", [](double x) { return std::trunc(x); });
  t["math.isnan"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "math.isnan", {"x"});
    return CV::boolean(std::isnan(number(L, a, 0, "isnan")));
  };
  t["math.isinf"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "math.isinf", {"x"});
    return CV::boolean(std::isinf(number(L, a, 0, "isinf")));
  };
  t["math.gcd"] = [](Lowerer& L, CallArgs& c) {
    Args a(L, c, "math.gcd", {"a", "b"});
    if (a.get(0).kind != CV::K::Int || a.get(1).kind != CV::K::Int) L.fail(a.site(), "math.gcd() needs integers");
    __int128 x = a.get(0).wide(), y = a.get(1).wide();
    x = x < 0 ? -x : x;
    y = y < 0 ? -y : y;
    while (y != 0) x = std::exchange(y, x % y);
    return *CV::pythonInt(x);  // at most max(|a|, |b|) <= 2^64 - 1
  };
}

}  // namespace tilevm::frontend

// ModuleConditions.cpp - an exact evaluator of module-level conditions over Python constants:
// anything it is not sure to compute as CPython does is "undecided", never guessed.
#include "frontend/ModuleConditions.h"

#include <cmath>

namespace tilevm::frontend {

namespace {

/// A Python constant: None, bool, int (64-bit), float or str.
struct PV {
  enum class K { None, Bool, Int, Float, Str } k = K::None;
  long long i = 0;
  double f = 0;
  std::string s;
  bool numeric() const { return k == K::Bool || k == K::Int || k == K::Float; }
  double asDouble() const { return k == K::Float ? f : double(i); }
  bool truth() const {
    switch (k) {
      case K::None: return false;
      case K::Bool:
      case K::Int: return i != 0;
      case K::Float: return f != 0;
      case K::Str: return !s.empty();
    }
    return false;
  }
};

PV pvInt(long long v, PV::K k = PV::K::Int) {
  PV p;
  p.k = k;
  p.i = v;
  return p;
}

class Decider {
 public:
  explicit Decider(const std::function<ConditionName(const std::string&)>& lookup) : lookup_(lookup) {}
  std::string reason;

  std::optional<PV> eval(const Expr& e) {
    if (++depth_ > 64) return undecided("the condition is nested too deeply");
    auto v = evalInner(e);
    --depth_;
    return v;
  }

 private:
  const std::function<ConditionName(const std::string&)>& lookup_;
  int depth_ = 0;

  std::optional<PV> undecided(const std::string& why) {
    if (reason.empty()) reason = why;
    return std::nullopt;
  }

  // `a.b.c` as written, or "" when it is not a dotted name.
  static std::string dotted(const Expr& e) {
    if (e.kind == Expr::K::Name) return e.str;
    if (e.kind == Expr::K::Attr && e.a) {
      std::string b = dotted(*e.a);
      return b.empty() ? "" : b + "." + e.str;
    }
    return "";
  }
  // The dotted path with its first name replaced by the module it imports (`os.environ`).
  std::string resolved(const Expr& e) {
    std::string d = dotted(e);
    if (d.empty()) return "";
    std::string head = d.substr(0, d.find('.'));
    ConditionName n = lookup_(head);
    return n.module.empty() ? d : n.module + d.substr(head.size());
  }
  std::optional<PV> computedByPython(const Expr& e, const char* what) {
    std::string path = resolved(e.kind == Expr::K::Call || e.kind == Expr::K::Subscript ? *e.a : e);
    if (path.rfind("os.environ", 0) == 0 || path.rfind("os.getenv", 0) == 0) return undecided("it reads os.environ");
    if (path.empty()) return undecided(std::string("it ") + what);
    return undecided(std::string("it ") + what + " '" + path + "'");
  }

  std::optional<PV> evalInner(const Expr& e) {
    switch (e.kind) {
      case Expr::K::Int:
        if (!e.str.empty()) return undecided("an integer beyond 64 bits");
        return pvInt(e.ival);
      case Expr::K::Float: {
        PV p;
        p.k = PV::K::Float;
        p.f = e.fval;
        return p;
      }
      case Expr::K::Str: {
        PV p;
        p.k = PV::K::Str;
        p.s = e.str;
        return p;
      }
      case Expr::K::Bool: return pvInt(e.ival, PV::K::Bool);
      case Expr::K::None: return PV{};
      case Expr::K::Name: {
        ConditionName n = lookup_(e.str);
        if (n.constant) return eval(*n.constant);
        return undecided("'" + e.str + "' is not a constant the reader knows");
      }
      case Expr::K::Attr:
        if (resolved(e) == "triton.__version__") {
          PV p;
          p.k = PV::K::Str;
          p.s = kStandInTritonVersion;
          return p;
        }
        return computedByPython(e, "reads");
      case Expr::K::Call: return computedByPython(e, "calls");
      case Expr::K::Subscript: return computedByPython(e, "indexes");
      case Expr::K::Unary: return unary(e);
      case Expr::K::BoolOp: {
        std::optional<PV> last;
        for (const auto& x : e.elts) {
          last = eval(*x);
          if (!last) return std::nullopt;
          if (e.str == "and" ? !last->truth() : last->truth()) return last;
        }
        return last;
      }
      case Expr::K::IfExp: {
        auto c = eval(*e.b);
        if (!c) return std::nullopt;
        return eval(c->truth() ? *e.a : *e.c);
      }
      case Expr::K::Compare: return compareChain(e);
      case Expr::K::Binary: return binary(e);
      case Expr::K::Ellipsis:
      case Expr::K::Tuple:
      case Expr::K::List:
      case Expr::K::Dict:
      case Expr::K::Slice:
      case Expr::K::Lambda:
      case Expr::K::Comp:
      case Expr::K::CompFor:
      case Expr::K::Starred:
      case Expr::K::Set:
      case Expr::K::NamedExpr:
      case Expr::K::Await:
      case Expr::K::Yield: break;
    }
    return undecided("the reader does not evaluate this kind of expression");
  }

  std::optional<PV> unary(const Expr& e) {
    auto a = eval(*e.a);
    if (!a) return std::nullopt;
    if (e.str == "not") return pvInt(!a->truth(), PV::K::Bool);
    if (a->k == PV::K::Float) {
      if (e.str == "-") a->f = -a->f;
      else if (e.str != "+") return undecided("'" + e.str + "' of a float");
      return a;
    }
    if (!a->numeric()) return undecided("'" + e.str + "' of a non-number");
    if (e.str == "-" && a->i == INT64_MIN) return undecided("an integer beyond 64 bits");
    long long v = e.str == "-" ? -a->i : e.str == "~" ? ~a->i : a->i;
    return pvInt(v);
  }

  std::optional<PV> binary(const Expr& e) {
    auto a = eval(*e.a);
    if (!a) return std::nullopt;
    auto b = eval(*e.b);
    if (!b) return std::nullopt;
    const std::string& op = e.str;
    if (a->k == PV::K::Str && b->k == PV::K::Str && op == "+") {
      PV p = *a;
      p.s += b->s;
      return p;
    }
    if (!a->numeric() || !b->numeric()) return undecided("'" + op + "' of these operands");
    if (a->k == PV::K::Float || b->k == PV::K::Float) {
      PV p;
      p.k = PV::K::Float;
      double x = a->asDouble(), y = b->asDouble();
      if (op == "+") p.f = x + y;
      else if (op == "-") p.f = x - y;
      else if (op == "*") p.f = x * y;
      else return undecided("float '" + op + "'");
      return p;
    }
    long long r = 0;
    bool overflow = true;
    if (op == "+") overflow = __builtin_add_overflow(a->i, b->i, &r);
    else if (op == "-") overflow = __builtin_sub_overflow(a->i, b->i, &r);
    else if (op == "*") overflow = __builtin_mul_overflow(a->i, b->i, &r);
    else return undecided("integer '" + op + "'");
    if (overflow) return undecided("an integer beyond 64 bits");
    return pvInt(r);
  }

  std::optional<bool> compare(const PV& a, const std::string& op, const PV& b) {
    if (op == "is" || op == "is not") {
      bool singleton = (a.k == PV::K::None || a.k == PV::K::Bool) && (b.k == PV::K::None || b.k == PV::K::Bool);
      if (!singleton) {
        undecided("'is' between values that are not None, True or False");
        return std::nullopt;
      }
      bool same = a.k == b.k && a.i == b.i;
      return op == "is" ? same : !same;
    }
    int c = 0;  // -1, 0, 1
    if (a.numeric() && b.numeric()) {
      if (a.k != PV::K::Float && b.k != PV::K::Float) c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
      else {
        double x = a.asDouble(), y = b.asDouble();
        if (std::isnan(x) || std::isnan(y)) return op == "!=";
        c = x < y ? -1 : x > y ? 1 : 0;
      }
    } else if (a.k == PV::K::Str && b.k == PV::K::Str) {
      int r = a.s.compare(b.s);  // UTF-8 byte order is code point order, as Python compares
      c = r < 0 ? -1 : r > 0 ? 1 : 0;
    } else if (a.k == PV::K::None && b.k == PV::K::None) {
      c = 0;
      if (op != "==" && op != "!=") {
        undecided("ordering None (Python raises TypeError)");
        return std::nullopt;
      }
    } else {
      if (op == "==") return false;
      if (op == "!=") return true;
      undecided("ordering values of different types (Python raises TypeError)");
      return std::nullopt;
    }
    if (op == "==") return c == 0;
    if (op == "!=") return c != 0;
    if (op == "<") return c < 0;
    if (op == "<=") return c <= 0;
    if (op == ">") return c > 0;
    if (op == ">=") return c >= 0;
    undecided("'" + op + "'");
    return std::nullopt;
  }

  std::optional<PV> compareChain(const Expr& e) {
    auto left = eval(*e.elts[0]);
    if (!left) return std::nullopt;
    for (size_t k = 0; k < e.ops.size(); ++k) {
      auto right = eval(*e.elts[k + 1]);
      if (!right) return std::nullopt;
      auto r = compare(*left, e.ops[k], *right);
      if (!r) return std::nullopt;
      if (!*r) return pvInt(0, PV::K::Bool);
      left = right;
    }
    return pvInt(1, PV::K::Bool);
  }
};

}  // namespace

ConditionDecision decideCondition(const Expr& test, const std::function<ConditionName(const std::string&)>& lookup) {
  Decider d(lookup);
  ConditionDecision out;
  if (auto v = d.eval(test)) out.value = v->truth();
  else out.reason = d.reason.empty() ? "the reader cannot evaluate it" : d.reason;
  return out;
}

}  // namespace tilevm::frontend

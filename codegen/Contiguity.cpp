// Contiguity.cpp - the axis analysis (see Contiguity.h): one walk in program order, repeated
// until the values carried by loops stop changing (a carried value knows what both its initial
// value and every iteration's next value guarantee).
#include "codegen/Contiguity.h"

#include <algorithm>
#include <string>

namespace tilevm::codegen {

using ir::Opcode;

namespace {

constexpr int64_t kMax = int64_t(1) << 30;

// The largest power of two dividing v (capped; 0 is divisible by anything).
int64_t powerOfTwoIn(int64_t v) {
  if (v == 0) return kMax;
  int64_t d = 1;
  while (d < kMax && v % (d * 2) == 0) d *= 2;
  return d;
}

int64_t elementBytes(ir::ScalarKind k) { return std::max(1u, ir::bitWidth(k) / 8); }

int64_t mul(int64_t a, int64_t b) { return std::min(kMax, a * b); }

// A power of two dividing a's elements at flat positions that are multiples of g: the group
// starts when g is a multiple of a's contiguity, start + j g inside a group otherwise.
int64_t divisibilityAt(const AxisInfo& a, int64_t g) {
  if (a.contiguity == 1 || g >= a.contiguity) return a.divisibility;
  return std::min(a.divisibility, g);
}

class Analysis {
 public:
  Analysis(const ir::Kernel& k, const ParamFacts& f) : k_(k) {
    for (size_t i = 0; i < k.params().size(); ++i) {
      AxisInfo a;
      a.constancy = kMax;
      if (i < f.divisors.size()) a.divisibility = std::max<int64_t>(1, f.divisors[i]);
      if (i < f.ones.size()) a.one = f.ones[i];
      info_[k.params()[i].get()] = a;
    }
  }

  std::map<const ir::Value*, AxisInfo> run() {
    for (int round = 0; round < 8; ++round) {
      changed_ = false;
      walk(k_.body.block);
      if (!changed_) break;
    }
    return info_;
  }

 private:
  AxisInfo of(const ir::Value* v) const {
    auto it = info_.find(v);
    AxisInfo a = it == info_.end() ? AxisInfo{} : it->second;
    if (v->type.isScalar()) a.constancy = kMax, a.contiguity = 1;
    return a;
  }

  void set(const ir::Value* v, AxisInfo a) {
    int64_t n = std::max<int64_t>(1, v->type.numElements());
    int64_t cap = powerOfTwoIn(n);  // groups must tile the value
    if (a.contiguity > cap) a.divisibility = divisibilityAt(a, cap);
    a.contiguity = std::min(a.contiguity, cap);
    a.constancy = std::min(a.constancy, v->type.isScalar() ? kMax : powerOfTwoIn(n));
    info_[v] = a;
  }

  // A loop-carried value: what every value it takes guarantees (the meet).
  void meet(const ir::Value* v, const AxisInfo& x) {
    auto it = info_.find(v);
    if (it == info_.end()) {
      info_[v] = x;
      changed_ = true;
      return;
    }
    AxisInfo& a = it->second;
    AxisInfo m{std::min(a.contiguity, x.contiguity), std::min(a.constancy, x.constancy), std::min(a.divisibility, x.divisibility),
               a.one && x.one, std::min(a.monotoneGroup, x.monotoneGroup)};
    if (m.contiguity != a.contiguity || m.constancy != a.constancy || m.divisibility != a.divisibility || m.one != a.one ||
        m.monotoneGroup != a.monotoneGroup) {
      a = m;
      changed_ = true;
    }
  }

  void walk(const ir::Block& block) {
    for (const auto& op : block.ops) visit(*op);
  }

  void visit(const ir::Op& op) {
    if (op.code == Opcode::For) {
      const ir::Block& body = op.regions[0]->block;
      for (size_t i = 3; i < op.operands.size(); ++i) meet(body.args[i - 2].get(), of(op.operands[i]));
      AxisInfo iv;  // lb + i * step
      iv.constancy = kMax;
      iv.divisibility = std::min(of(op.operands[0]).divisibility, of(op.operands[2]).divisibility);
      meet(body.args[0].get(), iv);
      walk(body);
      const ir::Op* yield = body.ops.back().get();
      for (size_t i = 0; i < yield->operands.size(); ++i) {
        meet(body.args[i + 1].get(), of(yield->operands[i]));
        info_[op.result(unsigned(i))] = of(body.args[i + 1].get());
      }
      return;
    }
    for (const auto& r : op.regions) walk(r->block);
    if (op.results.size() != 1) return;
    const ir::Value* r = op.result();
    auto a = [&](size_t i) { return of(op.operands[i]); };
    AxisInfo out;
    switch (op.code) {
      case Opcode::Constant:
        out.constancy = kMax;
        if (const int64_t* c = op.intAttr("value"); c && !r->type.isFloat()) {
          out.divisibility = powerOfTwoIn(*c);
          out.one = *c == 1;
        }
        break;
      case Opcode::Splat:
        out = a(0);
        out.constancy = kMax, out.contiguity = 1;
        break;
      case Opcode::Arange:
        out.contiguity = kMax;
        out.divisibility = powerOfTwoIn(*op.intAttr("start"));
        break;
      case Opcode::AddI:
      case Opcode::AddPtr: {
        AxisInfo x = a(0), y = a(1);
        int64_t scale = op.code == Opcode::AddPtr ? elementBytes(r->type.elem().pointee) : 1;
        out.contiguity = std::max(std::min(x.contiguity, y.constancy), std::min(x.constancy, y.contiguity));
        out.constancy = std::min(x.constancy, y.constancy);
        out.divisibility = std::min(divisibilityAt(x, out.contiguity), mul(divisibilityAt(y, out.contiguity), scale));
        break;
      }
      case Opcode::SubI: {
        AxisInfo x = a(0), y = a(1);
        out.contiguity = std::min(x.contiguity, y.constancy);
        out.constancy = std::min(x.constancy, y.constancy);
        out.divisibility = std::min(divisibilityAt(x, out.contiguity), divisibilityAt(y, out.contiguity));
        break;
      }
      case Opcode::MulI: {
        AxisInfo x = a(0), y = a(1);
        if (y.one) out = x;
        else if (x.one) out = y;
        else {
          out.constancy = std::min(x.constancy, y.constancy);
          out.divisibility = mul(divisibilityAt(x, 1), divisibilityAt(y, 1));  // every element's
        }
        break;
      }
      case Opcode::RemSI:
      case Opcode::RemUI: {
        // x % n with n constant: a group of g consecutive values starting at a multiple of g
        // stays consecutive when n is a multiple of g.
        AxisInfo x = a(0), y = a(1);
        out.constancy = std::min(x.constancy, y.constancy);
        if (y.constancy >= x.contiguity)
          out.contiguity = std::min({x.contiguity, x.divisibility, y.divisibility});
        out.divisibility = std::min(divisibilityAt(x, out.contiguity), divisibilityAt(y, 1));
        break;
      }
      case Opcode::DivSI:
      case Opcode::DivUI:
      case Opcode::AndI:
      case Opcode::OrI:
      case Opcode::XorI:
      case Opcode::ShlI:
      case Opcode::ShrSI:
      case Opcode::ShrUI:
      case Opcode::MinSI:
      case Opcode::MaxSI: {
        AxisInfo x = a(0), y = a(1);
        out.constancy = std::min(x.constancy, y.constancy);
        // Masks combined with a uniform one stay monotone (all or nothing).
        if ((op.code == Opcode::AndI || op.code == Opcode::OrI) && r->type.elem().kind == ir::ScalarKind::I1)
          out.monotoneGroup = std::max(std::min(x.monotoneGroup, y.constancy), std::min(x.constancy, y.monotoneGroup));
        break;
      }
      case Opcode::ExtSI:
      case Opcode::ExtUI:
      case Opcode::TruncI:
      case Opcode::ExpandDims:
      case Opcode::Reshape: out = a(0); break;  // the same elements in the same flat order
      case Opcode::Broadcast: out = broadcast(op); break;
      case Opcode::Flip: break;  // reversed runs: claim nothing
      case Opcode::Select: {
        AxisInfo c = a(0), x = a(1), y = a(2);
        out.constancy = std::min({c.constancy, x.constancy, y.constancy});
        out.contiguity = std::min({c.constancy, x.contiguity, y.contiguity});
        out.divisibility = std::min(divisibilityAt(x, out.contiguity), divisibilityAt(y, out.contiguity));
        break;
      }
      case Opcode::CmpI: out = compare(op); break;
      default: {
        // Pure ops of values constant over groups are constant over the common groups.
        if (op.operands.empty() || !ir::hasTrait(op.code, ir::Pure) || !op.regions.empty()) break;
        out.constancy = kMax;
        for (const ir::Value* v : op.operands) out.constancy = std::min(out.constancy, of(v).constancy);
        break;
      }
    }
    if (op.code == Opcode::AddPtr || op.code == Opcode::AddI) out.one = false;
    set(r, out);
  }

  AxisInfo broadcast(const ir::Op& op) {
    const ir::Type& st = op.operands[0]->type;
    const ir::Type& rt = op.result()->type;
    AxisInfo s = of(op.operands[0]), out;
    unsigned rank = rt.rank(), firstKept = 0;
    // Size-1 source dims broadcast only before all others: the source repeats whole.
    while (firstKept < rank && st.dim(firstKept) == 1 && rt.dim(firstKept) != 1) ++firstKept;
    bool leadingOnly = true;
    for (unsigned d = firstKept; d < rank; ++d) leadingOnly = leadingOnly && st.dim(d) == rt.dim(d);
    if (leadingOnly) {
      int64_t whole = powerOfTwoIn(st.numElements());
      return AxisInfo{std::min(s.contiguity, whole), std::min(s.constancy, whole), s.divisibility, s.one, std::min(s.monotoneGroup, whole)};
    }
    // Size-1 source dims broadcast only after all others: each source element repeats.
    unsigned lastKept = rank;
    while (lastKept > 0 && st.dim(lastKept - 1) == 1) --lastKept;
    bool trailingOnly = true;
    for (unsigned d = 0; d < lastKept; ++d) trailingOnly = trailingOnly && st.dim(d) == rt.dim(d);
    if (trailingOnly) {
      int64_t repeat = 1;
      for (unsigned d = lastKept; d < rank; ++d) repeat *= rt.dim(d);
      out.constancy = mul(s.constancy, powerOfTwoIn(repeat));
      out.divisibility = divisibilityAt(s, 1);
      out.one = s.one;
    }
    return out;
  }

  AxisInfo compare(const ir::Op& op) {
    AxisInfo x = of(op.operands[0]), y = of(op.operands[1]), out;
    const std::string& pred = *op.strAttr("pred");
    out.constancy = std::min(x.constancy, y.constancy);
    // contiguous < constant (and >=; mirrored when the constant is on the left) cannot change
    // inside a group where both are multiples of its size (Triton's constancy of `offs < n`).
    bool left = x.contiguity > 1, right = y.contiguity > 1;
    if (left == right || pred == "eq" || pred == "ne") return out;
    AxisInfo c = left ? x : y, k = left ? y : x;
    int64_t group = std::min(c.contiguity, k.constancy);
    out.monotoneGroup = group;
    bool strict = left ? (pred == "slt" || pred == "sge" || pred == "ult" || pred == "uge")
                       : (pred == "sgt" || pred == "sle" || pred == "ugt" || pred == "ule");
    if (strict) out.constancy = std::max(out.constancy, std::min({group, divisibilityAt(c, group), divisibilityAt(k, 1)}));
    return out;
  }

  const ir::Kernel& k_;
  std::map<const ir::Value*, AxisInfo> info_;
  bool changed_ = false;
};

}  // namespace

std::map<const ir::Value*, AxisInfo> analyzeAxes(const ir::Kernel& k, const ParamFacts& facts) { return Analysis(k, facts).run(); }

}  // namespace tilevm::codegen

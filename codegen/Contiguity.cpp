// Contiguity.cpp - the axis analysis (see Contiguity.h): one walk in program order, repeated
// until the values carried by loops stop changing (a carried value knows what both its initial
// value and every iteration's next value guarantee).
#include "codegen/Contiguity.h"

#include <algorithm>
#include <string>

#include "ir/Hints.h"

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

// The two flat orders (Contiguity.h): row-major, and with the dims reversed.
enum Order { Row = 0, Reversed = 1 };

// The dims of t in order o.
std::vector<int64_t> dimsIn(const ir::Type& t, Order o) {
  std::vector<int64_t> d;
  for (unsigned i = 0; i < t.rank(); ++i) d.push_back(t.dim(i));
  if (o == Reversed) std::reverse(d.begin(), d.end());
  return d;
}

class Analysis {
 public:
  Analysis(const ir::Kernel& k, const ParamFacts& f) : k_(k) {
    for (size_t i = 0; i < k.params().size(); ++i) {
      AxisInfo a;
      a.constancy = kMax;
      if (i < f.divisors.size()) a.divisibility = std::max<int64_t>(1, f.divisors[i]);
      if (i < f.ones.size()) a.one = f.ones[i];
      info_[Row][k.params()[i].get()] = a;
      info_[Reversed][k.params()[i].get()] = a;
    }
    collectHints(k.body.block);
  }

  Axes run() {
    for (int round = 0; round < 8; ++round) {
      changed_ = false;
      walk(k_.body.block);
      if (!changed_) break;
    }
    for (Order o : {Row, Reversed})  // what users of the maps read: hints included
      for (const auto& [v, h] : hints_[o]) info_[o][v] = of(v, o);
    return Axes{std::move(info_[Row]), std::move(info_[Reversed])};
  }

 private:
  // What is known of v: what its definition gives, raised to what the kernel's hints promise.
  AxisInfo of(const ir::Value* v, Order o) const {
    auto it = info_[o].find(v);
    AxisInfo a = it == info_[o].end() ? AxisInfo{} : it->second;
    if (auto h = hints_[o].find(v); h != hints_[o].end()) {
      a.contiguity = std::max(a.contiguity, h->second.contiguity);
      a.constancy = std::max(a.constancy, h->second.constancy);
      a.divisibility = std::max(a.divisibility, h->second.divisibility);
    }
    if (v->type.isScalar()) a.constancy = kMax, a.contiguity = 1;
    return a;
  }

  // Triton's hints (ir/Hints.h), per dim, read in each flat order from the dim that order runs
  // fastest along (the last row-major, the first reversed), runs capped at that dim's length.
  void collectHints(const ir::Block& block) {
    for (const auto& op : block.ops) {
      for (const ir::Value* v : ir::hintedValues(*op)) addHints(*v);
      for (const auto& region : op->regions) collectHints(region->block);
    }
  }

  void addHints(const ir::Value& v) {
    for (Order o : {Row, Reversed}) {
      std::vector<int64_t> dims = dimsIn(v.type, o);
      AxisInfo h;
      bool any = false;
      for (ir::Hint kind : ir::kHints) {
        const std::vector<int64_t>* list = ir::hintOf(v, kind);
        if (!list || list->empty()) continue;  // (the verifier refuses an empty one)
        any = true;
        int64_t x = powerOfTwoIn(o == Row ? list->back() : list->front());
        if (kind == ir::Hint::Divisibility) h.divisibility = x;
        int64_t run = std::min(x, dims.empty() ? int64_t(1) : powerOfTwoIn(o == Row ? dims.back() : dims.front()));
        if (kind == ir::Hint::Contiguity) h.contiguity = run;
        if (kind == ir::Hint::Constancy) h.constancy = run;
      }
      if (any) hints_[o][&v] = h;
    }
  }

  void set(const ir::Value* v, Order o, AxisInfo a) {
    int64_t n = std::max<int64_t>(1, v->type.numElements());
    int64_t cap = powerOfTwoIn(n);  // groups must tile the value
    if (a.contiguity > cap) a.divisibility = divisibilityAt(a, cap);
    a.contiguity = std::min(a.contiguity, cap);
    a.constancy = std::min(a.constancy, v->type.isScalar() ? kMax : powerOfTwoIn(n));
    a.prefixGroup = std::min(a.prefixGroup, cap);
    info_[o][v] = a;
  }

  // A loop-carried value: what every value it takes guarantees (the meet).
  void meet(const ir::Value* v, Order o, const AxisInfo& x) {
    auto it = info_[o].find(v);
    if (it == info_[o].end()) {
      info_[o][v] = x;
      changed_ = true;
      return;
    }
    AxisInfo& a = it->second;
    AxisInfo m{std::min(a.contiguity, x.contiguity), std::min(a.constancy, x.constancy), std::min(a.divisibility, x.divisibility),
               a.one && x.one, std::min(a.monotoneGroup, x.monotoneGroup), std::min(a.prefixGroup, x.prefixGroup)};
    if (m.contiguity != a.contiguity || m.constancy != a.constancy || m.divisibility != a.divisibility || m.one != a.one ||
        m.monotoneGroup != a.monotoneGroup || m.prefixGroup != a.prefixGroup) {
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
      for (Order o : {Row, Reversed}) {
        for (size_t i = 3; i < op.operands.size(); ++i) meet(body.args[i - 2].get(), o, of(op.operands[i], o));
        AxisInfo iv;  // lb + i * step
        iv.constancy = kMax;
        iv.divisibility = std::min(of(op.operands[0], o).divisibility, of(op.operands[2], o).divisibility);
        meet(body.args[0].get(), o, iv);
      }
      walk(body);
      const ir::Op* yield = body.ops.back().get();
      for (Order o : {Row, Reversed})
        for (size_t i = 0; i < yield->operands.size(); ++i) {
          meet(body.args[i + 1].get(), o, of(yield->operands[i], o));
          info_[o][op.result(unsigned(i))] = of(body.args[i + 1].get(), o);
        }
      return;
    }
    for (const auto& r : op.regions) walk(r->block);
    if (op.results.size() != 1) return;
    AxisInfo row = transfer(op, Row), reversed = transfer(op, Reversed);
    set(op.result(), Row, row);
    set(op.result(), Reversed, reversed);
  }

  // What op's result knows in order o, from its operands in the same order (a permute that
  // reverses the dims reads the other).
  AxisInfo transfer(const ir::Op& op, Order o) {
    const ir::Value* r = op.result();
    auto a = [&](size_t i) { return of(op.operands[i], o); };
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
        // Masks combined with a uniform one stay monotone (all or nothing); prefixes met or
        // joined are prefixes.
        if ((op.code == Opcode::AndI || op.code == Opcode::OrI) && r->type.elem().kind == ir::ScalarKind::I1) {
          out.monotoneGroup = std::max(std::min(x.monotoneGroup, y.constancy), std::min(x.constancy, y.monotoneGroup));
          out.prefixGroup = std::min(prefixRun(x), prefixRun(y));
        }
        break;
      }
      case Opcode::ExtSI:
      case Opcode::ExtUI:
      case Opcode::TruncI:
      case Opcode::ExpandDims: out = a(0); break;  // the same elements in the same flat order (size-1 dims move none)
      case Opcode::Reshape: {
        // Row-major by definition; reversed, the same order only when the dims other than 1 are.
        auto nonUnit = [](std::vector<int64_t> d) {
          d.erase(std::remove(d.begin(), d.end(), int64_t(1)), d.end());
          return d;
        };
        if (o == Row || nonUnit(dimsIn(op.operands[0]->type, o)) == nonUnit(dimsIn(r->type, o))) out = a(0);
        break;
      }
      case Opcode::Permute: {
        // The identity keeps the order; the reversal of every dim swaps the two orders.
        const std::vector<int64_t>& order = *op.intsAttr("order");
        bool identity = true, reversal = true;
        for (size_t d = 0; d < order.size(); ++d) {
          identity = identity && order[d] == int64_t(d);
          reversal = reversal && order[d] == int64_t(order.size() - 1 - d);
        }
        if (identity) out = a(0);
        else if (reversal) out = of(op.operands[0], o == Row ? Reversed : Row);
        break;
      }
      case Opcode::Broadcast: out = broadcast(op, o); break;
      case Opcode::Flip:   // reversed runs
      case Opcode::Cat:    // claim nothing of ops that regroup elements
      case Opcode::Join:
      case Opcode::Split: break;
      case Opcode::Select: {
        AxisInfo c = a(0), x = a(1), y = a(2);
        out.constancy = std::min({c.constancy, x.constancy, y.constancy});
        out.contiguity = std::min({c.constancy, x.contiguity, y.contiguity});
        out.divisibility = std::min(divisibilityAt(x, out.contiguity), divisibilityAt(y, out.contiguity));
        break;
      }
      case Opcode::CmpI: out = compare(op, o); break;
      default: {
        // Elementwise ops of values constant over groups are constant over the common groups
        // (not other pure ops: a dot, reduce or shape op regroups its elements).
        if (op.operands.empty() || !ir::hasTrait(op.code, ir::Elementwise) || !op.regions.empty()) break;
        out.constancy = kMax;
        for (const ir::Value* v : op.operands) out.constancy = std::min(out.constancy, of(v, o).constancy);
        break;
      }
    }
    if (op.code == Opcode::AddPtr || op.code == Opcode::AddI) out.one = false;
    return out;
  }

  AxisInfo broadcast(const ir::Op& op, Order o) {
    std::vector<int64_t> sd = dimsIn(op.operands[0]->type, o), rd = dimsIn(op.result()->type, o);
    AxisInfo s = of(op.operands[0], o), out;
    unsigned rank = unsigned(rd.size()), firstKept = 0;
    // Size-1 source dims broadcast only before all others: the source repeats whole.
    while (firstKept < rank && sd[firstKept] == 1 && rd[firstKept] != 1) ++firstKept;
    bool leadingOnly = true;
    for (unsigned d = firstKept; d < rank; ++d) leadingOnly = leadingOnly && sd[d] == rd[d];
    if (leadingOnly) {
      int64_t whole = powerOfTwoIn(op.operands[0]->type.numElements());
      return AxisInfo{std::min(s.contiguity, whole), std::min(s.constancy, whole), s.divisibility, s.one,
                      std::min(s.monotoneGroup, whole), std::min(s.prefixGroup, whole)};
    }
    // Size-1 source dims broadcast only after all others: each source element repeats.
    unsigned lastKept = rank;
    while (lastKept > 0 && sd[lastKept - 1] == 1) --lastKept;
    bool trailingOnly = true;
    for (unsigned d = 0; d < lastKept; ++d) trailingOnly = trailingOnly && sd[d] == rd[d];
    if (trailingOnly) {
      int64_t repeat = 1;
      for (unsigned d = lastKept; d < rank; ++d) repeat *= rd[d];
      out.constancy = mul(s.constancy, powerOfTwoIn(repeat));
      out.divisibility = divisibilityAt(s, 1);
      out.one = s.one;
    }
    return out;
  }

  AxisInfo compare(const ir::Op& op, Order o) {
    AxisInfo x = of(op.operands[0], o), y = of(op.operands[1], o), out;
    const std::string& pred = *op.strAttr("pred");
    out.constancy = std::min(x.constancy, y.constancy);
    // contiguous < constant (and >=; mirrored when the constant is on the left) cannot change
    // inside a group where both are multiples of its size (Triton's constancy of `offs < n`).
    bool left = x.contiguity > 1, right = y.contiguity > 1;
    if (left == right || pred == "eq" || pred == "ne") return out;
    AxisInfo c = left ? x : y, k = left ? y : x;
    int64_t group = std::min(c.contiguity, k.constancy);
    out.monotoneGroup = group;
    // Signed only: an unsigned order wraps between -1 and 0.
    if (left ? (pred == "slt" || pred == "sle") : (pred == "sgt" || pred == "sge")) out.prefixGroup = group;
    bool strict = left ? (pred == "slt" || pred == "sge" || pred == "ult" || pred == "uge")
                       : (pred == "sgt" || pred == "sle" || pred == "ugt" || pred == "ule");
    if (strict) out.constancy = std::max(out.constancy, std::min({group, divisibilityAt(c, group), divisibilityAt(k, 1)}));
    return out;
  }

  const ir::Kernel& k_;
  std::map<const ir::Value*, AxisInfo> info_[2];   // by Order
  std::map<const ir::Value*, AxisInfo> hints_[2];  // by Order: what hints promise
  bool changed_ = false;
};

}  // namespace

Axes analyzeAxes(const ir::Kernel& k, const ParamFacts& facts) { return Analysis(k, facts).run(); }

}  // namespace tilevm::codegen

// Compare.cpp - element-wise comparison of buffers (see Compare.h). Floats are compared by
// their position on the number line of their format (sign-magnitude bits made monotonic), so
// the ULP distance is exact for every format, f16 and bf16 included.
#include "runtime/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "interpreter/Elements.h"
#include "interpreter/Numeric.h"

namespace tilevm::rt {

namespace {

bool isFloatKind(ir::ScalarKind k) { return k >= ir::ScalarKind::F16 && k <= ir::ScalarKind::F64; }

unsigned bitsOf(ir::ScalarKind k) { return ir::bitWidth(k); }

uint64_t rawBits(const interp::Buffer& b, int64_t i) {
  unsigned bytes = interp::storageBytes(b.elem);
  uint64_t v = 0;
  std::memcpy(&v, b.bytes.data() + size_t(i) * bytes, bytes);  // little-endian host
  return v;
}

bool isNan(uint64_t bits, ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::F16: return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF);
    case ir::ScalarKind::BF16: return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F);
    case ir::ScalarKind::F32: return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu);
    case ir::ScalarKind::F64: return (bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (bits & 0x000FFFFFFFFFFFFFull);
    default: return false;
  }
}

// Sign-magnitude bits to a monotonic signed integer line.
int64_t ordered(uint64_t bits, unsigned width) {
  uint64_t sign = uint64_t(1) << (width - 1);
  uint64_t mag = bits & (sign - 1);
  return (bits & sign) ? -int64_t(mag) : int64_t(mag);
}

std::string valueText(const interp::Buffer& b, int64_t i) {
  interp::Tile t = interp::tileAt(ir::Type(ir::ElemType{b.elem, ir::ScalarKind::I32}, std::vector<int64_t>{b.numel()}),
                                  const_cast<uint8_t*>(b.bytes.data()));
  std::ostringstream o;
  if (isFloatKind(b.elem)) {
    o.precision(9);
    o << interp::elementAsDouble(t, i);
  } else {
    o << interp::elementAsInt(t, i);
  }
  return o.str();
}

}  // namespace

uint64_t ulpDistance(uint64_t a, uint64_t b, ir::ScalarKind kind) {
  bool na = isNan(a, kind), nb = isNan(b, kind);
  if (na || nb) return na && nb ? 0 : UINT64_MAX;
  unsigned w = bitsOf(kind);
  int64_t x = ordered(a, w), y = ordered(b, w);
  return x > y ? uint64_t(x - y) : uint64_t(y - x);
}

std::pair<double, double> defaultRelativeTolerance(ir::ScalarKind kind) {
  switch (kind) {
    case ir::ScalarKind::F16: return {1e-3, 1e-5};
    case ir::ScalarKind::BF16: return {1.6e-2, 1e-5};
    case ir::ScalarKind::F64: return {1e-7, 1e-7};
    case ir::ScalarKind::F8E5:
    case ir::ScalarKind::F8E5B16: return {0.25, 1e-5};
    case ir::ScalarKind::F8E4NV:
    case ir::ScalarKind::F8E4B15:
    case ir::ScalarKind::F8E4B8: return {0.125, 1e-5};
    default: return {1.3e-6, 1e-5};
  }
}

uint64_t defaultUlps(const ir::Kernel& k) {
  uint64_t ulps = 0;
  ir::walk(k.body.block, [&](const ir::Op& op) { ulps = std::max<uint64_t>(ulps, ir::opInfo(op.code).ulps); });
  return ulps;
}

bool reducesInAnyOrder(const ir::Kernel& k) {
  bool found = false;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    found = found || op.code == ir::Opcode::Reduce || op.code == ir::Opcode::Scan || op.code == ir::Opcode::Dot;
  });
  return found;
}

std::string orderDependence(const ir::Kernel& k) {
  bool lock = false;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    const std::string* kind = op.strAttr("kind");
    if (op.code != ir::Opcode::AtomicCas && !(op.code == ir::Opcode::AtomicRmw && kind && *kind == "xchg")) return;
    const std::string* sem = op.strAttr("sem");  // Triton's default: acq_rel
    lock = lock || !sem || *sem != "relaxed";
  });
  return lock ? "lock-ordered accumulation" : "";
}

namespace {

// Each dot operand of `k` that is a computed float rounded just before the dot: the rounding.
std::vector<const ir::Op*> roundedDotOperandOps(const ir::Kernel& k) {
  std::vector<const ir::Op*> out;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.code != ir::Opcode::Dot) return;
    for (int i = 0; i < 2; ++i) {
      const ir::Op* round = op.operands[i]->def;
      if (!round || round->code != ir::Opcode::TruncF) continue;
      const ir::Op* src = round->operands[0]->def;
      if (src && src->code == ir::Opcode::Load) continue;  // loaded data rounds alike on both engines
      out.push_back(round);
    }
  });
  return out;
}

}  // namespace

std::vector<std::string> roundedDotOperands(const ir::Module& m, const ir::Kernel& k) {
  std::vector<std::string> out;
  for (const ir::Op* round : roundedDotOperandOps(k))
    out.push_back(std::string(ir::scalarName(round->results[0]->type.elem().kind)) + " at " + m.locStr(round->loc));
  return out;
}

bool dotsInTf32(const ir::Kernel& k) {
  bool found = false;
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.code != ir::Opcode::Dot || op.operands[0]->type.elem().kind != ir::ScalarKind::F32) return;
    const std::string* prec = op.strAttr("input_precision");
    found = found || !prec || *prec == "tf32";
  });
  return found;
}

Tolerance defaultTolerance(const ir::Kernel& k) {
  Tolerance t{defaultUlps(k)};
  t.relative = t.scaleByRms = reducesInAnyOrder(k);
  t.rtol = t.atol = -1;
  t.tf32Dot = t.relative && dotsInTf32(k);
  for (const ir::Op* round : roundedDotOperandOps(k))
    t.roundedRtol = std::max(t.roundedRtol, defaultRelativeTolerance(round->results[0]->type.elem().kind).first);
  return t;
}

BufferDiff compareBuffers(const interp::Buffer& expected, const interp::Buffer& actual, const Tolerance& tol) {
  BufferDiff d;
  d.buffer = expected.name;
  if (expected.elem != actual.elem || expected.shape != actual.shape || expected.bytes.size() != actual.bytes.size()) {
    d.shapeError = "different dtypes or shapes";
    return d;
  }
  d.elements = expected.numel();
  bool isFloat = isFloatKind(expected.elem);
  d.isFloat = isFloat;
  interp::Tile te = interp::tileAt(ir::Type(ir::ElemType{expected.elem, ir::ScalarKind::I32}, std::vector<int64_t>{d.elements}),
                                   const_cast<uint8_t*>(expected.bytes.data()));
  interp::Tile ta = interp::tileAt(ir::Type(ir::ElemType{actual.elem, ir::ScalarKind::I32}, std::vector<int64_t>{d.elements}),
                                   const_cast<uint8_t*>(actual.bytes.data()));
  auto [rtol, atol] = defaultRelativeTolerance(expected.elem);  // used when tol.relative
  if (tol.tf32Dot && expected.elem == ir::ScalarKind::F32) rtol = kTf32Rtol;
  if (tol.scaleByRms) rtol = std::max(rtol, tol.roundedRtol);
  if (tol.rtol >= 0) rtol = tol.rtol;
  if (tol.atol >= 0) atol = tol.atol;
  const bool orderDependent = isFloat && !tol.orderDependent.empty();
  auto [orderRtol, orderAtol] = defaultRelativeTolerance(expected.elem);  // what a sum in another order is held to
  double rms = 0;
  if (isFloat && ((tol.relative && tol.scaleByRms) || orderDependent) && d.elements > 0) {
    double sum = 0;
    int64_t finite = 0;
    for (int64_t i = 0; i < d.elements; ++i) {
      double x = interp::elementAsDouble(te, i);
      if (std::isfinite(x)) sum += x * x, ++finite;
    }
    rms = finite ? std::sqrt(sum / double(finite)) : 0;
  }
  for (int64_t i = 0; i < d.elements; ++i) {
    uint64_t a = rawBits(expected, i), b = rawBits(actual, i);
    if (a == b) continue;
    uint64_t ulps = isFloat ? ulpDistance(a, b, expected.elem) : 1;
    if (isFloat && ulps <= tol.maxUlps) continue;
    if (isFloat && tol.relative && ulps != UINT64_MAX) {
      double x = interp::elementAsDouble(te, i), y = interp::elementAsDouble(ta, i);
      if (std::fabs(y - x) <= atol + rtol * (std::fabs(x) + rms) || (std::isinf(x) && x == y)) continue;
    }
    if (orderDependent && ulps != UINT64_MAX) {
      double x = interp::elementAsDouble(te, i), y = interp::elementAsDouble(ta, i);
      if (std::isfinite(x) && std::isfinite(y) && std::fabs(y - x) <= orderAtol + orderRtol * (std::fabs(x) + rms)) {
        ++d.orderDependent;
        d.orderMaxUlps = std::max(d.orderMaxUlps, ulps);
        d.orderReason = tol.orderDependent;
        continue;
      }
    }
    ++d.mismatches;
    d.maxUlps = std::max(d.maxUlps, ulps);
    double err = isFloat ? std::fabs(interp::elementAsDouble(te, i) - interp::elementAsDouble(ta, i))
                         : std::fabs(double(interp::elementAsInt(te, i)) - double(interp::elementAsInt(ta, i)));
    if (!std::isnan(err)) d.maxAbsError = std::max(d.maxAbsError, err);
    if (!d.first) {
      BufferDiff::Element e;
      e.flat = i;
      int64_t rest = i;
      e.index.assign(expected.shape.size(), 0);
      for (size_t k = expected.shape.size(); k-- > 0;) {
        e.index[k] = rest % expected.shape[k];
        rest /= expected.shape[k];
      }
      e.expected = valueText(expected, i);
      e.actual = valueText(actual, i);
      e.ulps = ulps;
      d.first = e;
    }
  }
  return d;
}

std::string describe(const BufferDiff& d) {
  std::ostringstream o;
  if (!d.shapeError.empty()) {
    o << "  " << d.buffer << ": FAIL: " << d.shapeError << "\n";
    return o.str();
  }
  if (!d.first && d.orderDependent) {
    o << "  " << d.buffer << ": order-dependent (" << d.orderReason << "): max " << d.orderMaxUlps << " ulp; " << d.orderDependent
      << " of " << d.elements << " elements differ within the summation-order tolerance\n";
    return o.str();
  }
  if (!d.first) {
    o << "  " << d.buffer << ": same (" << d.elements << " elements)\n";
    return o.str();
  }
  const auto& e = *d.first;
  o << "  " << d.buffer << ": FAIL: first divergence at " << d.buffer << "[";
  for (size_t k = 0; k < e.index.size(); ++k) o << (k ? ", " : "") << e.index[k];
  o << "]: expected " << e.expected << ", got " << e.actual;
  if (e.ulps == UINT64_MAX) o << " (NaN in one run only)";
  else if (d.isFloat) o << " (" << e.ulps << " ulp)";
  o << "; " << d.mismatches << " of " << d.elements << " elements differ, max abs error " << d.maxAbsError << "\n";
  return o.str();
}

}  // namespace tilevm::rt

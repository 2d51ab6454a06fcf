// Fp8Test.cpp - the fp8 formats (ir/Fp8.h) against a reference written here another way: all
// 256 bit patterns decoded by the textbook formula, and rounding checked by a brute-force search
// for the nearest of the 256 values (ties to the even pattern, saturation at the largest).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "ir/Fp8.h"

using namespace tilevm::ir;

namespace {

struct Spec {
  ScalarKind kind;
  int e, m, bias;
  bool ieeeInf;  // all-ones exponent: inf (m = 0) and NaN
  bool fnuz;     // 0x80 the only NaN, no -0
  double max;    // the largest finite value, from the formats' definitions
};

const Spec kSpecs[] = {
    {ScalarKind::F8E5, 5, 2, 15, true, false, 57344.0},
    {ScalarKind::F8E4NV, 4, 3, 7, false, false, 448.0},
    {ScalarKind::F8E4B15, 4, 3, 15, false, false, 1.75},
    {ScalarKind::F8E5B16, 5, 2, 16, false, true, 57344.0},
    {ScalarKind::F8E4B8, 4, 3, 8, false, true, 240.0},
};

// (-1)^s 2^(E - bias) (1 + M / 2^m), or 2^(1 - bias) M / 2^m for E = 0; NaN per the format.
double reference(const Spec& s, unsigned bits) {
  unsigned sign = bits >> 7, E = (bits >> s.m) & ((1u << s.e) - 1), M = bits & ((1u << s.m) - 1);
  if (s.fnuz && bits == 0x80) return NAN;
  if (s.ieeeInf && E == (1u << s.e) - 1) return M ? NAN : (sign ? -INFINITY : INFINITY);
  if (!s.ieeeInf && !s.fnuz && E == (1u << s.e) - 1 && M == (1u << s.m) - 1) return NAN;
  double mag = E == 0 ? std::pow(2.0, 1 - s.bias) * (M / std::pow(2.0, s.m))
                      : std::pow(2.0, int(E) - s.bias) * (1.0 + M / std::pow(2.0, s.m));
  return sign ? -mag : mag;
}

// The pattern nearest x among the finite values (ties: the even pattern), saturating; what
// cvt.rn.satfinite computes.
unsigned nearest(const Spec& s, double x) {
  if (std::isnan(x)) return s.fnuz ? 0x80 : 0x7f;
  if (x > s.max) x = s.max;
  if (x < -s.max) x = -s.max;
  unsigned best = 0;
  double bestErr = INFINITY;
  for (unsigned b = 0; b < 256; ++b) {
    double v = reference(s, b);
    if (!std::isfinite(v)) continue;
    if (v == 0 && std::signbit(v) != std::signbit(x) && !s.fnuz) continue;  // zero keeps x's sign
    double err = std::fabs(v - x);
    if (err < bestErr || (err == bestErr && (b & 1) == 0 && (best & 1) == 1)) {
      best = b;
      bestErr = err;
    }
  }
  return best;
}

}  // namespace

TEST_CASE("fp8: every bit pattern decodes as the formula says", "[fp8]") {
  for (const Spec& s : kSpecs) {
    INFO(scalarName(s.kind));
    CHECK(fp8MaxFinite(s.kind) == s.max);
    for (unsigned b = 0; b < 256; ++b) {
      INFO("bits " << b);
      double want = reference(s, b), got = fp8ToDouble(uint8_t(b), s.kind);
      if (std::isnan(want)) CHECK(std::isnan(got));
      else CHECK((got == want && std::signbit(got) == std::signbit(want)));
    }
  }
  // Spot values of the definitions (OCP fp8, e4m3fn and e5m2).
  CHECK(fp8ToDouble(0x7e, ScalarKind::F8E4NV) == 448.0);
  CHECK(fp8ToDouble(0x01, ScalarKind::F8E4NV) == std::ldexp(1.0, -9));
  CHECK(fp8ToDouble(0x7b, ScalarKind::F8E5) == 57344.0);
  CHECK(fp8ToDouble(0x01, ScalarKind::F8E5) == std::ldexp(1.0, -16));
  CHECK(std::isinf(fp8ToDouble(0x7c, ScalarKind::F8E5)));
  CHECK(fp8ToDouble(0x38, ScalarKind::F8E4NV) == 1.0);
  CHECK(fp8ToDouble(0x3c, ScalarKind::F8E5) == 1.0);
}

TEST_CASE("fp8: every finite value encodes back to its pattern", "[fp8]") {
  for (const Spec& s : kSpecs)
    for (unsigned b = 0; b < 256; ++b) {
      double v = reference(s, b);
      if (!std::isfinite(v)) continue;
      INFO(scalarName(s.kind) << " bits " << b);
      CHECK(unsigned(fp8FromDouble(v, s.kind)) == (s.fnuz && v == 0 ? 0u : b));
    }
}

TEST_CASE("fp8: random f32 values round to the nearest, ties to even, saturating", "[fp8]") {
  std::mt19937 rng(20);
  for (const Spec& s : kSpecs) {
    INFO(scalarName(s.kind));
    std::uniform_real_distribution<double> logMag(std::log2(s.max) - 30, std::log2(s.max) + 3);
    for (int i = 0; i < 4000; ++i) {
      float x = float(std::ldexp(1.0, 0) * std::exp2(logMag(rng)) * (rng() & 1 ? -1 : 1));
      INFO("x " << x);
      CHECK(unsigned(fp8FromDouble(x, s.kind)) == nearest(s, x));
    }
    // Exact midpoints between neighbours: ties go to the even pattern.
    for (unsigned b = 0; b + 1 < 256; ++b) {
      double lo = reference(s, b), hi = reference(s, b + 1);
      if (!std::isfinite(lo) || !std::isfinite(hi) || std::signbit(lo) || lo == hi) continue;
      double mid = (lo + hi) / 2;
      INFO("midpoint of " << b << " and " << b + 1);
      CHECK(unsigned(fp8FromDouble(mid, s.kind)) == nearest(s, mid));
      CHECK((fp8FromDouble(mid, s.kind) & 1) == 0);
    }
    // Beyond the largest finite value and the infinities saturate; NaN stays NaN.
    CHECK(fp8ToDouble(fp8FromDouble(s.max * 4, s.kind), s.kind) == s.max);
    CHECK(fp8ToDouble(fp8FromDouble(-INFINITY, s.kind), s.kind) == -s.max);
    CHECK(std::isnan(fp8ToDouble(fp8FromDouble(NAN, s.kind), s.kind)));
  }
  CHECK(fp8FromDouble(464.0, ScalarKind::F8E4NV) == 0x7e);  // the midpoint 448..480 saturates
  CHECK(fp8FromDouble(-0.0, ScalarKind::F8E4B8) == 0x00);   // fnuz: no -0
}

// SpecialMath.h - the interpreter's erfinv, erfcinv, normcdf and normcdfinv (libdevice has them;
// C++ does not): computed in long double (x86-64's 64-bit significand) and rounded once to the
// operand's type, so f32 and f64 results are within an ulp of the true value. The inverses start
// from a rough guess and take Newton steps on erf / erfc, which converge quadratically.
#pragma once

#include <cmath>
#include <limits>

namespace tilevm::interp {

namespace special {

inline constexpr long double kTwoOverSqrtPi = 1.1283791670955125738961589031215452L;
inline constexpr long double kSqrt2 = 1.4142135623730950488016887242096981L;

// x > 0 with erfc(x) = c, for 0 < c <= 1 (x from 0 to about 106.5 for c = 2^-16445).
inline long double erfcinvPositive(long double c) {
  // A guess from erfc(x) ~ exp(-x^2) / (x sqrt(pi)) in the tail, 0.9 c's complement near 0.
  long double x = c > 0.5L ? (1 - c) * 0.886226925L : std::sqrt(-std::log(c * 1.7724538509L));
  if (c <= 0.5L && x > 1) x = std::sqrt(-std::log(c * 1.7724538509L * x));
  for (int i = 0; i < 60; ++i) {
    long double step = (std::erfc(x) - c) / (kTwoOverSqrtPi * std::exp(-x * x));  // erfc' = -2/sqrt(pi) e^-x^2
    x += step;
    if (std::fabs(step) <= std::fabs(x) * 1e-19L) break;
  }
  return x;
}

}  // namespace special

/// erfc's inverse on [0, 2]: +inf at 0, -inf at 2, NaN outside.
inline long double erfcinv(long double c) {
  if (std::isnan(c) || c < 0 || c > 2) return std::numeric_limits<long double>::quiet_NaN();
  if (c == 0) return std::numeric_limits<long double>::infinity();
  if (c == 2) return -std::numeric_limits<long double>::infinity();
  if (c == 1) return 0;
  return c < 1 ? special::erfcinvPositive(c) : -special::erfcinvPositive(2 - c);
}

/// erf's inverse on [-1, 1]: through erfc for |y| near 1, where 1 - |y| is exact.
inline long double erfinv(long double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<long double>::quiet_NaN();
  if (y == 0) return y;  // keeps -0
  if (y == 1 || y == -1) return y * std::numeric_limits<long double>::infinity();
  long double x = y > 0 ? special::erfcinvPositive(1 - y) : -special::erfcinvPositive(1 + y);
  // Near 0, 1 - y loses y's low bits: finish with Newton steps on erf itself.
  if (std::fabs(y) < 0.5L)
    for (int i = 0; i < 4; ++i) x -= (std::erf(x) - y) / (special::kTwoOverSqrtPi * std::exp(-x * x));
  return x;
}

/// The standard normal distribution function.
inline long double normcdf(long double x) { return 0.5L * std::erfc(-x / special::kSqrt2); }

/// Its inverse on [0, 1]: -sqrt(2) erfcinv(2 p).
inline long double normcdfinv(long double p) {
  long double r = -special::kSqrt2 * erfcinv(2 * p);
  return r == 0 ? 0 : r;  // +0 at p = 1/2
}

}  // namespace tilevm::interp

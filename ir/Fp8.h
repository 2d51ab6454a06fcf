// Fp8.h - the fp8 storage formats' values: decoding a byte to double and encoding a double to
// a byte with round-to-nearest-even and saturation (what PTX cvt.rn.satfinite does).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "ir/Types.h"

namespace tilevm::ir {

/// The largest finite value of an fp8 kind (e5m2 57344, e4m3fn 448, e4b15 1.75, e5m2fnuz
/// 57344, e4m3fnuz 240).
inline double fp8MaxFinite(ScalarKind k) {
  Fp8Format f = fp8Format(k);
  int expMax = (1 << f.expBits) - (f.special == Fp8Format::Ieee ? 2 : 1);
  int manMax = (1 << f.manBits) - (f.special == Fp8Format::NanOnlyAllOnes ? 2 : 1);
  return std::ldexp(1.0 + std::ldexp(double(manMax), -int(f.manBits)), expMax - f.bias);
}

/// The value of fp8 bits (exact in double; NaN for the NaN encodings, +-inf for e5m2's).
inline double fp8ToDouble(uint8_t bits, ScalarKind k) {
  Fp8Format f = fp8Format(k);
  unsigned man = bits & ((1u << f.manBits) - 1), exp = (bits >> f.manBits) & ((1u << f.expBits) - 1);
  bool neg = bits & 0x80;
  unsigned expOnes = (1u << f.expBits) - 1, manOnes = (1u << f.manBits) - 1;
  if (f.special == Fp8Format::Fnuz && bits == 0x80) return std::numeric_limits<double>::quiet_NaN();
  if (f.special == Fp8Format::Ieee && exp == expOnes)
    return man ? std::numeric_limits<double>::quiet_NaN() : (neg ? -INFINITY : INFINITY);
  if (f.special == Fp8Format::NanOnlyAllOnes && exp == expOnes && man == manOnes)
    return std::numeric_limits<double>::quiet_NaN();
  double v = exp == 0 ? std::ldexp(double(man), 1 - f.bias - int(f.manBits))
                      : std::ldexp(double((1u << f.manBits) | man), int(exp) - f.bias - int(f.manBits));
  return neg ? -v : v;
}

/// The fp8 bits nearest to v, ties to even; a finite value beyond the largest finite one and
/// +-inf give +-max (saturation), NaN gives the canonical NaN (0x7f; 0x80 for the fnuz kinds,
/// which also have no -0: a negative result that rounds to zero is +0).
inline uint8_t fp8FromDouble(double v, ScalarKind k) {
  Fp8Format f = fp8Format(k);
  if (std::isnan(v)) return f.special == Fp8Format::Fnuz ? 0x80 : 0x7f;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  double a = std::fabs(v), maxFinite = fp8MaxFinite(k);
  int emin = 1 - f.bias, m = int(f.manBits);
  double r = 0;  // a rounded to the format's precision (unbounded exponent range above)
  if (a != 0 && std::isfinite(a)) {
    int e;
    std::frexp(a, &e);  // a = frac * 2^e, frac in [0.5, 1)
    int q = std::max(e - 1, emin) - m;  // the exponent of one unit in the last place
    r = std::ldexp(std::nearbyint(std::ldexp(a, -q)), q);  // nearbyint: ties to even
  }
  if (!std::isfinite(a) || r > maxFinite) r = maxFinite;
  if (r == 0) return f.special == Fp8Format::Fnuz ? 0 : sign;
  uint8_t bits;
  if (r < std::ldexp(1.0, emin)) {
    bits = uint8_t(std::ldexp(r, m - emin));  // subnormal: exponent field 0
  } else {
    int e;
    std::frexp(r, &e);
    int unbiased = e - 1;
    unsigned man = unsigned(std::ldexp(r, m - unbiased)) - (1u << m);
    bits = uint8_t((unsigned(unbiased + f.bias) << m) | man);
  }
  return uint8_t(sign | bits);
}

}  // namespace tilevm::ir

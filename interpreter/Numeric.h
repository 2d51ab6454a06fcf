// Numeric.h - element storage types and the conversions the contract fixes: f16/bf16 to and
// from f32 with round-to-nearest-even, tf32 input rounding, saturating float-to-int.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ir/Fp8.h"
#include "ir/Types.h"

namespace tilevm::interp {

/// f16 and bf16 are stored as their bits.
struct Half { uint16_t bits; };
struct BFloat { uint16_t bits; };

inline float bitsToFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint32_t floatToBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

/// IEEE binary16 -> binary32 (exact).
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return bitsToFloat(sign | 0x7f800000 | (man << 13));
  if (exp == 0) {
    if (man == 0) return bitsToFloat(sign);
    float f = std::ldexp(float(man), -24);  // subnormal
    return sign ? -f : f;
  }
  return bitsToFloat(sign | ((exp + 112) << 23) | (man << 13));
}

/// binary32 -> binary16, round to nearest even (overflow to inf, NaN kept quiet).
inline uint16_t floatToHalf(float f) {
  uint32_t x = floatToBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t absx = x & 0x7fffffff;
  if (absx > 0x7f800000) return uint16_t(sign | 0x7e00 | ((absx >> 13) & 0x3ff));  // NaN
  if (absx >= 0x477ff000) return uint16_t(sign | 0x7c00);                           // overflow -> inf
  if (absx < 0x38800000) {                                                           // subnormal or zero
    // value = absx as float; half subnormal unit is 2^-24.
    float a = bitsToFloat(absx);
    float scaled = a * 16777216.0f;  // exact: multiply by 2^24
    // round to nearest even integer
    float r = std::nearbyint(scaled);
    return uint16_t(sign | uint16_t(r));
  }
  uint32_t exp = (absx >> 23) - 112, man = absx & 0x7fffff;
  uint32_t h = (exp << 10) | (man >> 13);
  uint32_t rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // may carry into the exponent: correct
  return uint16_t(sign | h);
}

inline float bf16ToFloat(uint16_t b) { return bitsToFloat(uint32_t(b) << 16); }
inline uint16_t floatToBf16(float f) {
  uint32_t x = floatToBits(f);
  if ((x & 0x7fffffff) > 0x7f800000) return uint16_t((x >> 16) | 0x40);  // quiet NaN
  x += 0x7fff + ((x >> 16) & 1);
  return uint16_t(x >> 16);
}
inline uint16_t floatToBf16Rtz(float f) { return uint16_t(floatToBits(f) >> 16); }
inline uint16_t floatToHalfRtz(float f) {
  uint16_t h = floatToHalf(f);
  // Step toward zero if rounding went away from zero.
  float back = halfToFloat(h);
  if (std::isfinite(f) && std::fabs(back) > std::fabs(f)) h = uint16_t(h - 1);
  if (std::isinf(halfToFloat(h)) && std::isfinite(f)) h = uint16_t((h & 0x8000) | 0x7bff);
  return h;
}

/// tf32: keep 10 mantissa bits, round to nearest (ties away, as cvt.rna.tf32.f32 does).
inline float roundToTf32(float f) {
  uint32_t x = floatToBits(f);
  if ((x & 0x7f800000) == 0x7f800000) return f;
  x += 0x1000;
  x &= 0xffffe000;
  return bitsToFloat(x);
}

/// Float to integer toward zero, saturating; NaN gives 0 (what PTX cvt.rzi does).
template <typename I>
I saturatingCast(double v) {
  if (std::isnan(v)) return 0;
  if (v <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

/// fmax / fmin with glibc's exact behaviour (the first operand on ties, the number when one is
/// NaN), inline so that loops over them vectorize instead of calling libm per element.
template <typename C>
inline C maxNum(C x, C y) {
  if (x >= y) return x;
  if (x < y) return y;
  return std::isnan(x) ? y : x;
}
template <typename C>
inline C minNum(C x, C y) {
  if (x <= y) return x;
  if (x > y) return y;
  return std::isnan(x) ? y : x;
}

/// Bytes per element in interpreter storage (i1 takes a byte; pointers 8).
inline unsigned storageBytes(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::I1:
    case ir::ScalarKind::I8:
    case ir::ScalarKind::F8E5:
    case ir::ScalarKind::F8E4NV:
    case ir::ScalarKind::F8E4B15:
    case ir::ScalarKind::F8E5B16:
    case ir::ScalarKind::F8E4B8: return 1;
    case ir::ScalarKind::I16:
    case ir::ScalarKind::F16:
    case ir::ScalarKind::BF16: return 2;
    case ir::ScalarKind::I32:
    case ir::ScalarKind::F32: return 4;
    case ir::ScalarKind::I64:
    case ir::ScalarKind::F64:
    case ir::ScalarKind::Ptr: return 8;
  }
  return 8;
}

}  // namespace tilevm::interp

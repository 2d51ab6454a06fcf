// FastMath.h - exp and exp2 for f32 (and f16/bf16, computed in f32) as plain double arithmetic
// that loops vectorize, instead of a libm call per element. 2^t is split as 2^k * 2^f with k the
// nearest integer and |f| <= 1/2; 2^f comes from its Taylor series to degree 8 (relative error
// below 2^-32, a hundredth of a float ulp) and is rounded to float once, so results are within
// 1 ulp of the true value (InterpOpsTest checks it) and independent of the CPU: no FMA, no
// table, no libm. tf32 rounding of dot inputs, f16/bf16 conversions and a blocked transpose
// live here too.
// (-fno-trapping-math lets the clamps if-convert, so the loop vectorizes.)
#pragma once

#include <cstdint>
#include <bit>
#include <cstring>

namespace tilevm::interp {

/// 2^t rounded to float (overflow to inf, underflow to 0 and NaN as IEEE says).
inline float exp2ToFloat(double t) {
  const bool nan = t != t;
  // Beyond these, the float result is inf or 0 already; clamping keeps 2^k a normal double.
  t = t < -160.0 ? -160.0 : t > 130.0 ? 130.0 : t;
  // Round to the nearest integer with the 1.5 * 2^52 trick: k ends up in the low bits.
  const double shifter = 6755399441055744.0;
  double kd = t + shifter;
  const uint64_t kbits = std::bit_cast<uint64_t>(kd);
  kd -= shifter;
  const double f = t - kd;
  // 2^f = e^(f ln 2): Taylor coefficients ln2^i / i!, evaluated in Estrin's form (pairs,
  // then pairs of pairs): half the dependent steps of Horner's, the same accuracy.
  const double f2 = f * f, f4 = f2 * f2, f8 = f4 * f4;
  const double q01 = 1.0 + 0.6931471805599453 * f, q23 = 0.2402265069591007 + 0.055504108664821576 * f;
  const double q45 = 0.009618129107628477 + 0.0013333558146428441 * f;
  const double q67 = 0.00015403530393381606 + 1.5252733804059838e-05 * f;
  const double r03 = q01 + q23 * f2, r47 = q45 + q67 * f2;
  const double p = (r03 + r47 * f4) + 1.3215486790144305e-06 * f8;
  // Multiply by 2^k through the exponent field.
  const double r = std::bit_cast<double>(std::bit_cast<uint64_t>(p) + (kbits << 52));
  return nan ? float(t) : float(r);
}

/// 2^t rounded to float with subnormal results flushed to +0, as tl.exp2 on the GPU
/// (`ex2.approx.ftz.f32`, Triton's libdevice exp2 under its ftz reflect): the one f32 function
/// whose GPU form flushes, so the interpreter flushes it too and diff compares like with like.
inline float exp2ToFloatFtz(double t) {
  const float r = exp2ToFloat(t);
  return r < 0x1p-126f ? 0.0f : r;  // exp2 is never negative; NaN compares false and stays
}

/// log2(e), the factor that turns exp into exp2.
inline constexpr double kLog2E = 1.4426950408889634;

/// e^x rounded to float.
inline float expToFloat(double x) { return exp2ToFloat(x * kLog2E); }

/// o[i] = 2^(x[i] * scale) rounded to float, for n elements: a vectorized loop, in an AVX2
/// or AVX-512 clone where the CPU has it (the same IEEE double operations, so the same bits).
/// o may be x (in place). With `ftz`, subnormal results are flushed to +0 (exp2ToFloatFtz).
void exp2Floats(const float* x, float* o, int64_t n, double scale, bool ftz);

/// o[i] = x[i] rounded to tf32 (10 mantissa bits, to nearest with ties away from zero, as
/// PTX cvt.rna.tf32.f32; inf and NaN unchanged), for n elements: vectorized. Returns whether
/// every result is 0 or has magnitude in [2^-63, 2^63): then any product of two of them is
/// exact in f32 (at most 22 significant bits, within the normal range).
bool roundToTf32Floats(const float* x, float* o, int64_t n);

/// f16/bf16 <-> f32 conversions of n elements, exactly as halfToFloat / floatToHalf /
/// bf16ToFloat / floatToBf16 (Numeric.h) do element by element (round to nearest even, NaN kept
/// quiet), written without branches so the loops vectorize (AVX2 / AVX-512 clones). f16 uses
/// F16C's instructions where the CPU has them (nearly every x86-64 since 2013), else the
/// portable loops (both exposed, so tests check each).
void halfToFloats(const uint16_t* x, float* o, int64_t n);
void floatsToHalf(const float* x, uint16_t* o, int64_t n);
void halfToFloatsPortable(const uint16_t* x, float* o, int64_t n);
void floatsToHalfPortable(const float* x, uint16_t* o, int64_t n);
void bf16ToFloats(const uint16_t* x, float* o, int64_t n);
void floatsToBf16(const float* x, uint16_t* o, int64_t n);

/// Transposes a matrix of 4-byte elements: src has `rows` rows `srcStride` bytes apart, `cols`
/// contiguous elements each; dst (cols x rows, dense) gets dst[c * rows + r] = src[r][c]. In
/// 8x8 blocks in AVX2 registers where the CPU has them.
void transpose32(const uint8_t* src, int64_t srcStride, int64_t rows, int64_t cols, uint32_t* dst);

}  // namespace tilevm::interp

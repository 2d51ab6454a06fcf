// FastMath.cpp - the vectorized loops of FastMath.h, cloned for AVX-512 and AVX2 (chosen at load
// time).
#include "interpreter/FastMath.h"

#include <immintrin.h>

namespace tilevm::interp {

__attribute__((target_clones("avx512f", "avx2", "default"))) void exp2Floats(const float* x, float* o, int64_t n,
                                                                    double scale, bool ftz) {
  if (ftz)
    for (int64_t i = 0; i < n; ++i) o[i] = exp2ToFloatFtz(double(x[i]) * scale);
  else
    for (int64_t i = 0; i < n; ++i) o[i] = exp2ToFloat(double(x[i]) * scale);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void halfToFloatsPortable(const uint16_t* __restrict x,
                                                                     float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t h = x[i], sign = (h & 0x8000u) << 16, em = h & 0x7fffu, exp = em >> 10;
    const uint32_t normal = (em << 13) + 0x38000000u;            // rebias 15 -> 127
    const uint32_t special = normal + 0x38000000u;               // exponent 31 -> 255 (inf, NaN)
    const uint32_t sub = std::bit_cast<uint32_t>(float(em) * 0x1p-24f);  // subnormal (and 0): exact
    const uint32_t r = exp == 0 ? sub : exp == 31 ? special : normal;
    o[i] = std::bit_cast<float>(r | sign);
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void floatsToHalfPortable(const float* __restrict x,
                                                                     uint16_t* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = std::bit_cast<uint32_t>(x[i]), sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    const uint32_t nan = sign | 0x7e00u | ((a >> 13) & 0x3ffu);
    const uint32_t inf = sign | 0x7c00u;
    // Below 2^-14: a multiple of 2^-24, rounded to nearest even by adding and removing 2^23.
    const float scaled = a < 0x38800000u ? std::bit_cast<float>(a) * 16777216.0f : 0.0f;  // only used there: no out-of-range cast
    const uint32_t sub = sign | uint32_t((scaled + 8388608.0f) - 8388608.0f);
    const uint32_t man = a & 0x7fffffu, h = (((a >> 23) - 112u) << 10) | (man >> 13), rest = man & 0x1fffu;
    const uint32_t normal = sign | (h + uint32_t(rest > 0x1000u || (rest == 0x1000u && (h & 1u))));
    const uint32_t r = a > 0x7f800000u ? nan : a >= 0x477ff000u ? inf : a < 0x38800000u ? sub : normal;
    o[i] = uint16_t(r);
  }
}

namespace {

// F16C's conversions (vcvtph2ps, vcvtps2ph with round-to-nearest-even) are exact IEEE
// conversions, 8 lanes an instruction: 3-4x the portable loops on f16 layer norm's loads and
// store. One difference is mended: vcvtph2ps quiets a signaling NaN, where the reference keeps
// its bits (a NaN half becomes the f32 NaN with the same payload), so NaN lanes are blended
// back. vcvtps2ph already gives the reference's quiet NaN with the payload's top bits.
__attribute__((target("avx2,f16c"))) void halfToFloatsF16c(const uint16_t* x, float* o, int64_t n) {
  int64_t i = 0;
  const __m256i magnitude = _mm256_set1_epi32(0x7fff), inf = _mm256_set1_epi32(0x7c00);
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i));
    __m256 f = _mm256_cvtph_ps(h);
    __m256i w = _mm256_cvtepu16_epi32(h);
    __m256i isNan = _mm256_cmpgt_epi32(_mm256_and_si256(w, magnitude), inf);
    if (!_mm256_testz_si256(isNan, isNan)) {
      __m256i sign = _mm256_slli_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x8000)), 16);
      __m256i payload = _mm256_slli_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x3ff)), 13);
      __m256i kept = _mm256_or_si256(_mm256_or_si256(sign, payload), _mm256_set1_epi32(0x7f800000));
      f = _mm256_blendv_ps(f, _mm256_castsi256_ps(kept), _mm256_castsi256_ps(isNan));
    }
    _mm256_storeu_ps(o + i, f);
  }
  halfToFloatsPortable(x + i, o + i, n - i);
}

__attribute__((target("avx2,f16c"))) void floatsToHalfF16c(const float* x, uint16_t* o, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
  floatsToHalfPortable(x + i, o + i, n - i);
}

bool hasF16c() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  return yes;
}

}  // namespace

void halfToFloats(const uint16_t* x, float* o, int64_t n) {
  if (hasF16c()) halfToFloatsF16c(x, o, n);
  else halfToFloatsPortable(x, o, n);
}

void floatsToHalf(const float* x, uint16_t* o, int64_t n) {
  if (hasF16c()) floatsToHalfF16c(x, o, n);
  else floatsToHalfPortable(x, o, n);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void bf16ToFloats(const uint16_t* __restrict x,
                                                                     float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = std::bit_cast<float>(uint32_t(x[i]) << 16);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void floatsToBf16(const float* __restrict x,
                                                                     uint16_t* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = std::bit_cast<uint32_t>(x[i]);
    const uint32_t rounded = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16, nan = (b >> 16) | 0x40u;
    o[i] = uint16_t((b & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) bool roundToTf32Floats(const float* __restrict x,
                                                                          float* __restrict o, int64_t n) {
  uint32_t outside = 0;  // nonzero: some result is outside [2^-63, 2^63) and not 0
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = std::bit_cast<uint32_t>(x[i]);
    const uint32_t r = (b & 0x7f800000u) == 0x7f800000u ? b : (b + 0x1000u) & 0xffffe000u;
    o[i] = std::bit_cast<float>(r);
    const uint32_t magnitude = r & 0x7fffffffu, exponent = magnitude >> 23;  // biased: 2^-63 is 64, 2^63 is 190
    outside |= uint32_t(magnitude != 0) & uint32_t(exponent - 64u > 125u);
  }
  return outside == 0;
}

namespace {

// One 8x8 block: dst row k (dstStride elements apart) = src column k (src rows srcStride bytes apart).
__attribute__((target("avx2"))) void transpose8x8(const uint8_t* src, int64_t srcStride, uint32_t* dst, int64_t dstStride) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(reinterpret_cast<const float*>(src + i * srcStride));
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int i = 0; i < 4; ++i) {
    _mm256_storeu_ps(reinterpret_cast<float*>(dst + i * dstStride), _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(reinterpret_cast<float*>(dst + (i + 4) * dstStride), _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}

}  // namespace

void transpose32(const uint8_t* src, int64_t srcStride, int64_t rows, int64_t cols, uint32_t* dst) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  const int64_t rowBlocks = avx2 ? rows - rows % 8 : 0, colBlocks = avx2 ? cols - cols % 8 : 0;
  for (int64_t r0 = 0; r0 < rowBlocks; r0 += 8)
    for (int64_t c0 = 0; c0 < colBlocks; c0 += 8) transpose8x8(src + r0 * srcStride + c0 * 4, srcStride, dst + c0 * rows + r0, rows);
  // What the blocks left: the last cols % 8 columns of every row, and the last rows % 8 rows.
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = (r < rowBlocks ? colBlocks : 0); c < cols; ++c)
      std::memcpy(dst + c * rows + r, src + r * srcStride + c * 4, 4);
}

}  // namespace tilevm::interp

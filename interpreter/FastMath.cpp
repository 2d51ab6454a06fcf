// FastMath.cpp - the vectorized loops of FastMath.h, cloned for AVX-512 and AVX2 (chosen at load
// time).
#include "interpreter/FastMath.h"

namespace tilevm::interp {

__attribute__((target_clones("avx512f", "avx2", "default"))) void exp2Floats(const float* __restrict x, float* __restrict o,
                                                                    int64_t n, double scale) {
  for (int64_t i = 0; i < n; ++i) o[i] = exp2ToFloat(double(x[i]) * scale);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void roundToTf32Floats(const float* __restrict x,
                                                                          float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = std::bit_cast<uint32_t>(x[i]);
    const uint32_t rounded = (b + 0x1000u) & 0xffffe000u;
    o[i] = std::bit_cast<float>((b & 0x7f800000u) == 0x7f800000u ? b : rounded);
  }
}

}  // namespace tilevm::interp

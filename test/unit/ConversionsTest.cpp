// ConversionsTest.cpp - the vectorized f16/bf16 <-> f32 conversions (FastMath.h) against the
// element-by-element reference (Numeric.h): every half and every bf16 value, and floats at every
// rounding boundary (ties to even, just above and below, subnormal edges, overflow edges, NaNs)
// plus random bit patterns.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "interpreter/FastMath.h"
#include "interpreter/Numeric.h"

using namespace tilevm;

namespace {

uint32_t bitsOf(float f) { return interp::floatToBits(f); }

std::vector<float> boundaryFloats() {
  std::vector<float> v;
  for (uint32_t e = 0; e < 256; ++e)
    for (uint32_t m : {0u, 1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu, 0x2000u, 0x3000u, 0x7fffu, 0x8000u, 0x8001u, 0x17fffu,
                       0x7fe000u, 0x7fefffu, 0x7ff000u, 0x7ff001u, 0x7fffffu, 0x400000u, 0x401000u})
      for (uint32_t sign : {0u, 0x80000000u}) v.push_back(interp::bitsToFloat(sign | (e << 23) | m));
  std::mt19937 rng(12345);
  for (int i = 0; i < 200000; ++i) v.push_back(interp::bitsToFloat(uint32_t(rng())));
  return v;
}

}  // namespace

TEST_CASE("halfToFloats and bf16ToFloats equal the reference on every 16-bit pattern") {
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i) all[i] = uint16_t(i);
  std::vector<float> h(65536), p(65536), b(65536);
  interp::halfToFloats(all.data(), h.data(), 65536);  // F16C where the CPU has it
  interp::halfToFloatsPortable(all.data(), p.data(), 65536);
  interp::bf16ToFloats(all.data(), b.data(), 65536);
  int64_t wrong = 0;
  for (uint32_t i = 0; i < 65536; ++i) {
    wrong += bitsOf(h[i]) != bitsOf(interp::halfToFloat(uint16_t(i)));
    wrong += bitsOf(p[i]) != bitsOf(interp::halfToFloat(uint16_t(i)));
    wrong += bitsOf(b[i]) != bitsOf(interp::bf16ToFloat(uint16_t(i)));
  }
  CHECK(wrong == 0);
}

TEST_CASE("floatsToHalf and floatsToBf16 round exactly as the reference") {
  std::vector<float> v = boundaryFloats();
  std::vector<uint16_t> h(v.size()), p(v.size()), b(v.size());
  interp::floatsToHalf(v.data(), h.data(), int64_t(v.size()));  // F16C where the CPU has it
  interp::floatsToHalfPortable(v.data(), p.data(), int64_t(v.size()));
  interp::floatsToBf16(v.data(), b.data(), int64_t(v.size()));
  int64_t wrongHalf = 0, wrongBf16 = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    wrongHalf += h[i] != interp::floatToHalf(v[i]);
    wrongHalf += p[i] != interp::floatToHalf(v[i]);
    wrongBf16 += b[i] != interp::floatToBf16(v[i]);
  }
  CHECK(wrongHalf == 0);
  CHECK(wrongBf16 == 0);
  // And every half round-trips through f32 unchanged (NaNs stay NaN).
  std::vector<uint16_t> all(65536), back(65536);
  std::vector<float> f(65536);
  for (uint32_t i = 0; i < 65536; ++i) all[i] = uint16_t(i);
  interp::halfToFloats(all.data(), f.data(), 65536);
  interp::floatsToHalf(f.data(), back.data(), 65536);
  int64_t changed = 0;
  for (uint32_t i = 0; i < 65536; ++i) {
    bool nan = (i & 0x7c00) == 0x7c00 && (i & 0x3ff);
    changed += nan ? !((back[i] & 0x7c00) == 0x7c00 && (back[i] & 0x3ff)) : back[i] != i;
  }
  CHECK(changed == 0);
}

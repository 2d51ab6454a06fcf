// InterpDotTest.cpp - dot against products added here in k order, bit for bit: f32 inputs as
// they are (ieee) and rounded to tf32 (with an underflowing case, where the FMA kernels must not
// run), and f16 inputs (whose products are always exact: the FMA kernels run).
#include <cstring>

#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

const char* kDots = R"(
import triton
import triton.language as tl

@triton.jit
def operands(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    cp = c + rm[:, None] * N + rn[None, :]
    return tl.load(a + rm[:, None] * K + rk[None, :]), tl.load(b + rk[:, None] * N + rn[None, :]), tl.load(cp), cp

@triton.jit
def mm_ieee(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    x, y, acc, cp = operands(a, b, c, M, N, K)
    tl.store(cp, tl.dot(x, y, acc, input_precision="ieee"))

@triton.jit
def mm_tf32(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    x, y, acc, cp = operands(a, b, c, M, N, K)
    tl.store(cp, tl.dot(x, y, acc))
)";

}  // namespace

TEST_CASE("dot sums over k in ascending order, one multiply and one add per term", "[interp][dot]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t M = 32, N = 64, K = 16;  // an odd number of 32-column blocks would not test the tail
  auto m = compilePython(kDots, "mm_ieee", {{"M", "32"}, {"N", "64"}, {"K", "16"}}, "a: *fp32, b: *fp32, c: *fp32");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::F32, M * K), buffer("b", ScalarKind::F32, K * N),
                                buffer("c", ScalarKind::F32, M * N)};
  std::normal_distribution<float> nd(0, 1);
  for (auto* buf : {&b[0], &b[1], &b[2]})
    for (size_t i = 0; i < buf->bytes.size() / 4; ++i) as<float>(*buf)[i] = nd(rng) * float(1 << (rng() % 16));
  std::vector<float> want(as<float>(b[2]), as<float>(b[2]) + M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      for (int64_t k = 0; k < K; ++k) {
        volatile float product = as<float>(b[0])[i * K + k] * as<float>(b[1])[k * N + j];  // no FMA
        want[size_t(i * N + j)] += product;
      }
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});
  INFO("seed " << seed);
  CHECK(std::memcmp(as<float>(b[2]), want.data(), want.size() * 4) == 0);
}

TEST_CASE("tf32 dot: exactly tf32(a) * tf32(b) added in k order, whichever kernel runs", "[interp][dot]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t M = 32, N = 64, K = 16;
  auto m = compilePython(kDots, "mm_tf32", {{"M", "32"}, {"N", "64"}, {"K", "16"}}, "a: *fp32, b: *fp32, c: *fp32");
  // tf32 rounding written here: to nearest, ties away, 10 mantissa bits.
  auto tf32 = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
    std::memcpy(&f, &u, 4);
    return f;
  };
  // Ordinary magnitudes (products exact: the fused kernels may run), then tiny ones whose
  // products fall into the subnormals (not exact: the multiply-then-add kernels must run).
  for (float scale : {1.0f, 1e-22f}) {
    std::vector<interp::Buffer> b{buffer("a", ScalarKind::F32, M * K), buffer("b", ScalarKind::F32, K * N),
                                  buffer("c", ScalarKind::F32, M * N)};
    std::normal_distribution<float> nd(0, 1);
    for (auto* buf : {&b[0], &b[1]})
      for (size_t i = 0; i < buf->bytes.size() / 4; ++i) as<float>(*buf)[i] = nd(rng) * float(1 << (rng() % 12)) * scale;
    for (int64_t i = 0; i < M * N; ++i) as<float>(b[2])[i] = nd(rng) * scale * scale;
    std::vector<float> want(as<float>(b[2]), as<float>(b[2]) + M * N);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j)
        for (int64_t k = 0; k < K; ++k) {
          volatile float product = tf32(as<float>(b[0])[i * K + k]) * tf32(as<float>(b[1])[k * N + j]);
          want[size_t(i * N + j)] += product;
        }
    runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});
    INFO("seed " << seed << " scale " << scale);
    CHECK(std::memcmp(as<float>(b[2]), want.data(), want.size() * 4) == 0);
  }
}

TEST_CASE("f16 dot: exactly float(a) * float(b) added in k order (products exact: the FMA kernels run)", "[interp][dot]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t M = 64, N = 64, K = 32;  // four-row AVX-512 blocks and two-row AVX2 ones
  auto m = compilePython(kDots, "mm_tf32", {{"M", "64"}, {"N", "64"}, {"K", "32"}}, "a: *fp16, b: *fp16, c: *fp32");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::F16, M * K), buffer("b", ScalarKind::F16, K * N),
                                buffer("c", ScalarKind::F32, M * N)};
  std::normal_distribution<double> nd(0, 1);
  // Magnitudes across f16's range, subnormals included (every product is still a normal f32).
  for (auto* buf : {&b[0], &b[1]})
    for (size_t i = 0; i < buf->bytes.size() / 2; ++i) as<uint16_t>(*buf)[i] = halfBits(nd(rng) * std::ldexp(1.0, int(rng() % 40) - 24));
  for (int64_t i = 0; i < M * N; ++i) as<float>(b[2])[i] = float(nd(rng));
  std::vector<float> want(as<float>(b[2]), as<float>(b[2]) + M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      for (int64_t k = 0; k < K; ++k) {
        volatile float product = float(halfValue(as<uint16_t>(b[0])[i * K + k])) * float(halfValue(as<uint16_t>(b[1])[k * N + j]));
        want[size_t(i * N + j)] += product;
      }
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});
  INFO("seed " << seed);
  CHECK(std::memcmp(as<float>(b[2]), want.data(), want.size() * 4) == 0);
}

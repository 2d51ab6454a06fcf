// RandomTest.cpp - tl.randint / rand / randn (Philox-4x32-10, through the frontend's prelude)
// against the published known-answer vector and an independent Philox written here.
#include <array>

#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

// Philox-4x32 with 10 rounds (Salmon et al., SC'11), written from the paper's description.
std::array<uint32_t, 4> philox(uint64_t seed, uint32_t counter, uint32_t counter1 = 0) {
  uint32_t c[4] = {counter, counter1, 0, 0};
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p1 = uint64_t(0xCD9E8D57u) * c[2];
    uint32_t n0 = uint32_t(p1 >> 32) ^ c[1] ^ k0, n1 = uint32_t(p1);
    uint32_t n2 = uint32_t(p0 >> 32) ^ c[3] ^ k1, n3 = uint32_t(p0);
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {c[0], c[1], c[2], c[3]};
}

// Philox-4x64 with 10 rounds (the same construction with 64-bit words and Random123's
// constants): what Triton's tl.philox runs on 64-bit counters, keyed by the whole seed.
std::array<uint64_t, 4> philox64(uint64_t seed, uint64_t counter) {
  uint64_t c[4] = {counter, 0, 0, 0};
  uint64_t k0 = seed, k1 = 0;
  for (int round = 0; round < 10; ++round) {
    unsigned __int128 p0 = (unsigned __int128)0xD2E7470EE14C6C93ull * c[0], p1 = (unsigned __int128)0xCA5A826395121157ull * c[2];
    uint64_t n0 = uint64_t(p1 >> 64) ^ c[1] ^ k0, n1 = uint64_t(p1);
    uint64_t n2 = uint64_t(p0 >> 64) ^ c[3] ^ k1, n3 = uint64_t(p0);
    c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
    k0 += 0x9E3779B97F4A7C15ull;
    k1 += 0xBB67AE8584CAA73Bull;
  }
  return {c[0], c[1], c[2], c[3]};
}

float uniform(uint32_t bits) {
  int32_t x = int32_t(bits);
  if (x < 0) x = -x - 1;
  return float(x) * 4.6566127342e-10f;
}

const char* kKernel = R"(
import triton
import triton.language as tl

@triton.jit
def rng(ri, ru, rn, r4, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ri + offs, tl.randint(seed, offs))
    tl.store(ru + offs, tl.rand(seed, offs))
    tl.store(rn + offs, tl.randn(seed, offs))
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(r4 + offs, d)

@triton.jit
def rng64(ri, ru, base, seed, BLOCK: tl.constexpr):
    offs = base + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK).to(tl.int64)
    tl.store(ri + tl.arange(0, BLOCK) + tl.program_id(0) * BLOCK, tl.randint(seed, offs))
    tl.store(ru + tl.arange(0, BLOCK) + tl.program_id(0) * BLOCK, tl.rand(seed, offs))

@triton.jit
def philox64(ri, base, seed, BLOCK: tl.constexpr):
    offs = base + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK).to(tl.int64)
    z = offs * 0
    a, b, c, d = tl.philox(seed, offs, z, z, z)
    tl.store(ri + tl.arange(0, BLOCK) + tl.program_id(0) * BLOCK, a)
)";

}  // namespace

TEST_CASE("Philox matches the published known answer", "[interp][random]") {
  auto kat = philox(0, 0);
  CHECK(kat == std::array<uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
}

TEST_CASE("tl.randint, tl.rand and tl.randn follow Philox for any seed and offset", "[interp][random]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t B = 64, P = 3;
  auto m = compilePython(kKernel, "rng", {{"BLOCK", "64"}}, "ri: *u32, ru: *fp32, rn: *fp32, r4: *u32, seed: i32");
  int32_t s = int32_t(rng());
  std::vector<interp::Buffer> b{buffer("ri", ScalarKind::I32, B * P), buffer("ru", ScalarKind::F32, B * P),
                                buffer("rn", ScalarKind::F32, B * P), buffer("r4", ScalarKind::I32, B * P)};
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2), bufArg(3), intArg(s)}, {P, 1, 1});
  for (int64_t i = 0; i < B * P; ++i) {
    // The seed is an int32 argument: Triton widens it to uint64 with its sign.
    auto want = philox(uint64_t(int64_t(s)), uint32_t(i));
    INFO("seed " << s << " offset " << i);
    REQUIRE(uint32_t(as<int32_t>(b[0])[i]) == want[0]);
    REQUIRE(uint32_t(as<int32_t>(b[3])[i]) == want[3]);
    REQUIRE(as<float>(b[1])[i] == uniform(want[0]));
    double u1 = std::max(1.0e-7, double(uniform(want[0]))), u2 = uniform(want[1]);
    double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    REQUIRE(std::fabs(as<float>(b[2])[i] - normal) < 1e-4 * (1 + std::fabs(normal)));
  }
}

TEST_CASE("int64 offsets take 32-bit Philox on their two words, as Triton's randint4x", "[interp][random]") {
  std::mt19937_64 rng(freshSeed());
  const int64_t B = 32, P = 2;
  auto m = compilePython(kKernel, "rng64", {{"BLOCK", "32"}}, "ri: *u32, ru: *fp32, base: i64, seed: i64");
  const int64_t base = int64_t(rng() >> 2), s = int64_t(rng());
  std::vector<interp::Buffer> b{buffer("ri", ScalarKind::I32, B * P), buffer("ru", ScalarKind::F32, B * P)};
  runChecked(*m, b, {bufArg(0), bufArg(1), intArg(base), intArg(s)}, {P, 1, 1});
  for (int64_t i = 0; i < B * P; ++i) {
    const uint64_t off = uint64_t(base + i);
    auto want = philox(uint64_t(s), uint32_t(off), uint32_t(off >> 32));
    INFO("seed " << s << " offset " << base + i);
    REQUIRE(uint32_t(as<int32_t>(b[0])[i]) == want[0]);
    REQUIRE(as<float>(b[1])[i] == uniform(want[0]));
  }
}

TEST_CASE("tl.philox on 64-bit counters is Philox-4x64", "[interp][random]") {
  auto kat = philox64(0, 0);
  CHECK(kat == std::array<uint64_t, 4>{0x16554d9eca36314cull, 0xdb20fe9d672d0fdcull, 0xd7e772cee186176bull, 0x7e68b68aec7ba23bull});
  std::mt19937_64 rng(freshSeed());
  const int64_t B = 32, P = 2;
  auto m = compilePython(kKernel, "philox64", {{"BLOCK", "32"}}, "ri: *u64, base: i64, seed: i64");
  const int64_t base = int64_t(rng() >> 2), s = int64_t(rng());
  std::vector<interp::Buffer> b{buffer("ri", ScalarKind::I64, B * P)};
  runChecked(*m, b, {bufArg(0), intArg(base), intArg(s)}, {P, 1, 1});
  for (int64_t i = 0; i < B * P; ++i) {
    auto want = philox64(uint64_t(s), uint64_t(base + i));
    INFO("seed " << s << " offset " << base + i);
    REQUIRE(uint64_t(as<int64_t>(b[0])[i]) == want[0]);
  }
}

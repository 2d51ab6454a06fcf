// FlipTest.cpp - the flip op: the interpreter (symbolic and dense paths) against an index
// reference written here, the frontend's tl.flip, the verifier's rules, the bytecode version.
#include <catch2/catch.hpp>

#include <random>

#include "InterpHarness.h"
#include "ir/bytecode/Bytecode.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

// tl.flip along every dim of a 3-D block of each dtype, and of an arange (a symbolic tile).
const char* kSource = R"(
import triton
import triton.language as tl

@triton.jit
def flip3(X, Y0, Y1, Y2, YL, IDX, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    offs = a * (B * C) + b * C + c
    x = tl.load(X + offs)
    tl.store(Y0 + offs, tl.flip(x, 0))
    tl.store(Y1 + offs, tl.flip(x, dim=1))
    tl.store(Y2 + offs, x.flip(-1))
    tl.store(YL + offs, tl.flip(x))
    tl.store(IDX + tl.arange(0, C), tl.flip(tl.arange(0, C) * 3 + 1))
)";

struct Dims {
  int64_t a, b, c;
};

// Element (i, j, k) of x flipped along `dim`, by index arithmetic alone.
int64_t flippedIndex(const Dims& d, int64_t i, int64_t j, int64_t k, int dim) {
  if (dim == 0) i = d.a - 1 - i;
  if (dim == 1) j = d.b - 1 - j;
  if (dim == 2) k = d.c - 1 - k;
  return (i * d.b + j) * d.c + k;
}

template <typename T>
void checkFlips(ScalarKind kind, const char* dtype, Dims d, std::mt19937_64& rng) {
  int64_t n = d.a * d.b * d.c;
  std::string p = std::string("*") + dtype;
  auto m = compilePython(kSource, "flip3", {{"A", std::to_string(d.a)}, {"B", std::to_string(d.b)}, {"C", std::to_string(d.c)}},
                         "X: " + p + ", Y0: " + p + ", Y1: " + p + ", Y2: " + p + ", YL: " + p + ", IDX: *i32");
  std::vector<interp::Buffer> bufs{buffer("X", kind, n), buffer("Y0", kind, n), buffer("Y1", kind, n), buffer("Y2", kind, n),
                                   buffer("YL", kind, n), buffer("IDX", ScalarKind::I32, d.c)};
  for (auto& byte : bufs[0].bytes) byte = uint8_t(rng());  // any bits: flip moves them unchanged
  runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3), bufArg(4), bufArg(5)});
  const T* x = as<T>(bufs[0]);
  for (int dim = 0; dim < 3; ++dim)
    for (int64_t i = 0; i < d.a; ++i)
      for (int64_t j = 0; j < d.b; ++j)
        for (int64_t k = 0; k < d.c; ++k) {
          INFO("dim " << dim << " at " << i << "," << j << "," << k);
          int64_t at = (i * d.b + j) * d.c + k;
          REQUIRE(std::memcmp(&as<T>(bufs[size_t(1 + dim)])[at], &x[flippedIndex(d, i, j, k, dim)], sizeof(T)) == 0);
          if (dim == 2) REQUIRE(std::memcmp(&as<T>(bufs[4])[at], &x[flippedIndex(d, i, j, k, 2)], sizeof(T)) == 0);
        }
  for (int64_t k = 0; k < d.c; ++k) REQUIRE(as<int32_t>(bufs[5])[k] == int32_t((d.c - 1 - k) * 3 + 1));
}

}  // namespace

TEST_CASE("flip reverses along each dim, every dtype, both interpreter paths", "[interp][flip]") {
  uint64_t seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  checkFlips<float>(ScalarKind::F32, "fp32", {2, 4, 8}, rng);
  checkFlips<uint16_t>(ScalarKind::F16, "fp16", {4, 2, 16}, rng);
  checkFlips<int8_t>(ScalarKind::I8, "int8", {8, 4, 2}, rng);
  checkFlips<double>(ScalarKind::F64, "fp64", {1, 8, 4}, rng);
  checkFlips<int64_t>(ScalarKind::I64, "int64", {2, 1, 32}, rng);
}

TEST_CASE("flip keeps an undefined element undefined, at its new place", "[interp][flip]") {
  // Lanes 0-2 of x are masked off (no other): undefined. Flipped, they sit at 5-7; storing
  // them is a finding, storing the other lanes is not.
  auto m = parseVerified(R"(
kernel @k(%x: ptr<f32>, %y: ptr<f32>, %lo: i32) {
  %r = arange {end = 8, start = 0} : tile<8xi32>
  %los = splat %lo : tile<8xi32>
  %m = cmpi %r, %los {pred = sge} : tile<8xi1>
  %xb = splat %x : tile<8xptr<f32>>
  %xp = addptr %xb, %r : tile<8xptr<f32>>
  %v = load %xp, %m : tile<8xf32>
  %f = flip %v {dim = 0} : tile<8xf32>
  %fm = flip %m {dim = 0} : tile<8xi1>
  %yb = splat %y : tile<8xptr<f32>>
  %yp = addptr %yb, %r : tile<8xptr<f32>>
  store %yp, %f, %fm
  return
}
)");
  std::vector<interp::Buffer> bufs{buffer("x", ScalarKind::F32, 8), buffer("y", ScalarKind::F32, 8)};
  for (int i = 0; i < 8; ++i) as<float>(bufs[0])[i] = float(i) + 0.5f;
  runChecked(*m, bufs, {bufArg(0), bufArg(1), intArg(3)});  // the flipped mask stores only defined lanes
  for (int i = 0; i < 5; ++i) CHECK(as<float>(bufs[1])[i] == float(7 - i) + 0.5f);
  for (int i = 5; i < 8; ++i) CHECK(as<float>(bufs[1])[i] == 0.0f);  // not stored
}

TEST_CASE("the verifier checks flip's dim and types", "[verifier][flip]") {
  auto check = [](const std::string& body) {
    auto m = ir::parse("kernel @k(%x: f32) {\n  %t = splat %x : tile<2x4xf32>\n" + body + "\n  return\n}\n", "t.tile");
    REQUIRE(m.ok());
    auto d = ir::verify(**m);
    return d.empty() ? std::string() : d[0].message;
  };
  CHECK(check("  %f = flip %t {dim = 1} : tile<2x4xf32>").empty());
  CHECK(check("  %f = flip %t {dim = 2} : tile<2x4xf32>").find("attribute 'dim' = 2 out of range [0, 1]") != std::string::npos);
  CHECK(check("  %f = flip %t : tile<2x4xf32>").find("requires integer attribute 'dim'") != std::string::npos);
  CHECK(check("  %f = flip %t {dim = 0} : tile<4x2xf32>").find("expects a tile and a result of its type") != std::string::npos);
  CHECK(check("  %f = flip %x {dim = 0} : f32").find("expects a tile") != std::string::npos);
}

TEST_CASE("a module with flip is stamped 1.1; a 1.0 stamp cannot hold it", "[bytecode][flip]") {
  auto m = parseVerified(R"(
kernel @k(%x: f32) {
  %t = splat %x : tile<4xf32>
  %f = flip %t {dim = 0} : tile<4xf32>
  return
}
)");
  auto bytes = ir::write(*m);
  CHECK(int(bytes[8]) == 1);
  CHECK(int(bytes[9]) == 1);
  bytes[9] = 0;
  auto r = ir::read(bytes, "old.tbc");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("op 'flip' needs bytecode version 1.1, the file is 1.0") != std::string::npos);
  CHECK(r.error().message.rfind("offset ", 0) == 0);
  // Without flip the same writer stamps 1.0.
  auto plain = parseVerified("kernel @k(%x: f32) {\n  %t = splat %x : tile<4xf32>\n  return\n}\n");
  CHECK(int(ir::write(*plain)[9]) == 0);
}

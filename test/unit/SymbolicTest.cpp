// SymbolicTest.cpp - symbolic index tiles (interpreter/Affine.h) against the dense path, on
// random index expressions: arange, broadcast, + - * // %, casts, comparisons, values near the
// int32 limits (where a symbolic rule must decline), used as stored values, as load offsets
// (in and out of bounds) and as masks. Buffers and reports must agree bit for bit.
#include <sstream>

#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

// A random integer expression over the row index i ([R, 1]) and column index j ([1, C]).
class ExprGen {
 public:
  explicit ExprGen(std::mt19937_64& rng) : rng_(rng) {}

  /// An expression; `isConst` says whether it is a compile-time constant (no `.to` on those).
  std::string expr(int depth, bool& isConst) {
    if (depth == 0 || pick(4) == 0) return leaf(isConst);
    bool ca = false, cb = false;
    std::string a = expr(depth - 1, ca), b = expr(depth - 1, cb);
    isConst = ca && cb;
    switch (pick(9)) {
      case 0: return "(" + a + " + " + b + ")";
      case 1: return "(" + a + " - " + b + ")";
      case 2: isConst = ca; return "(" + a + " * " + constant() + ")";
      case 3: isConst = ca; return "(" + constant() + " * " + a + ")";
      case 4: isConst = ca; return "(" + a + " // " + positive() + ")";
      case 5: isConst = ca; return "(" + a + " % " + positive() + ")";
      case 6: isConst = ca; return ca ? a : "(" + a + ").to(tl.int64)";
      case 7: return isConst ? "(" + a + " + " + b + ")" : "(" + a + " + " + b + ").to(tl.int32)";
      default: return "(" + a + " * " + b + ")";  // not affine: materialized
    }
  }

 private:
  int pick(int n) { return int(rng_() % uint64_t(n)); }
  std::string leaf(bool& isConst) {
    isConst = false;
    switch (pick(5)) {
      case 0: return "i";
      case 1: return "j";
      case 2: return "(R - 1 - i)";
      case 3: return "tl.program_id(0)";
      default: isConst = true; return constant();
    }
  }
  std::string constant() {
    static const int64_t kValues[] = {0, 1, 2, 3, 7, 16, -1, -5, 1000, 65536, 2147483647, -2147483647, 1073741824, 99991};
    return std::to_string(kValues[pick(int(std::size(kValues)))]);
  }
  std::string positive() {
    static const int64_t kValues[] = {1, 2, 3, 4, 8, 16, 64, 1000, 2147483647};
    return std::to_string(kValues[pick(int(std::size(kValues)))]);
  }
  std::mt19937_64& rng_;
};

std::string kernelFor(const std::string& e) {
  std::ostringstream k;
  k << "import triton\nimport triton.language as tl\n\n@triton.jit\n"
    << "def idx(x, out, vals, N, R: tl.constexpr, C: tl.constexpr):\n"
    << "    i = tl.arange(0, R)[:, None]\n"
    << "    j = tl.arange(0, C)[None, :]\n"
    << "    e = " << e << "\n"
    << "    cell = tl.program_id(0) * R * C + i * C + j\n"
    << "    tl.store(vals + cell, e.to(tl.int64))\n"
    << "    inside = (e >= 0) & (e < N)\n"
    << "    v = tl.load(x + e, mask=inside, other=-1)\n"
    << "    tl.store(out + cell, v + inside.to(tl.int32))\n"
    << "    if tl.program_id(0) == 1:\n"
    << "        tl.store(out + cell, tl.load(x + e % N))\n";  // may go out of bounds: both runs report it
  return k.str();
}

}  // namespace

TEST_CASE("symbolic index tiles agree with dense evaluation on random index expressions", "[interp][symbolic]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  ExprGen gen(rng);
  const int64_t R = 4, C = 8, N = 100, P = 2;
  int reported = 0, overflowed = 0;
  for (int round = 0; round < 400; ++round) {
    bool isConst = false;
    std::string e = gen.expr(3, isConst) + " + 0 * i + 0 * j";  // always an [R, C] tile
    INFO("seed " << seed << " expression " << e);
    frontend::CompileOptions co;
    co.kernel = "idx";
    co.defines = {{"R", std::to_string(R)}, {"C", std::to_string(C)}};
    co.signature = "x: *i32, out: *i32, vals: *i64, N: i32";
    auto compiled = frontend::compileKernel(kernelFor(e), "test.py", co);
    if (!compiled) {
      // Constants folded beyond 64 bits, or beyond the int32 tile they meet (Triton's range
      // rule), are compile errors (tested in the frontend's goldens).
      const std::string& msg = compiled.error().message;
      REQUIRE((msg.find("does not fit in 64 bits") != std::string::npos || msg.find("is out of range for type") != std::string::npos));
      ++overflowed;
      continue;
    }
    auto& m = *compiled;
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::I32, N), buffer("out", ScalarKind::I32, P * R * C),
                                  buffer("vals", ScalarKind::I64, P * R * C)};
    for (int64_t k = 0; k < N; ++k) as<int32_t>(b[0])[k] = int32_t(rng());
    interp::LaunchOptions o;
    o.grid = {P, 1, 1};
    auto r = runBothWays(*m, b, {bufArg(0), bufArg(1), bufArg(2), intArg(N)}, o);
    reported += !r.findings.empty();
  }
  // The generator must reach both outcomes, or the comparison proves little.
  CHECK(reported > 0);
  CHECK(reported + overflowed < 400);
  CHECK(overflowed < 40);
}

TEST_CASE("transposed loads (the blocked transpose) read every element where it belongs", "[interp][symbolic]") {
  // x is [C, LD] row-major; the kernel loads the [R, C] tile t[r, c] = x[c, r + off] through a
  // symbolic pointer tile whose rows are consecutive elements: shapes with and without 8x8 blocks.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def tload(x, out, off, R: tl.constexpr, C: tl.constexpr, LD: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    t = tl.load(x + c[None, :] * LD + (r[:, None] + off))
    tl.store(out + r[:, None] * C + c[None, :], t)
)";
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  for (auto [R, C] : {std::pair<int64_t, int64_t>{16, 32}, {64, 64}, {8, 4}, {4, 16}}) {
    for (const char* ty : {"fp32", "i32"}) {
      const int64_t LD = R + 3, off = int64_t(rng() % 4);
      auto m = compilePython(src, "tload", {{"R", std::to_string(R)}, {"C", std::to_string(C)}, {"LD", std::to_string(LD)}},
                             std::string("x: *") + ty + ", out: *" + ty + ", off: i32");
      ScalarKind k = std::string(ty) == "fp32" ? ScalarKind::F32 : ScalarKind::I32;
      std::vector<interp::Buffer> b{buffer("x", k, C * LD), buffer("out", k, R * C)};
      for (int64_t i = 0; i < C * LD; ++i) as<uint32_t>(b[0])[i] = uint32_t(rng());
      runChecked(*m, b, {bufArg(0), bufArg(1), intArg(off)});
      INFO("seed " << seed << " R " << R << " C " << C << " " << ty);
      for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < C; ++c) REQUIRE(as<uint32_t>(b[1])[r * C + c] == as<uint32_t>(b[0])[c * LD + r + off]);
    }
  }
}

TEST_CASE("1-D comparisons of index tiles (tail masks) agree with dense evaluation at every boundary", "[interp][symbolic]") {
  // `a * j + b <op> n` over a 1-D arange: the symbolic path finds the one lane where a monotone
  // predicate changes by bisection (eq/ne lane by lane); every boundary position, both slopes,
  // every predicate, against the dense path.
  const int64_t C = 64;
  const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
  int64_t checked = 0;
  for (int64_t slope : {1, -1, 3, -2}) {
    for (const char* op : ops) {
      std::ostringstream k;
      k << "import triton\nimport triton.language as tl\n\n@triton.jit\n"
        << "def tail(out, n, b, C: tl.constexpr):\n"
        << "    j = tl.arange(0, C)\n"
        << "    m = (" << slope << " * j + b) " << op << " n\n"
        << "    tl.store(out + j, m.to(tl.int32))\n";
      frontend::CompileOptions co;
      co.kernel = "tail";
      co.defines = {{"C", std::to_string(C)}};
      co.signature = "out: *i32, n: i32, b: i32";
      auto compiled = frontend::compileKernel(k.str(), "tail.py", co);
      REQUIRE(compiled);
      for (int64_t n = -3 * C; n <= 3 * C; n += 7) {
        INFO("slope " << slope << " op " << op << " n " << n);
        std::vector<interp::Buffer> b{buffer("out", ScalarKind::I32, C)};
        interp::LaunchOptions o;
        o.grid = {1, 1, 1};
        runBothWays(**compiled, b, {bufArg(0), intArg(n), intArg(5)}, o);
        ++checked;
      }
    }
  }
  CHECK(checked == 4 * 6 * 55);
}

TEST_CASE("masked contiguous loads and stores copy each run of live lanes exactly as lane by lane", "[interp][symbolic]") {
  // Masks with many runs of both states (j % a < b, one flipped below c): the symbolic path
  // copies and checks whole runs (found a word at a time), the dense path goes lane by lane.
  const int64_t C = 128;
  const std::string src =
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def runs(x, y, a, b, c, C: tl.constexpr):\n"
      "    j = tl.arange(0, C)\n"
      "    m = (j % a) < b\n"
      "    v = tl.load(x + j, mask=m, other=-1.0)\n"
      "    tl.store(y + j, v * 2.0, mask=m != (j < c))\n";
  frontend::CompileOptions co;
  co.kernel = "runs";
  co.defines = {{"C", std::to_string(C)}};
  co.signature = "x: *fp32, y: *fp32, a: i32, b: i32, c: i32";
  auto compiled = frontend::compileKernel(src, "runs.py", co);
  REQUIRE(compiled);
  int64_t cases = 0;
  for (int64_t a : {1, 2, 3, 8, 9, 64, 200})
    for (int64_t b : {0, 1, 5, 63})
      for (int64_t c : {0, 7, 64, 127}) {
        INFO("a " << a << " b " << b << " c " << c);
        std::vector<interp::Buffer> bufs{buffer("x", ScalarKind::F32, C), buffer("y", ScalarKind::F32, C)};
        for (int64_t k = 0; k < C; ++k) as<float>(bufs[0])[k] = float(k) * 0.5f - 3.0f;
        interp::LaunchOptions o;
        o.grid = {1, 1, 1};
        runBothWays(**compiled, bufs, {bufArg(0), bufArg(1), intArg(a), intArg(b), intArg(c)}, o);
        ++cases;
      }
  CHECK(cases == 7 * 4 * 4);
}

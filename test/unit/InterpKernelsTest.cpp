// InterpKernelsTest.cpp - whole kernels on the interpreter: the anchor kernels against float64
// references, reductions in their documented order, scans, shapes, control flow, and
// bit-identical results for every thread count and schedule.
#include <fstream>
#include <numeric>
#include <sstream>

#include "InterpHarness.h"
#include "interpreter/WriteSet.h"
#include "TestKernels.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

std::string anchors() { return readRepoFile("bench/anchors/triton_gpu_kernels.py"); }

double value(interp::Buffer& b, int64_t i) {
  return b.elem == ScalarKind::F16 ? halfValue(as<uint16_t>(b)[i]) : double(as<float>(b)[i]);
}

}  // namespace

TEST_CASE("vector add matches exactly, with a ragged tail", "[interp][anchors]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  int64_t n = 1000 + int64_t(rng() % 5000);
  auto m = compilePython(anchors(), "vadd_k", {{"BLOCK", "256"}}, "x: *fp32, y: *fp32, o: *fp32, n: i32");
  std::vector<interp::Buffer> bufs{buffer("x", ScalarKind::F32, n), buffer("y", ScalarKind::F32, n), buffer("o", ScalarKind::F32, n)};
  fillNormal(bufs[0], rng);
  fillNormal(bufs[1], rng);
  runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2), intArg(n)}, {(n + 255) / 256, 1, 1});
  for (int64_t i = 0; i < n; ++i) REQUIRE(as<float>(bufs[2])[i] == float(double(as<float>(bufs[0])[i]) + as<float>(bufs[1])[i]));
}

TEST_CASE("softmax and layer norm match float64", "[interp][anchors]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  int64_t rows = 20 + int64_t(rng() % 20), cols = 100 + int64_t(rng() % 28);
  INFO("seed " << seed << " rows " << rows << " cols " << cols);
  {
    auto m = compilePython(anchors(), "softmax_k", {{"BLOCK", "128"}}, "out: *fp32, inp: *fp32, in_stride: i32, out_stride: i32, n_cols: i32");
    std::vector<interp::Buffer> bufs{buffer("out", ScalarKind::F32, rows * cols), buffer("inp", ScalarKind::F32, rows * cols)};
    fillNormal(bufs[1], rng, 3);
    runChecked(*m, bufs, {bufArg(0), bufArg(1), intArg(cols), intArg(cols), intArg(cols)}, {rows, 1, 1});
    for (int64_t r = 0; r < rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, value(bufs[1], r * cols + c));
      for (int64_t c = 0; c < cols; ++c) sum += std::exp(value(bufs[1], r * cols + c) - mx);
      for (int64_t c = 0; c < cols; ++c) {
        double want = std::exp(value(bufs[1], r * cols + c) - mx) / sum;
        REQUIRE(std::fabs(value(bufs[0], r * cols + c) - want) <= 1e-6 * want + 1e-9);
      }
    }
  }
  {
    auto m = compilePython(anchors(), "layernorm_k", {{"BLOCK", "128"}}, "X: *fp16, Y: *fp16, W: *fp16, B: *fp16, stride: i32, N: i32, eps: fp32");
    std::vector<interp::Buffer> bufs{buffer("X", ScalarKind::F16, rows * cols), buffer("Y", ScalarKind::F16, rows * cols),
                                     buffer("W", ScalarKind::F16, cols), buffer("B", ScalarKind::F16, cols)};
    fillNormal(bufs[0], rng, 2);
    fillNormal(bufs[2], rng);
    fillNormal(bufs[3], rng);
    interp::Arg eps = floatArg(1e-5);
    runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3), intArg(cols), intArg(cols), eps}, {rows, 1, 1});
    for (int64_t r = 0; r < rows; ++r) {
      double mean = 0, var = 0;
      for (int64_t c = 0; c < cols; ++c) mean += value(bufs[0], r * cols + c);
      mean /= double(cols);
      for (int64_t c = 0; c < cols; ++c) var += std::pow(value(bufs[0], r * cols + c) - mean, 2);
      var /= double(cols);
      double rstd = 1 / std::sqrt(var + 1e-5);
      for (int64_t c = 0; c < cols; ++c) {
        double want = (value(bufs[0], r * cols + c) - mean) * rstd * value(bufs[2], c) + value(bufs[3], c);
        double got = value(bufs[1], r * cols + c);
        REQUIRE(std::fabs(got - want) <= 2e-3 * std::fabs(want) + 2e-3);
      }
    }
  }
}

TEST_CASE("matmul (f16 in, f32 accumulate) and f32 matmul with tf32 inputs match float64", "[interp][anchors]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  int64_t M = 70 + int64_t(rng() % 30), N = 60 + int64_t(rng() % 30), K = 40 + int64_t(rng() % 40);
  INFO("seed " << seed << " M N K " << M << " " << N << " " << K);
  auto m = compilePython(anchors(), "matmul_k", {{"BM", "32"}, {"BN", "32"}, {"BK", "32"}, {"GM", "2"}},
                         "a: *fp16, b: *fp16, c: *fp16, M: i32, N: i32, K: i32, sam: i32, sak: i32, sbk: i32, sbn: i32, scm: i32, scn: i32");
  std::vector<interp::Buffer> bufs{buffer("a", ScalarKind::F16, M * K), buffer("b", ScalarKind::F16, K * N), buffer("c", ScalarKind::F16, M * N)};
  fillNormal(bufs[0], rng);
  fillNormal(bufs[1], rng);
  int64_t grid = ((M + 31) / 32) * ((N + 31) / 32);
  runChecked(*m, bufs, {bufArg(0), bufArg(1), bufArg(2), intArg(M), intArg(N), intArg(K), intArg(K), intArg(1), intArg(N),
                        intArg(1), intArg(N), intArg(1)}, {grid, 1, 1});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        double p = value(bufs[0], i * K + k) * value(bufs[1], k * N + j);
        want += p;
        mag += std::fabs(p);
      }
      REQUIRE(std::fabs(value(bufs[2], i * N + j) - want) <= std::fabs(want) * std::ldexp(1.0, -10) + mag * 1e-6);
    }

  // f32 inputs: tf32 rounding of the inputs is visible (and emulated), accumulation in f32.
  int64_t S = 64;
  auto mi = compilePython(anchors(), "matmul_interp_k", {{"BM", "32"}, {"BN", "32"}, {"BK", "16"}, {"GM", "2"}, {"K", "64"}},
                          "a: *fp32, b: *fp32, c: *fp32, M: i32, N: i32, sam: i32, sak: i32, sbk: i32, sbn: i32, scm: i32, scn: i32");
  std::vector<interp::Buffer> f{buffer("a", ScalarKind::F32, S * S), buffer("b", ScalarKind::F32, S * S), buffer("c", ScalarKind::F32, S * S)};
  fillNormal(f[0], rng);
  fillNormal(f[1], rng);
  runChecked(*mi, f, {bufArg(0), bufArg(1), bufArg(2), intArg(S), intArg(S), intArg(S), intArg(1), intArg(S), intArg(1), intArg(S), intArg(1)}, {4, 1, 1});
  auto tf32 = [](double x) {  // keep 10 mantissa bits, round half away from zero
    int e;
    double fr = std::frexp(x, &e);
    return std::ldexp(std::round(std::ldexp(fr, 11)), e - 11);
  };
  double errTf32 = 0, errExact = 0, norm = 0;
  for (int64_t i = 0; i < S; ++i)
    for (int64_t j = 0; j < S; ++j) {
      double exact = 0, rounded = 0;
      for (int64_t k = 0; k < S; ++k) {
        exact += double(as<float>(f[0])[i * S + k]) * as<float>(f[1])[k * S + j];
        rounded += tf32(as<float>(f[0])[i * S + k]) * tf32(as<float>(f[1])[k * S + j]);
      }
      double got = as<float>(f[2])[i * S + j];
      errTf32 += (got - rounded) * (got - rounded);
      errExact += (got - exact) * (got - exact);
      norm += exact * exact;
    }
  CHECK(std::sqrt(errTf32 / norm) < 1e-6);
  CHECK(std::sqrt(errExact / norm) > 1e-5);  // tf32 is visible, as on the GPU
  CHECK(std::sqrt(errExact / norm) < 5e-3);
}

TEST_CASE("flash attention matches float64", "[interp][anchors]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t BH = 2, NCTX = 64, D = 32;
  auto m = compilePython(anchors(), "attn_k", {{"N_CTX", "64"}, {"HEAD", "32"}, {"BM", "16"}, {"BN", "16"}},
                         "Q: *fp32, K: *fp32, V: *fp32, O: *fp32, sm_scale: fp32");
  std::vector<interp::Buffer> b{buffer("Q", ScalarKind::F32, BH * NCTX * D), buffer("K", ScalarKind::F32, BH * NCTX * D),
                                buffer("V", ScalarKind::F32, BH * NCTX * D), buffer("O", ScalarKind::F32, BH * NCTX * D)};
  for (int k = 0; k < 3; ++k) fillNormal(b[size_t(k)], rng);
  double scale = 1 / std::sqrt(double(D));
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2), bufArg(3), floatArg(scale)}, {NCTX / 16, BH, 1});
  for (int64_t h = 0; h < BH; ++h)
    for (int64_t i = 0; i < NCTX; ++i) {
      std::vector<double> s(NCTX);
      double mx = -INFINITY, sum = 0;
      for (int64_t j = 0; j < NCTX; ++j) {
        double dot = 0;
        for (int64_t d = 0; d < D; ++d) dot += double(as<float>(b[0])[(h * NCTX + i) * D + d]) * as<float>(b[1])[(h * NCTX + j) * D + d];
        s[size_t(j)] = dot * scale;
        mx = std::max(mx, s[size_t(j)]);
      }
      for (double& x : s) sum += (x = std::exp(x - mx));
      for (int64_t d = 0; d < D; ++d) {
        double want = 0;
        for (int64_t j = 0; j < NCTX; ++j) want += s[size_t(j)] / sum * as<float>(b[2])[(h * NCTX + j) * D + d];
        REQUIRE(std::fabs(as<float>(b[3])[(h * NCTX + i) * D + d] - want) < 5e-3);  // tf32 dot inputs
      }
    }
}

namespace {
const char* kReductions = R"(
import triton
import triton.language as tl

@triton.jit
def pick_max(a, ia, b, ib):
    take = a > b
    return tl.where(take, a, b), tl.where(take, ia, ib)

@triton.jit
def red(x, s, mx, am, cs, cp, u, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    v = tl.load(x + r)
    tl.store(s, tl.sum(v, axis=0))
    tl.store(mx, tl.max(v, axis=0))
    tl.store(am, tl.argmax(v, axis=0))
    tl.store(cs + r, tl.cumsum(v, axis=0))
    tl.store(cp + r, tl.cumprod(v, axis=0))
    val, idx = tl.reduce((v, r), 0, pick_max)
    tl.store(u, idx)

@triton.jit
def rowsum(x, out, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    t = tl.load(x + r[:, None] * COLS + c[None, :])
    tl.store(out + r, tl.sum(t, axis=1))
    tl.store(out + ROWS + c, tl.sum(t, axis=0))
)";
}

TEST_CASE("reductions follow the documented halving-tree order; scans are sequential", "[interp][reduce]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t B = 64;
  auto m = compilePython(kReductions, "red", {{"BLOCK", "64"}}, "x: *fp32, s: *fp32, mx: *fp32, am: *i32, cs: *fp32, cp: *fp32, u: *i32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, B), buffer("s", ScalarKind::F32, 1), buffer("mx", ScalarKind::F32, 1),
                                buffer("am", ScalarKind::I32, 1), buffer("cs", ScalarKind::F32, B), buffer("cp", ScalarKind::F32, B),
                                buffer("u", ScalarKind::I32, 1)};
  std::normal_distribution<float> nd(0, 1);
  for (int64_t i = 0; i < B; ++i) as<float>(b[0])[i] = nd(rng) * float(1 << (rng() % 20));
  as<float>(b[0])[7] = as<float>(b[0])[40] = 1e30f;  // a tie: the first index wins
  std::vector<interp::Arg> args;
  for (size_t i = 0; i < b.size(); ++i) args.push_back(bufArg(i));
  runChecked(*m, b, args);
  // Independent implementation of the order in docs/interpreter.md.
  std::vector<float> w(as<float>(b[0]), as<float>(b[0]) + B);
  for (int64_t len = B; len > 1;) {
    int64_t h = (len + 1) / 2;
    for (int64_t k = 0; k < len - h; ++k) w[size_t(k)] = w[size_t(k)] + w[size_t(k + h)];
    len = h;
  }
  CHECK(as<float>(b[1])[0] == w[0]);
  CHECK(as<float>(b[2])[0] == 1e30f);
  CHECK(as<int32_t>(b[3])[0] == 7);
  // The user combiner is not commutative on ties (a > b keeps the right side): its result is
  // the one the documented tree order gives.
  std::vector<std::pair<float, int32_t>> pairs;
  for (int32_t i = 0; i < B; ++i) pairs.emplace_back(as<float>(b[0])[i], i);
  for (int64_t len = B; len > 1;) {
    int64_t h = (len + 1) / 2;
    for (int64_t k = 0; k < len - h; ++k)
      if (!(pairs[size_t(k)].first > pairs[size_t(k + h)].first)) pairs[size_t(k)] = pairs[size_t(k + h)];
    len = h;
  }
  CHECK(as<int32_t>(b[6])[0] == pairs[0].second);
  float run = 0, prod = 1;
  for (int64_t i = 0; i < B; ++i) {
    run += as<float>(b[0])[i];
    prod *= as<float>(b[0])[i];
    REQUIRE(as<float>(b[4])[i] == run);
    REQUIRE((as<float>(b[5])[i] == prod || (std::isnan(prod) && std::isnan(as<float>(b[5])[i]))));
  }
}

TEST_CASE("row and column reductions of a 2-D tile follow the same tree order", "[interp][reduce]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  // Shapes with whole 8x8 blocks for the transposing row reduction, and with none.
  for (auto [R, C] : {std::pair<int64_t, int64_t>{16, 64}, {8, 4}, {32, 2}, {64, 16}, {4, 32}}) {
    auto m = compilePython(kReductions, "rowsum", {{"ROWS", std::to_string(R)}, {"COLS", std::to_string(C)}}, "x: *fp32, out: *fp32");
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, R * C), buffer("out", ScalarKind::F32, R + C)};
    std::normal_distribution<float> nd(0, 1);
    for (int64_t i = 0; i < R * C; ++i) as<float>(b[0])[i] = nd(rng) * float(1 << (rng() % 20));
    runChecked(*m, b, {bufArg(0), bufArg(1)});
    auto tree = [](std::vector<float> w) {
      for (size_t len = w.size(); len > 1;) {
        size_t h = (len + 1) / 2;
        for (size_t k = 0; k < len - h; ++k) w[k] = w[k] + w[k + h];
        len = h;
      }
      return w[0];
    };
    for (int64_t r = 0; r < R; ++r) {
      std::vector<float> row(as<float>(b[0]) + r * C, as<float>(b[0]) + (r + 1) * C);
      INFO("seed " << seed << " row " << r);
      REQUIRE(as<float>(b[1])[r] == tree(row));
    }
    for (int64_t c = 0; c < C; ++c) {
      std::vector<float> col;
      for (int64_t r = 0; r < R; ++r) col.push_back(as<float>(b[0])[r * C + c]);
      REQUIRE(as<float>(b[1])[R + c] == tree(col));
    }
  }
}

namespace {
const char* kControl = R"(
import triton
import triton.language as tl

@triton.jit
def collatz(x, steps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n = tl.load(x + pid)
    count = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        count += 1
    total = 0
    for i in range(0, count):
        total += i
    tl.store(steps + pid, count * 100000 + total % 100000)

@triton.jit
def shapes(x, y, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    t = tl.load(x + r[:, None] * BLOCK + r[None, :])
    a, b = tl.split(tl.join(t, tl.trans(t)))
    c = tl.reshape(tl.permute(b, 1, 0), (BLOCK * BLOCK,))
    d = tl.reshape(a, (BLOCK * BLOCK,))
    tl.store(y + tl.arange(0, 2 * BLOCK * BLOCK), tl.cat(c, d, can_reorder=True))

@triton.jit
def atomic_sum(x, acc, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * BLOCK + r)
    tl.atomic_add(acc + r % 4, v)
)";
}

TEST_CASE("control flow: while, runtime if, for with carried values", "[interp][control]") {
  auto m = compilePython(kControl, "collatz", {{"BLOCK", "1"}}, "x: *i32, steps: *i32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::I32, 30), buffer("steps", ScalarKind::I32, 30)};
  for (int i = 0; i < 30; ++i) as<int32_t>(b[0])[i] = i + 1;
  runChecked(*m, b, {bufArg(0), bufArg(1)}, {30, 1, 1});
  for (int i = 0; i < 30; ++i) {
    int64_t n = i + 1, count = 0;
    while (n != 1) n = n % 2 ? 3 * n + 1 : n / 2, ++count;
    REQUIRE(as<int32_t>(b[1])[i] == count * 100000 + (count * (count - 1) / 2) % 100000);
  }
}

TEST_CASE("shape ops move every element where numpy would", "[interp][shape]") {
  const int64_t B = 8;
  auto m = compilePython(kControl, "shapes", {{"BLOCK", "8"}}, "x: *i32, y: *i32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::I32, B * B), buffer("y", ScalarKind::I32, 2 * B * B)};
  std::iota(as<int32_t>(b[0]), as<int32_t>(b[0]) + B * B, 0);
  runChecked(*m, b, {bufArg(0), bufArg(1)});
  for (int64_t i = 0; i < B; ++i)
    for (int64_t j = 0; j < B; ++j) {
      CHECK(as<int32_t>(b[1])[i * B + j] == int32_t(i * B + j));          // permute(trans(t)) = t
      CHECK(as<int32_t>(b[1])[B * B + i * B + j] == int32_t(i * B + j));  // split(join(t, .))[0] = t
    }
}

TEST_CASE("results are bit-identical for any thread count and schedule", "[interp][determinism]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t P = 64, B = 32;
  auto m = compilePython(kControl, "atomic_sum", {{"BLOCK", "32"}}, "x: *fp32, acc: *fp32");
  std::vector<float> x(P * B);
  std::normal_distribution<float> nd(0, 1);
  for (float& v : x) v = nd(rng) * float(1 << (rng() % 24));  // wide magnitudes: order matters
  auto runWith = [&](interp::Schedule s, unsigned threads, uint64_t schedSeed) {
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, P * B), buffer("acc", ScalarKind::F32, 4)};
    std::memcpy(b[0].bytes.data(), x.data(), x.size() * 4);
    interp::LaunchOptions o;
    o.schedule = s;
    o.threads = threads;
    o.scheduleSeed = schedSeed;
    runChecked(*m, b, {bufArg(0), bufArg(1)}, {P, 1, 1}, o);
    return b[1].bytes;
  };
  auto ref = runWith(interp::Schedule::Serial, 1, 0);
  CHECK(runWith(interp::Schedule::Parallel, 0, 0) == ref);
  CHECK(runWith(interp::Schedule::Parallel, 2, 0) == ref);
  CHECK(runWith(interp::Schedule::Reverse, 1, 0) == ref);
  for (uint64_t s = 1; s <= 3; ++s) CHECK(runWith(interp::Schedule::Random, 1, rng()) == ref);
  // Program order: acc[k] = sum over programs p in order, lanes in order.
  std::vector<float> want(4, 0.0f);
  for (int64_t p = 0; p < P; ++p)
    for (int64_t l = 0; l < B; ++l) want[size_t(l % 4)] += x[size_t(p * B + l)];
  CHECK(std::memcmp(ref.data(), want.data(), 16) == 0);
}

namespace {
const char* kInPlace = R"(
import triton
import triton.language as tl

@triton.jit
def bump_and_keep(x, out, B: tl.constexpr):
    r = tl.arange(0, B)
    v = tl.load(x + r)
    tl.store(out + r, v + 1)
    tl.store(out + B + r, v)

@triton.jit
def pick(x, y, which, B: tl.constexpr):
    r = tl.arange(0, B)
    p = tl.where(r < which, x + r, y + r)
    tl.store(p, tl.load(x + r) * 2)

@triton.jit
def walk(x, y, B: tl.constexpr):
    p = y
    for i in range(0, 2):
        tl.store(p + tl.arange(0, B), tl.load(x + i * B + tl.arange(0, B)))
        p += B
)";

// A store through a pointer made from an integer read from memory: it could be anywhere.
const char* kIndirect = R"(
kernel @indirect(%x: ptr<f32>, %addrs: ptr<i64>) {
  %a = load %addrs : i64
  %q = int_to_ptr %a : ptr<f32>
  %v = load %x : f32
  store %q, %v
  return
}
)";
}  // namespace

TEST_CASE("write sets: which parameters a kernel may store through", "[interp][writeset]") {
  auto written = [](const char* name, const std::string& sig) {
    auto m = compilePython(kInPlace, name, {{"B", "8"}}, sig);
    return interp::writtenParams(*m->kernels[0]);
  };
  CHECK(written("bump_and_keep", "x: *fp32, out: *fp32") == std::vector<bool>{false, true});
  CHECK(written("pick", "x: *fp32, y: *fp32, which: i32") == std::vector<bool>{true, true, false});
  CHECK(written("walk", "x: *fp32, y: *fp32") == std::vector<bool>{false, true});
  CHECK_FALSE(interp::writtenParams(*parseVerified(kIndirect)->kernels[0]).has_value());
}

TEST_CASE("a load from a buffer the kernel also writes keeps its values (no in-place aliasing)", "[interp][writeset]") {
  auto m = compilePython(kInPlace, "bump_and_keep", {{"B", "8"}}, "x: *fp32, out: *fp32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16), buffer("y", ScalarKind::F32, 16)};
  for (int i = 0; i < 8; ++i) as<float>(b[0])[i] = float(i) * 0.5f, as<float>(b[1])[i] = float(i) * 0.25f;
  // x and out are one buffer: the store to out changes what x points at.
  runChecked(*m, b, {bufArg(0), bufArg(0)});
  for (int i = 0; i < 8; ++i) {
    CHECK(as<float>(b[0])[i] == float(i) * 0.5f + 1);
    CHECK(as<float>(b[0])[8 + i] == float(i) * 0.5f);
  }
  // Separate buffers: x is read in place, out gets both results.
  runChecked(*m, b, {bufArg(1), bufArg(0)});
  for (int i = 0; i < 8; ++i) {
    CHECK(as<float>(b[0])[i] == float(i) * 0.25f + 1);
    CHECK(as<float>(b[0])[8 + i] == float(i) * 0.25f);
  }
}

TEST_CASE("shadow memory reused by the next launch starts clean", "[interp][shadow]") {
  const char* k = R"(
import triton
import triton.language as tl

@triton.jit
def fill(x, B: tl.constexpr):
    tl.store(x + tl.arange(0, B), tl.full([B], 1.0, tl.float32))

@triton.jit
def copy(x, y, B: tl.constexpr):
    tl.store(y + tl.arange(0, B), tl.load(x + tl.arange(0, B)))
)";
  auto fill = compilePython(k, "fill", {{"B", "64"}}, "x: *fp32");
  auto copy = compilePython(k, "copy", {{"B", "64"}}, "x: *fp32, y: *fp32");
  for (int round = 0; round < 3; ++round) {
    // Two programs write all of x: a race, and every element of x marked written.
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 64), buffer("y", ScalarKind::F32, 64)};
    b[0].initialized = false;
    interp::LaunchOptions o;
    o.grid = {2, 1, 1};
    auto r1 = interp::run(*fill, *fill->kernels[0], b, {bufArg(0)}, o);
    REQUIRE(r1.findings.size() == 1);
    CHECK(r1.findings[0].kind == interp::Finding::Kind::Race);
    // A fresh empty buffer of the same size: nothing written yet, nothing accessed yet.
    std::vector<interp::Buffer> c{buffer("x", ScalarKind::F32, 64), buffer("y", ScalarKind::F32, 64)};
    c[0].initialized = false;
    o.grid = {1, 1, 1};
    auto r2 = interp::run(*copy, *copy->kernels[0], c, {bufArg(0), bufArg(1)}, o);
    REQUIRE(r2.findings.size() == 1);
    CHECK(r2.findings[0].kind == interp::Finding::Kind::Uninitialized);
    CHECK(r2.findings[0].count == 64);
  }
}

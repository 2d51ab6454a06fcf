// InterpReuseTest.cpp - tiles that share memory: broadcast operands read as views, results
// computed in a dead operand's memory, loop-carried values updated in their own buffers. Each
// checks values computed here (f32, op by op) and the reference path without views or reuse
// (runChecked), and the reuse tests also which ops may take over which operand.
#include "InterpHarness.h"
#include "interpreter/Exec.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

// The instructions of `b` (not of nested regions) with opcode `code`, in program order.
std::vector<const interp::Instr*> opsOf(const interp::CBlock& b, ir::Opcode code) {
  std::vector<const interp::Instr*> found;
  for (const interp::Instr& ins : b.instrs)
    if (ins.op->code == code) found.push_back(&ins);
  return found;
}

}  // namespace

TEST_CASE("broadcast operands (views) give the same elements as copies, in and out of loops", "[interp][views]") {
  // Row, column and scalar broadcasts into elementwise ops (read as views), a view through
  // expand_dims, views into ops that need copies (where, sum, store), and a view carried by a
  // loop whose iteration memory is released. Expected values computed here, op by op in f32.
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def views(x, v, w, out, s, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    t = tl.load(x + r[:, None] * C + c[None, :])
    rv = tl.load(v + r)
    cv = tl.load(w + c)
    a = t - rv[:, None]
    b = cv[None, :] * a
    d = b / s
    m = tl.maximum(rv[:, None], cv[None, :])
    e = tl.where(m > 0, tl.broadcast_to(rv[:, None], (R, C)), d)
    carry = tl.broadcast_to(cv[None, :], (R, C))
    for i in range(3):
        g = rv * (i + 1.0)
        carry = tl.broadcast_to(g[:, None], (R, C)) + carry * 0.5
    tl.store(out + r[:, None] * C + c[None, :], d + m)
    tl.store(out + R * C + r[:, None] * C + c[None, :], e)
    tl.store(out + 2 * R * C + r[:, None] * C + c[None, :], carry)
    tl.store(out + 3 * R * C + r, tl.sum(tl.broadcast_to(rv[:, None], (R, C)), 1))
)";
  const int64_t R = 16, C = 32;
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  auto m = compilePython(src, "views", {{"R", "16"}, {"C", "32"}}, "x: *fp32, v: *fp32, w: *fp32, out: *fp32, s: fp32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, R * C), buffer("v", ScalarKind::F32, R),
                                buffer("w", ScalarKind::F32, C), buffer("out", ScalarKind::F32, 3 * R * C + R)};
  for (int k = 0; k < 3; ++k) fillNormal(b[size_t(k)], rng);
  const float s = 1.7f;
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2), bufArg(3), floatArg(s)});
  INFO("seed " << seed);
  const float* x = as<float>(b[0]);
  const float* v = as<float>(b[1]);
  const float* w = as<float>(b[2]);
  const float* o = as<float>(b[3]);
  for (int64_t i = 0; i < R; ++i) {
    for (int64_t j = 0; j < C; ++j) {
      volatile float a = x[i * C + j] - v[i];
      volatile float bb = w[j] * a;
      volatile float d = bb / s;
      float mx = std::max(v[i], w[j]);
      volatile float dm = d + mx;
      REQUIRE(o[i * C + j] == dm);
      REQUIRE(o[R * C + i * C + j] == (mx > 0 ? v[i] : d));
      float carry = w[j];
      for (int it = 0; it < 3; ++it) {
        volatile float g = v[i] * float(it + 1);
        volatile float half = carry * 0.5f;
        carry = g + half;
      }
      REQUIRE(o[2 * R * C + i * C + j] == carry);
    }
    // sum of C copies of v[i] in the halving tree: C = 32 is a power of two, so exactly v[i] * 32.
    REQUIRE(o[3 * R * C + i] == v[i] * float(C));
  }
}

TEST_CASE("results computed in a dead operand's memory: only at its last use, never through an alias", "[interp][reuse]") {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def reuse(x, y, out, c, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(x + r[:, None] * N + r[None, :])
    b = tl.load(y + r[:, None] * N + r[None, :])
    t = a * b
    u = t + 1.0
    w = tl.exp(u)
    v = a - b
    e = tl.reshape(v, (N, N))
    f = v * 3.0
    s = a + 2.0
    if c > 0:
        g = s
    else:
        g = a
    h = s * 0.5
    acc = b * 1.0
    d = tl.dot(a, b, acc)
    acc2 = a * 2.0
    d2 = tl.dot(a, b, acc2)
    k = acc2 + 0.0
    o = out + r[:, None] * N + r[None, :]
    tl.store(o, w)
    tl.store(o + N * N, e + f)
    tl.store(o + 2 * N * N, g + h)
    tl.store(o + 3 * N * N, d)
    tl.store(o + 4 * N * N, d2 + k)
)";
  const int64_t N = 16;
  auto m = compilePython(src, "reuse", {{"N", "16"}}, "x: *fp32, y: *fp32, out: *fp32, c: i32");
  // Which ops may take over an operand (found by opcode, in program order).
  interp::CompiledKernel ck = interp::compileKernel(*m, *m->kernels[0], true);
  auto mulf = opsOf(ck.body, ir::Opcode::MulF), addf = opsOf(ck.body, ir::Opcode::AddF);
  auto dots = opsOf(ck.body, ir::Opcode::Dot), exps = opsOf(ck.body, ir::Opcode::Exp);
  REQUIRE(mulf.size() == 5);  // t, f, h, acc, acc2
  REQUIRE(addf.size() >= 3);
  REQUIRE(dots.size() == 2);
  CHECK(mulf[0]->reuseOperand == -1);  // t = a * b: a and b are loads (not fresh)
  CHECK(addf[0]->reuseOperand == 0);   // u = t + 1: t dies here
  CHECK(exps[0]->reuseOperand == 0);   // w = exp(u)
  CHECK(mulf[1]->reuseOperand == -1);  // f = v * 3: v is also reshaped (an alias)
  CHECK(mulf[2]->reuseOperand == -1);  // h = s * 0.5: s also flows out of the if
  CHECK(dots[0]->reuseOperand == 2);   // d = dot(a, b, acc): acc dies here
  CHECK(dots[1]->reuseOperand == -1);  // d2 = dot(a, b, acc2): acc2 is read later
  // And the values: the reference path (no reuse) against the optimized one, plus f32 here.
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  for (int64_t c : {1, 0}) {
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, N * N), buffer("y", ScalarKind::F32, N * N),
                                  buffer("out", ScalarKind::F32, 5 * N * N)};
    fillNormal(b[0], rng);
    fillNormal(b[1], rng);
    runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2), intArg(c)});
    INFO("seed " << seed << " c " << c);
    const float* x = as<float>(b[0]);
    const float* y = as<float>(b[1]);
    const float* o = as<float>(b[2]);
    for (int64_t i = 0; i < N * N; ++i) {
      volatile float v = x[i] - y[i], f = v * 3.0f, s = x[i] + 2.0f, h = s * 0.5f;
      volatile float ef = v + f, g = c > 0 ? s : x[i], gh = g + h;
      REQUIRE(o[N * N + i] == ef);
      REQUIRE(o[2 * N * N + i] == gh);
    }
  }
}

TEST_CASE("a for loop's carried values are updated in their own buffers when nothing else reads them", "[interp][reuse]") {
  const char* src = R"(
import triton
import triton.language as tl

@triton.jit
def carried(x, y, out, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(x + r[:, None] * N + r[None, :])
    b = tl.load(y + r[:, None] * N + r[None, :])
    acc = a + 0.0
    keep = b + 0.0
    both = a + 0.0
    mm = tl.zeros((N, N), dtype=tl.float32)
    for i in range(3):
        h = acc * 0.5
        acc = h + b
        keep = keep
        t = both * 2.0
        both = t + both
        mm = tl.dot(a, b, mm)
    o = out + r[:, None] * N + r[None, :]
    tl.store(o, acc)
    tl.store(o + N * N, keep)
    tl.store(o + 2 * N * N, both)
    tl.store(o + 3 * N * N, mm)
)";
  const int64_t N = 16;
  auto m = compilePython(src, "carried", {{"N", "16"}}, "x: *fp32, y: *fp32, out: *fp32");
  interp::CompiledKernel ck = interp::compileKernel(*m, *m->kernels[0], true);
  auto loops = opsOf(ck.body, ir::Opcode::For);
  REQUIRE(loops.size() == 1);
  const interp::CBlock* body = &loops[0]->regions[0];
  auto mulf = opsOf(*body, ir::Opcode::MulF), addf = opsOf(*body, ir::Opcode::AddF), dots = opsOf(*body, ir::Opcode::Dot);
  REQUIRE((mulf.size() == 2 && addf.size() == 2 && dots.size() == 1));
  CHECK(mulf[0]->reuseOperand == 0);   // h = acc * 0.5: the carried acc dies here
  CHECK(addf[0]->reuseOperand == 0);   // acc = h + b
  CHECK(mulf[1]->reuseOperand == -1);  // t = both * 2: both is read again below
  CHECK(addf[1]->reuseOperand == 0);   // both = t + both: t dies (both is read, not reused first)
  CHECK(dots[0]->reuseOperand == 2);   // mm = dot(a, b, mm): the carried accumulator
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, N * N), buffer("y", ScalarKind::F32, N * N),
                                buffer("out", ScalarKind::F32, 4 * N * N)};
  fillNormal(b[0], rng);
  fillNormal(b[1], rng);
  runChecked(*m, b, {bufArg(0), bufArg(1), bufArg(2)});  // also against the path without reuse
  INFO("seed " << seed);
  const float* x = as<float>(b[0]);
  const float* y = as<float>(b[1]);
  const float* o = as<float>(b[2]);
  for (int64_t i = 0; i < N * N; ++i) {
    volatile float acc = x[i], both = x[i];
    for (int it = 0; it < 3; ++it) {
      volatile float h = acc * 0.5f;
      acc = h + y[i];
      volatile float t = both * 2.0f;
      both = t + both;
    }
    REQUIRE(o[i] == acc);
    REQUIRE(o[N * N + i] == y[i]);
    REQUIRE(o[2 * N * N + i] == both);
  }
}

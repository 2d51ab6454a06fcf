// MemoryModelTest.cpp - the interpreter's memory model (interpreter/Memory.h): shadows by
// allocation in granules of its bytes, whatever the pointee type (views of an f32 array as i8,
// f16, f64; a pointer table cast to another type); aliasing parameters and overlapping views
// sharing one allocation; pointer arithmetic past the address space; and the findings policy
// (benign races are notes, poison stores warnings, reading undefined elements the error).
#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;
using Kind = interp::Finding::Kind;
using Severity = interp::Finding::Severity;

namespace {

const char* kViews = R"(
import triton
import triton.language as tl

@triton.jit
def fill(x, y, VIEW: tl.constexpr, BLOCK: tl.constexpr, DIV: tl.constexpr):
    # The bytes of f32 x written through a VIEW pointer (all of them, or the first half when DIV
    # is 2), then x read as f32.
    if VIEW == 1:
        v = x.to(tl.pointer_type(tl.int8))
        n: tl.constexpr = 4 * BLOCK // DIV
        tl.store(v + tl.arange(0, n), tl.full([n], 0, tl.int8))
    elif VIEW == 2:
        v = x.to(tl.pointer_type(tl.float16))
        n: tl.constexpr = 2 * BLOCK // DIV
        tl.store(v + tl.arange(0, n), tl.full([n], 0.0, tl.float16))
    else:
        v = x.to(tl.pointer_type(tl.float64))
        n: tl.constexpr = BLOCK // 2 // DIV
        tl.store(v + tl.arange(0, n), tl.full([n], 0.0, tl.float64))
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)) + 1.0)

@triton.jit
def view_race(x, VIEW: tl.constexpr):
    # Programs 0 and 1 write VIEW elements [2 pid, 2 pid + 4) of f32 x: 2 and 3 in both.
    pid = tl.program_id(0)
    if VIEW == 1:
        v = x.to(tl.pointer_type(tl.int8))
        tl.store(v + 2 * pid + tl.arange(0, 4), tl.full([4], 1, tl.int8) + pid.to(tl.int8))
    elif VIEW == 2:
        v = x.to(tl.pointer_type(tl.float16))
        tl.store(v + 2 * pid + tl.arange(0, 4), tl.full([4], 1.0, tl.float16) + pid.to(tl.float16))
    else:
        v = x.to(tl.pointer_type(tl.float64))
        tl.store(v + 2 * pid + tl.arange(0, 4), tl.full([4], 1.0, tl.float64) + pid.to(tl.float64))

@triton.jit
def view_past_end(x, VIEW: tl.constexpr):
    # Eight VIEW elements from 4 before the end of x's bytes.
    if VIEW == 1:
        v = x.to(tl.pointer_type(tl.int8))
        tl.store(v + 60 + tl.arange(0, 8), tl.full([8], 1, tl.int8))
    elif VIEW == 2:
        v = x.to(tl.pointer_type(tl.float16))
        tl.store(v + 28 + tl.arange(0, 8), tl.full([8], 1.0, tl.float16))
    else:
        v = x.to(tl.pointer_type(tl.float64))
        tl.store(v + 4 + tl.arange(0, 8), tl.full([8], 1.0, tl.float64))
)";

const char* kTable = R"(
import triton
import triton.language as tl

@triton.jit
def table(tab, y, BLOCK: tl.constexpr):
    b = tl.load(tab).to(tl.pointer_type(tl.int8))
    tl.store(b + tl.arange(0, 4 * BLOCK), tl.full([4 * BLOCK], 0, tl.int8))
    f = tl.load(tab).to(tl.pointer_type(tl.float32))
    tl.store(y + tl.arange(0, BLOCK), tl.load(f + tl.arange(0, BLOCK)) + 2.0)
)";

const char* kAlias = R"(
import triton
import triton.language as tl

@triton.jit
def inplace(a, b, c, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(a + offs)
    tl.store(b + offs, x + 1.0)
    tl.store(c + offs, x * 2.0)

@triton.jit
def two_params(a, b, s, BLOCK: tl.constexpr):
    # Program 0 writes a[s:s+BLOCK], program 1 reads b[0:BLOCK]: the same elements when b is a
    # (s = 0) or a[BLOCK:] (s = BLOCK): a race.
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    if pid == 0:
        tl.store(a + s + offs, tl.full([BLOCK], 1.0, tl.float32))
    else:
        tl.store(a + 2 * BLOCK + offs, tl.load(b + offs))
)";

const char* kWrap = R"(
import triton
import triton.language as tl

@triton.jit
def wrap(x, off, back):
    tl.store(x + off + back + tl.arange(0, 4), tl.full([4], 1.0, tl.float32))
)";

const char* kPolicy = R"(
import triton
import triton.language as tl

@triton.jit
def same(out, SAME: tl.constexpr):
    if SAME:
        tl.store(out + tl.arange(0, 4), tl.full([4], 7.0, tl.float32))
    else:
        tl.store(out + tl.arange(0, 4), tl.full([4], 7.0, tl.float32) + tl.program_id(0))

@triton.jit
def poison(x, y, z, n, READ: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n))
    if READ:
        tl.store(z + offs, tl.load(y + offs))
)";

std::unique_ptr<ir::Module> viewKernel(const char* name, int view, int block = 16, bool half = false) {
  std::string sig = std::string(name) == "fill" ? "x: *fp32, y: *fp32" : "x: *fp32";
  std::map<std::string, std::string> d{{"VIEW", std::to_string(view)}};
  if (std::string(name) == "fill") d["BLOCK"] = std::to_string(block), d["DIV"] = half ? "2" : "1";
  return compilePython(kViews, name, d, sig);
}

const char* viewName(int view) { return view == 1 ? "i8" : view == 2 ? "f16" : "f64"; }
unsigned viewBytes(int view) { return view == 1 ? 1 : view == 2 ? 2 : 8; }

}  // namespace

TEST_CASE("i8, f16 and f64 views of an f32 array share its shadow, in its bytes", "[interp][memory]") {
  for (int view : {1, 2, 3}) {
    INFO("view " << viewName(view));
    // Every byte written through the view: reading x as f32 is defined (no finding, no crash).
    {
      auto m = viewKernel("fill", view);
      std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16), buffer("y", ScalarKind::F32, 16)};
      b[0].initialized = false;
      runChecked(*m, b, {bufArg(0), bufArg(1)});
      for (int i = 0; i < 16; ++i) CHECK(as<float>(b[1])[i] == 1.0f);
    }
    // Half of the bytes: exactly the upper 8 f32 elements were never written.
    {
      auto m = viewKernel("fill", view, 16, true);
      std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16), buffer("y", ScalarKind::F32, 16)};
      b[0].initialized = false;
      auto r = runBothWays(*m, b, {bufArg(0), bufArg(1)}, {});
      REQUIRE(r.findings.size() == 1);
      CHECK(r.findings[0].kind == Kind::Uninitialized);
      CHECK(r.findings[0].element == 8);
      CHECK(r.findings[0].count == 8);
    }
    // Two programs' view elements overlap in two elements: the race names them in view units,
    // in every schedule.
    for (interp::Schedule s : {interp::Schedule::Serial, interp::Schedule::Reverse, interp::Schedule::Parallel}) {
      auto m = viewKernel("view_race", view);
      std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16)};
      interp::LaunchOptions o;
      o.grid = {2, 1, 1};
      o.schedule = s;
      auto r = runBothWays(*m, b, {bufArg(0)}, o, true);
      INFO(r.text());
      REQUIRE(r.findings.size() == 1);
      CHECK(r.findings[0].kind == Kind::Race);
      CHECK(r.findings[0].severity == Severity::Error);
      CHECK(r.findings[0].element == 2);
      CHECK(r.findings[0].count == 2);
    }
    // Past the end: the message counts view elements (x is 64 bytes).
    {
      auto m = viewKernel("view_past_end", view);
      std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16)};
      auto r = runBothWays(*m, b, {bufArg(0)}, {});
      REQUIRE(r.findings.size() == 1);
      const unsigned eb = viewBytes(view);
      const int64_t numel = 64 / eb;
      CHECK(r.findings[0].kind == Kind::OutOfBounds);
      CHECK(r.findings[0].element == numel);
      CHECK(r.findings[0].count == 4);
      const std::string want = "store of x[" + std::to_string(numel) + "] is 1 element past the end of x (" +
                               std::to_string(numel) + " elements of " + std::to_string(eb) + (eb == 1 ? " byte" : " bytes") +
                               "; x holds 16 f32); lane 4, 4 lanes out of bounds";
      CHECK(r.findings[0].detail == want);
    }
  }
}

TEST_CASE("a pointer table cast to another element type indexes the array's shadow in bytes", "[interp][memory]") {
  auto m = compilePython(kTable, "table", {{"BLOCK", "16"}}, "tab: *i64, y: *fp32");
  for (bool symbolic : {true, false}) {
    std::vector<interp::Buffer> b{buffer("tab", ScalarKind::I64, 1), buffer("y", ScalarKind::F32, 16),
                                  buffer("x", ScalarKind::F32, 16)};
    b[2].initialized = false;
    as<int64_t>(b[0])[0] = int64_t(reinterpret_cast<uintptr_t>(b[2].bytes.data()));
    interp::LaunchOptions o;
    o.symbolic = symbolic;
    auto r = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1)}, o);
    INFO(r.text());
    CHECK(r.findings.empty());
    for (int i = 0; i < 16; ++i) CHECK(as<float>(b[1])[i] == 2.0f);
  }
}

TEST_CASE("one array bound to two parameters: loads keep their value, races are seen", "[interp][memory]") {
  // x = load(a); store(b, x + 1); store(c, x * 2) with a and b one array: c = 2 x.
  auto m = compilePython(kAlias, "inplace", {{"BLOCK", "8"}}, "a: *fp32, b: *fp32, c: *fp32");
  std::vector<interp::Buffer> b{buffer("a", ScalarKind::F32, 8), buffer("c", ScalarKind::F32, 8)};
  for (int i = 0; i < 8; ++i) as<float>(b[0])[i] = float(i);
  runChecked(*m, b, {bufArg(0), bufArg(0), bufArg(1)});
  for (int i = 0; i < 8; ++i) {
    CHECK(as<float>(b[0])[i] == float(i) + 1);
    CHECK(as<float>(b[1])[i] == 2.0f * float(i));
  }
  // The same with two buffers over one memory (as the Python front door passes `t` twice).
  std::vector<float> t(8), c(8);
  for (int i = 0; i < 8; ++i) t[size_t(i)] = float(i);
  auto external = [](const char* name, std::vector<float>& v) {
    interp::Buffer e;
    e.name = name;
    e.shape = {int64_t(v.size())};
    e.external = reinterpret_cast<uint8_t*>(v.data());
    e.externalBytes = v.size() * 4;
    return e;
  };
  std::vector<interp::Buffer> ext{external("a", t), external("b", t), external("c", c)};
  auto r = interp::run(*m, *m->kernels[0], ext, {bufArg(0), bufArg(1), bufArg(2)}, {});
  CHECK(r.findings.empty());
  for (int i = 0; i < 8; ++i) CHECK(c[size_t(i)] == 2.0f * float(i));

  // Races through two parameters bound to one array, and through overlapping views of one
  // allocation (b = a[4:], as Python passes `t` and `t[4:]`: one allocation, a byte offset).
  auto race = compilePython(kAlias, "two_params", {{"BLOCK", "4"}}, "a: *fp32, b: *fp32, s: i32");
  for (int views = 0; views < 2; ++views) {
    INFO((views ? "overlapping views" : "one buffer twice"));
    std::vector<float> mem(12, 0.0f);
    std::vector<interp::Buffer> bs{external("a", mem)};
    std::vector<interp::Arg> args{bufArg(0), bufArg(0), intArg(0)};
    if (views) {  // b = a[4:]: a buffer over the last 8 floats of a's memory
      interp::Buffer v = external("b", mem);
      v.external += 16;
      v.externalBytes -= 16;
      v.shape = {8};
      bs.push_back(v);
      args[1] = bufArg(1);
      args[2] = intArg(4);
    }
    interp::LaunchOptions o;
    o.grid = {2, 1, 1};
    o.schedule = interp::Schedule::Serial;
    auto rr = interp::run(*race, *race->kernels[0], bs, args, o);
    REQUIRE(rr.findings.size() == 1);
    CHECK(rr.findings[0].kind == Kind::Race);
    CHECK(rr.findings[0].buffer == (views ? "b" : "a"));
    CHECK(rr.findings[0].count == 4);
    CHECK(rr.findings[0].element == 0);
  }
}

TEST_CASE("pointer arithmetic past the 64-bit address space is out of bounds at its true index", "[interp][memory]") {
  auto m = compilePython(kWrap, "wrap", {}, "x: *fp32, off: i64, back: i64");
  const int64_t big = int64_t(1) << 62;  // x + 2**62 f32 elements: 2^64 bytes, wrapping onto x
  {
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16)};
    auto r = runBothWays(*m, b, {bufArg(0), intArg(big), intArg(0)}, {});
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].kind == Kind::OutOfBounds);
    CHECK(r.findings[0].element == big);
    CHECK(r.findings[0].detail.find("store of x[4611686018427387904] is 4611686018427387889 elements past the end") == 0);
    for (int i = 0; i < 16; ++i) CHECK(as<float>(b[0])[i] == 0.0f);  // nothing written
  }
  {
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16)};
    auto r = runBothWays(*m, b, {bufArg(0), intArg(-big), intArg(0)}, {});
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].element == -big);
  }
  {  // exact arithmetic: there and back again lands on x[0..3]
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16)};
    runChecked(*m, b, {bufArg(0), intArg(big), intArg(-big)});
    CHECK(as<float>(b[0])[3] == 1.0f);
  }
}

TEST_CASE("identical writes by several programs are a note, an error when strict", "[interp][memory][races]") {
  for (bool same : {true, false})
    for (bool strict : {false, true})
      for (interp::Schedule s : {interp::Schedule::Serial, interp::Schedule::Reverse, interp::Schedule::Parallel}) {
        INFO("same " << same << " strict " << strict << " schedule " << int(s));
        auto m = compilePython(kPolicy, "same", {{"SAME", same ? "1" : "0"}}, "out: *fp32");
        std::vector<interp::Buffer> b{buffer("out", ScalarKind::F32, 4)};
        interp::LaunchOptions o;
        o.grid = {64, 1, 1};
        o.schedule = s;
        o.checks.strict = strict;
        auto r = runBothWays(*m, b, {bufArg(0)}, o, true);
        if (same) CHECK(as<float>(b[0])[3] == 7.0f);
        REQUIRE(r.findings.size() == 1);
        CHECK(r.findings[0].kind == Kind::Race);
        CHECK(r.errors() == (same && !strict ? 0u : 1u));
        CHECK(r.findings[0].severity == (same && !strict ? Severity::Note : Severity::Error));
        if (same) CHECK(r.text().find(strict ? ": data-race: " : ": note: data-race: ") != std::string::npos);
        if (same) CHECK(r.json().find(strict ? "\"severity\": \"error\"" : "\"severity\": \"note\"") != std::string::npos);
      }
}

TEST_CASE("two programs storing at once: different bits are never called benign", "[interp][memory][races]") {
  // Two programs, run in parallel, each store to the same four elements: whichever records
  // second must compare with the bits the first stored, however the two stores interleave.
  for (bool same : {true, false}) {
    auto m = compilePython(kPolicy, "same", {{"SAME", same ? "1" : "0"}}, "out: *fp32");
    for (int launch = 0; launch < 3000; ++launch) {
      std::vector<interp::Buffer> b{buffer("out", ScalarKind::F32, 4)};
      interp::LaunchOptions o;
      o.grid = {2, 1, 1};
      o.schedule = interp::Schedule::Parallel;
      auto r = interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o);
      INFO("same " << same << " launch " << launch << "\n" << r.text());
      REQUIRE(r.findings.size() == 1);
      REQUIRE(r.findings[0].severity == (same ? Severity::Note : Severity::Error));
    }
  }
}

TEST_CASE("a poison store is a warning; reading the undefined elements is the error", "[interp][memory]") {
  for (bool read : {false, true}) {
    auto m = compilePython(kPolicy, "poison", {{"READ", read ? "1" : "0"}, {"BLOCK", "16"}},
                           "x: *fp32, y: *fp32, z: *fp32, n: i32");
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16), buffer("y", ScalarKind::F32, 16),
                                  buffer("z", ScalarKind::F32, 16)};
    auto r = runBothWays(*m, b, {bufArg(0), bufArg(1), bufArg(2), intArg(10)}, {});
    INFO(r.text());
    REQUIRE(r.findings.size() == (read ? 2u : 1u));
    CHECK(r.errors() == (read ? 1u : 0u));
    for (const auto& f : r.findings) {
      if (f.kind == Kind::Poison) {
        CHECK(f.severity == Severity::Warning);
        CHECK(f.element == 10);
        CHECK(f.count == 6);
      } else {
        CHECK(f.kind == Kind::Uninitialized);
        CHECK(f.severity == Severity::Error);
        CHECK(f.buffer == "y");
        CHECK(f.element == 10);
        CHECK(f.count == 6);
        CHECK(f.detail.find("load reads undefined element y[10]") == 0);
      }
    }
  }
}

TEST_CASE("undefined elements carry into the next launch on the same memory", "[interp][memory]") {
  // Launch 1 stores poison into y[10..16) (a warning); launch 2 reads y through another
  // parameter binding of the same memory: the read of those elements is the error, in the
  // buffer's elements of the second launch's type (an i16 view: y[20..32)). Without the first
  // launch's record the same bytes are defined.
  auto store = compilePython(kPolicy, "poison", {{"READ", "0"}, {"BLOCK", "16"}}, "x: *fp32, y: *fp32, z: *fp32, n: i32");
  auto read = compilePython(kPolicy, "poison", {{"READ", "0"}, {"BLOCK", "32"}}, "x: *i16, y: *i16, z: *i16, n: i32");
  std::vector<uint8_t> memory(64, 0);
  auto external = [&](const char* name, ScalarKind k, int64_t n, uint8_t* at) {
    interp::Buffer b = buffer(name, k, n);
    b.bytes.clear();
    b.external = at;
    b.externalBytes = size_t(n) * (k == ScalarKind::I16 ? 2 : 4);
    return b;
  };
  std::vector<uint8_t> xs(64, 0), zs(64, 0);
  std::vector<interp::Buffer> b1{external("x", ScalarKind::F32, 16, xs.data()), external("y", ScalarKind::F32, 16, memory.data()),
                                 external("z", ScalarKind::F32, 16, zs.data())};
  auto r1 = interp::run(*store, *store->kernels[0], b1, {bufArg(0), bufArg(1), bufArg(2), intArg(10)}, {});
  REQUIRE(r1.findings.size() == 1);
  CHECK(r1.findings[0].kind == Kind::Poison);
  REQUIRE(b1[1].undefined.size() == 1);
  CHECK(b1[1].undefined[0] == std::pair<uint64_t, uint64_t>{40, 64});
  CHECK(b1[0].undefined.empty());
  for (bool carried : {true, false}) {
    INFO("carried " << carried);
    // Launch 2 loads y (as x) with every lane active and stores it to z.
    std::vector<interp::Buffer> b2{external("y", ScalarKind::I16, 32, memory.data()), external("w", ScalarKind::I16, 32, zs.data()),
                                   external("z", ScalarKind::I16, 32, zs.data())};
    if (carried) b2[0].undefined = b1[1].undefined;
    auto r2 = interp::run(*read, *read->kernels[0], b2, {bufArg(0), bufArg(1), bufArg(2), intArg(32)}, {});
    INFO(r2.text());
    if (!carried) {
      CHECK(r2.findings.empty());
      continue;
    }
    REQUIRE(r2.findings.size() == 1);
    const auto& f = r2.findings[0];
    CHECK(f.kind == Kind::Uninitialized);
    CHECK(f.severity == Severity::Error);
    CHECK(f.buffer == "y");
    CHECK(f.element == 20);
    CHECK(f.count == 12);
  }
}

TEST_CASE("the planted shadow-indexing bug (test only) is visible", "[interp][memory]") {
  // With the switch, an f64 view's stores mark half the granules they cover: a false finding.
  auto m = viewKernel("fill", 3);
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16), buffer("y", ScalarKind::F32, 16)};
  b[0].initialized = false;
  interp::LaunchOptions o;
  auto clean = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1)}, o);
  CHECK(clean.findings.empty());
  o.testPlantShadowBug = true;
  auto planted = interp::run(*m, *m->kernels[0], b, {bufArg(0), bufArg(1)}, o);
  REQUIRE(planted.findings.size() == 1);
  CHECK(planted.findings[0].kind == Kind::Uninitialized);
}

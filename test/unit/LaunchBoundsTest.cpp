// LaunchBoundsTest.cpp - a launch's time and memory are bounded: LaunchOptions::cancel stops it
// (set before or during the launch, from another thread), the deadline stops straight-line
// code, a fault in a loop is one merged finding, and a sample of programs runs just those.
#include <atomic>
#include <chrono>
#include <thread>

#include "InterpHarness.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;
using Kind = interp::Finding::Kind;

namespace {

const char* kKernels = R"(
import triton
import triton.language as tl


@triton.jit
def straight(x):
    acc = tl.zeros([65536], dtype=tl.float32)
    for i in tl.static_range(4096):
        acc = tl.exp(acc * 0.5 + 1.0)
    tl.store(x + tl.arange(0, 65536), acc)


@triton.jit
def mark(x):
    pid = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    tl.store(x + pid, pid + 1)


@triton.jit
def oob(x, n):
    for i in range(n):
        v = tl.load(x + 1000 + tl.arange(0, 16))
        tl.store(x + tl.arange(0, 16), v)
)";

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST_CASE("a launch cancelled before it starts runs no program", "[interp][limits]") {
  auto m = compilePython(kKernels, "straight", {}, "x: *fp32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 65536)};
  std::atomic<bool> cancel{true};
  interp::LaunchOptions o;
  o.grid = {100, 1, 1};
  o.cancel = &cancel;
  interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == Kind::Interrupted);
  CHECK(r.programs == 0);
  CHECK(r.findings[0].detail == "the launch was cancelled: 100 of 100 programs did not run and running ones were stopped");
}

TEST_CASE("a launch cancelled from another thread stops within straight-line code", "[interp][limits]") {
  auto m = compilePython(kKernels, "straight", {}, "x: *fp32");
  for (unsigned threads : {1u, 0u}) {
    INFO("threads " << threads);
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 65536)};
    std::atomic<bool> cancel{false};
    interp::LaunchOptions o;
    o.grid = {64, 1, 1};  // 64 programs of 4096 unrolled 65536-element ops: minutes
    o.threads = threads;
    o.cancel = &cancel;
    auto start = std::chrono::steady_clock::now();
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      cancel.store(true);
    });
    interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o);
    stopper.join();
    CHECK(secondsSince(start) < 5);
    REQUIRE(!r.findings.empty());
    CHECK(r.findings.back().kind == Kind::Interrupted);
    CHECK(r.programs < 64);
  }
}

TEST_CASE("the deadline stops straight-line code", "[interp][limits]") {
  auto m = compilePython(kKernels, "straight", {}, "x: *fp32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 65536)};
  interp::LaunchOptions o;
  o.grid = {64, 1, 1};
  o.threads = 1;
  o.timeoutSeconds = 0.2;
  auto start = std::chrono::steady_clock::now();
  interp::Report r = interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o);
  CHECK(secondsSince(start) < 5);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == Kind::Timeout);
}

// (The report merged these before too; what changed is that a program holds one finding, not
// one per iteration: test/lit/limits/launch-bounds.test bounds the memory.)
TEST_CASE("a fault in a loop is one finding whose count grows", "[interp][limits]") {
  auto m = compilePython(kKernels, "oob", {}, "x: *fp32, n: i32");
  std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 16)};
  auto r = runBothWays(*m, b, {bufArg(0), intArg(1000)}, {});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == Kind::OutOfBounds);
  CHECK(r.findings[0].element == 1000);
  CHECK(r.findings[0].count == 16 * 1000);
}

TEST_CASE("LaunchOptions::programs runs just the programs it names, on every schedule", "[interp][limits]") {
  auto m = compilePython(kKernels, "mark", {}, "x: *i32");
  for (interp::Schedule s : {interp::Schedule::Serial, interp::Schedule::Reverse, interp::Schedule::Parallel}) {
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::I32, 40)};
    interp::LaunchOptions o;
    o.grid = {8, 5, 1};
    o.schedule = s;
    o.programs = {0, 9, 17, 39};
    auto r = interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o);
    INFO(r.text());
    CHECK(r.findings.empty());
    CHECK(r.programs == 4);
    for (int i = 0; i < 40; ++i) {
      const bool ran = i == 0 || i == 9 || i == 17 || i == 39;
      CHECK(as<int32_t>(b[0])[i] == (ran ? i + 1 : 0));
    }
  }
  for (std::vector<uint64_t> bad : {std::vector<uint64_t>{3, 1}, std::vector<uint64_t>{40}, std::vector<uint64_t>{2, 2}}) {
    std::vector<interp::Buffer> b{buffer("x", ScalarKind::I32, 40)};
    interp::LaunchOptions o;
    o.grid = {8, 5, 1};
    o.programs = bad;
    CHECK_THROWS_AS(interp::run(*m, *m->kernels[0], b, {bufArg(0)}, o), std::invalid_argument);
  }
}

// RaceShadowTest.cpp - the race shadow kept per chunk while accesses cover whole chunks and per
// element after a partial access splits a chunk (interpreter/Races.cpp): two programs access
// random spans of one buffer, aligned or not, reading or writing; the report must name exactly
// the overlap computed here from the spans (first element, element count, both programs) in
// every schedule.
#include "InterpHarness.h"
#include "interpreter/Memory.h"

using namespace tilevm;
using namespace tilevm::test;
using ir::ScalarKind;

namespace {

const char* kSpans = R"(
import triton
import triton.language as tl

@triton.jit
def spans(x, y, lo0, lo1, W0: tl.constexpr, W1: tl.constexpr, B0: tl.constexpr, B1: tl.constexpr):
    pid = tl.program_id(0)
    if pid == 0:
        offs0 = lo0 + tl.arange(0, B0)
        if W0:
            tl.store(x + offs0, tl.full([B0], 1.0, tl.float32))
        else:
            tl.store(y + tl.arange(0, B0), tl.load(x + offs0))
    else:
        offs1 = lo1 + tl.arange(0, B1)
        if W1:
            tl.store(x + offs1, tl.full([B1], 2.0, tl.float32))
        else:
            tl.store(y + 64 + tl.arange(0, B1), tl.load(x + offs1))
)";

}  // namespace

TEST_CASE("chunked race shadow reports exactly the overlap of two programs' spans", "[interp][races]") {
  uint64_t seed = freshSeed();
  std::mt19937_64 rng(seed);
  const int64_t sizes[] = {8, 16, 32, 64};
  int races = 0;
  for (int round = 0; round < 120; ++round) {
    int64_t b0 = sizes[rng() % 4], b1 = sizes[rng() % 4];
    int64_t lo0 = int64_t(rng() % 64), lo1 = int64_t(rng() % 64);
    if (rng() % 2) lo0 &= ~int64_t(15);  // chunk-aligned half the time
    if (rng() % 2) lo1 &= ~int64_t(15);
    bool w0 = rng() % 3 != 0, w1 = rng() % 3 != 0;
    INFO("seed " << seed << " spans [" << lo0 << ", +" << b0 << ") " << (w0 ? "write" : "read") << " and [" << lo1 << ", +"
                 << b1 << ") " << (w1 ? "write" : "read"));
    auto m = compilePython(kSpans, "spans",
                           {{"W0", w0 ? "1" : "0"}, {"W1", w1 ? "1" : "0"}, {"B0", std::to_string(b0)}, {"B1", std::to_string(b1)}},
                           "x: *fp32, y: *fp32, lo0: i32, lo1: i32");
    int64_t first = std::max(lo0, lo1), last = std::min(lo0 + b0, lo1 + b1);
    bool race = (w0 || w1) && first < last;
    races += race;
    for (interp::Schedule s : {interp::Schedule::Serial, interp::Schedule::Reverse, interp::Schedule::Parallel}) {
      std::vector<interp::Buffer> b{buffer("x", ScalarKind::F32, 128), buffer("y", ScalarKind::F32, 128)};
      interp::LaunchOptions o;
      o.grid = {2, 1, 1};
      o.schedule = s;
      auto r = runBothWays(*m, b, {bufArg(0), bufArg(1), intArg(lo0), intArg(lo1)}, o,
                           race && s == interp::Schedule::Parallel);
      if (!race) {
        CHECK(r.findings.empty());
        continue;
      }
      REQUIRE(r.findings.size() == 1);
      const interp::Finding& f = r.findings[0];
      CHECK(f.kind == interp::Finding::Kind::Race);
      CHECK(f.buffer == "x");
      CHECK(f.element == first);
      CHECK(f.count == last - first);
      CHECK(f.pid[0] == 0);
      CHECK(f.otherPid[0] == 1);
    }
  }
  CHECK(races > 10);
}

TEST_CASE("buffers no store can reach get no race shadow; the others do", "[interp][races]") {
  std::vector<interp::Buffer> bufs{buffer("x", ScalarKind::F32, 64), buffer("y", ScalarKind::F32, 64)};
  interp::Checks checks;
  interp::AddressSpace tracked(bufs, checks, {});
  for (const interp::MemRegion& r : tracked.regions()) CHECK(r.alloc->race.words != nullptr);
  interp::AddressSpace partly(bufs, checks, {true, false});
  for (const interp::MemRegion& r : partly.regions()) {
    const bool isX = r.buffer == &bufs[0];
    CHECK(r.readOnly == isX);
    CHECK((r.alloc->race.words == nullptr) == isX);
  }
}

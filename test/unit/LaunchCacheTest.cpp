// LaunchCacheTest.cpp - the runtime's in-memory launch caches: a loaded kernel is written to
// bytecode once (to key it), the interpreter device prepares it once however often it launches,
// and a kernel without a key (built by hand, diff's round trip) is prepared at each launch.
#include <catch2/catch.hpp>

#include "runtime/Device.h"
#include "runtime/Launch.h"
#include "runtime/LaunchCache.h"
#include "runtime/RunOptions.h"
#include "TestKernels.h"

using namespace tilevm;

namespace {

rt::LoadedKernel loadVadd(std::vector<rt::ArgValue>& args) {
  SourceManager sources;
  auto loaded = rt::loadKernel(rt::KernelRequest{test::repoRoot() + "/examples/vadd.tile", "", {}, {}}, args, sources);
  REQUIRE(loaded);
  return std::move(*loaded);
}

std::vector<rt::ArgValue> vaddArgs() {
  auto args = rt::parseArgs({"x=randn:f32:300", "y=randn:f32:300", "o=empty:f32:300", "n=300"}, 1);
  REQUIRE(args);
  return std::move(*args);
}

}  // namespace

TEST_CASE("a loaded kernel is keyed once; repeated launches reuse its prepared kernel", "[launchcache]") {
  auto args = vaddArgs();
  rt::CacheCounters before = rt::cacheCounters();
  rt::LoadedKernel k = loadVadd(args);
  CHECK(rt::cacheCounters().bytecodeEncodes == before.bytecodeEncodes + 1);
  CHECK(k.key.size() == 32);
  auto device = rt::interpreterDevice();
  rt::LaunchOptions o;
  o.grid = {2, 1, 1};
  for (int launch = 0; launch < 3; ++launch) {
    auto fresh = vaddArgs();
    auto bound = rt::bindArgs(*k.kernel, fresh, true);
    REQUIRE(bound);
    auto ran = device->run(k, *bound, o);
    REQUIRE(ran);
    CHECK(ran->report.findings.empty());
    CHECK(ran->report.programs == 2);
    CHECK_FALSE(ran->gpu);  // the interpreter has no GPU statistics
  }
  rt::CacheCounters after = rt::cacheCounters();
  CHECK(after.bytecodeEncodes == before.bytecodeEncodes + 1);  // no launch wrote bytecode
  CHECK(after.prepares == before.prepares + 1);
  CHECK(after.hits == before.hits + 2);
  CHECK(after.moduleLoads == before.moduleLoads);
  // The dense reference path is another prepared kernel.
  o.interpreter.symbolic = false;
  auto fresh = vaddArgs();
  auto bound = rt::bindArgs(*k.kernel, fresh, true);
  REQUIRE(bound);
  REQUIRE(device->run(k, *bound, o));
  CHECK(rt::cacheCounters().prepares == before.prepares + 2);
}

TEST_CASE("the same kernel loaded twice has one key; another kernel another", "[launchcache]") {
  auto args = vaddArgs();
  rt::LoadedKernel a = loadVadd(args), b = loadVadd(args);
  CHECK(a.key == b.key);
  auto m = test::buildVadd(128);
  CHECK(rt::kernelKey(*m, *m->kernels[0]) != a.key);
}

TEST_CASE("a kernel without a key is prepared at each launch", "[launchcache]") {
  auto args = vaddArgs();
  rt::LoadedKernel k = loadVadd(args);
  k.key.clear();  // as diff's bytecode round trip builds it
  auto device = rt::interpreterDevice();
  rt::CacheCounters before = rt::cacheCounters();
  for (int launch = 0; launch < 2; ++launch) {
    auto fresh = vaddArgs();
    auto bound = rt::bindArgs(*k.kernel, fresh, true);
    REQUIRE(bound);
    REQUIRE(device->run(k, *bound, rt::LaunchOptions{}));
  }
  CHECK(rt::cacheCounters().prepares == before.prepares + 2);
  CHECK(rt::cacheCounters().hits == before.hits);
}

TEST_CASE("a launch's errors carry their kind; a bad grid is refused with the options' message", "[launchcache]") {
  auto args = vaddArgs();
  rt::LoadedKernel k = loadVadd(args);
  auto bound = rt::bindArgs(*k.kernel, args, true);
  REQUIRE(bound);
  rt::LaunchOptions o;
  o.grid = {0, 1, 1};
  auto ran = rt::interpreterDevice()->run(k, *bound, o);
  REQUIRE(!ran);
  CHECK(ran.error().kind == rt::ErrorKind::Input);
  CHECK(ran.error().diag.message == rt::checkGrid(o.grid, false)->message);
}

// FuzzHarnessTest.cpp - the executing fuzzer's invariant (test/fuzz/ExecuteKernel.h) on its seed
// kernels: it holds on the interpreter as it is, and breaks on the planted shadow-indexing bug.
#include <catch2/catch.hpp>

#include "TestKernels.h"
#include "frontend/Compile.h"
#include "test/fuzz/ExecuteKernel.h"

using namespace tilevm;

namespace {

struct Tally {
  int runs = 0, clean = 0, caught = 0;
  std::string firstBroken;
};

Tally tally(const std::string& file, const std::string& kernel, uint64_t bindings) {
  std::string src = test::readRepoFile(file);
  auto params = frontend::kernelParams(src, "fuzz.py", kernel);
  REQUIRE(params);
  Tally t;
  for (uint64_t seed = 0; seed < bindings; ++seed) {
    ++t.runs;
    auto clean = fuzz::executeKernel(src, kernel, *params, seed, false);
    if (!clean) ++t.clean;
    else if (t.firstBroken.empty()) t.firstBroken = *clean;
    t.caught += fuzz::executeKernel(src, kernel, *params, seed, true).has_value();
  }
  return t;
}

}  // namespace

TEST_CASE("the executing fuzzer's race invariant holds on its seeds and catches the planted shadow bug") {
  Tally race = tally("test/fuzz/seeds/cast_view_race.py", "cast_view_race", 64);
  INFO(race.firstBroken);
  CHECK(race.clean == race.runs);
  CHECK(race.caught > 0);  // f32 stores and f16 loads of one array indexed in their own units
  for (auto [file, kernel] : {std::pair{"test/fuzz/seeds/alias_views.py", "alias_views"},
                              std::pair{"test/fuzz/seeds/byte_view_uninit.py", "byte_view"}}) {
    Tally t = tally(file, kernel, 32);
    INFO(file << ": " << t.firstBroken);
    CHECK(t.clean == t.runs);
  }
}

TEST_CASE("a `# fuzz-bind: N` line picks the binding; otherwise the input's hash does") {
  CHECK(fuzz::bindingSeed("x = 1\n# fuzz-bind: 12345\n") == 12345);
  CHECK(fuzz::bindingSeed("a") != fuzz::bindingSeed("b"));
}

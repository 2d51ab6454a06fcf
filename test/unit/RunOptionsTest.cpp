// RunOptionsTest.cpp - the launch options checker (runtime/RunOptions.h): numbers never wrap,
// every option's range holds at both ends, and each bad value gets its one message.
#include <catch2/catch.hpp>

#include "runtime/RunOptions.h"

using namespace tilevm;

namespace {

template <typename T>
std::string message(const Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().file == "<command line>");
  return r.error().message;
}

rt::RunOptionTexts with(std::string rt::RunOptionTexts::*field, std::string value) {
  rt::RunOptionTexts t;
  t.*field = std::move(value);
  return t;
}

}  // namespace

TEST_CASE("run options: the defaults are the documented ones", "[options]") {
  auto o = rt::parseRunOptions(rt::RunOptionTexts{});
  REQUIRE(o.ok());
  CHECK(o->launch.grid == std::array<int64_t, 3>{1, 1, 1});
  CHECK(o->launch.interpreter.grid == o->launch.grid);
  CHECK(o->launch.interpreter.threads == 0);
  CHECK(o->launch.interpreter.schedule == interp::Schedule::Parallel);
  CHECK((o->launch.interpreter.checks.bounds && o->launch.interpreter.checks.races && o->launch.interpreter.checks.uninit));
  CHECK(o->launch.interpreter.timeoutSeconds == 300);
  CHECK(o->launch.interpreter.fuel == uint64_t(1) << 24);
  CHECK(o->seed == 0);
  CHECK_FALSE(o->device.gpu);
  CHECK(o->launch.gpu.numWarps == 4);
  CHECK(o->launch.gpu.numStages == 1);
  CHECK(o->launch.repeat == 1);
}

TEST_CASE("run options: integers never wrap and never go negative", "[options]") {
  // CLI11 read --fuel -18446744073709551610 as 6 and --fuel -1 as 2^64-1.
  for (const char* text : {"-18446744073709551610", "-1", "18446744073709551616", "99999999999999999999999", "", "+5", " 5",
                           "5 ", "0x10", "1e3", "1.0", "5abc"})
    CHECK(message(rt::parseFuel(text)) ==
          std::string("--fuel ") + text + ": expected an integer from 1 to 18446744073709551615 (loop iterations a program may run)");
  CHECK(*rt::parseFuel("18446744073709551615") == UINT64_MAX);
  CHECK(*rt::parseFuel("1") == 1);
  CHECK(message(rt::parseFuel("0")).find("from 1 to") != std::string::npos);
  CHECK(message(rt::parseSeed("-1")) == "--seed -1: expected an integer from 0 to 18446744073709551615");
  CHECK(*rt::parseSeed("0") == 0);
  CHECK(*rt::parseSeed("18446744073709551615") == UINT64_MAX);
  CHECK(message(rt::parseInteger("--x", "7", 8, 9, "why")) == "--x 7: expected an integer from 8 to 9 (why)");
}

TEST_CASE("run options: threads, warps, stages, repeat at their ends", "[options]") {
  CHECK(*rt::parseThreads("0") == 0);
  CHECK(*rt::parseThreads("1024") == 1024);
  CHECK(message(rt::parseThreads("1025")) ==
        "--threads 1025: expected an integer from 0 to 1024 (worker threads, 0 for all cores; see docs/limits.md)");
  CHECK(message(rt::parseThreads("65537")).rfind("--threads 65537: expected", 0) == 0);
  CHECK(message(rt::parseThreads("-1")).rfind("--threads -1: expected", 0) == 0);
  CHECK(message(rt::parseThreads("4294967297")).rfind("--threads 4294967297: expected", 0) == 0);  // not 1
  for (const char* w : {"1", "2", "4", "8", "16", "32"}) CHECK(rt::parseNumWarps(w).ok());
  for (const char* w : {"0", "3", "64", "-4", "4294967300"})
    CHECK(message(rt::parseNumWarps(w)) == std::string("--num-warps ") + w + ": expected a power of two from 1 to 32");
  CHECK(*rt::parseNumStages("8") == 8);
  CHECK(message(rt::parseNumStages("0")) == "--num-stages 0: expected an integer from 1 to 8 (1: no software pipelining)");
  CHECK(message(rt::parseNumStages("4294967297")).rfind("--num-stages 4294967297: expected", 0) == 0);
  CHECK(*rt::parseRepeat("1000000") == 1000000);
  CHECK(message(rt::parseRepeat("0")) == "--repeat 0: expected an integer from 1 to 1000000 (launches)");
}

TEST_CASE("run options: schedules, random:SEED included", "[options]") {
  uint64_t seed = 0;
  CHECK(*rt::parseSchedule("parallel", seed) == interp::Schedule::Parallel);
  CHECK(*rt::parseSchedule("serial", seed) == interp::Schedule::Serial);
  CHECK(*rt::parseSchedule("reverse", seed) == interp::Schedule::Reverse);
  CHECK(*rt::parseSchedule("random:18446744073709551615", seed) == interp::Schedule::Random);
  CHECK(seed == UINT64_MAX);
  const std::string expected =
      ": expected parallel, serial, reverse or random:SEED (SEED an integer from 0 to 18446744073709551615)";
  for (const char* s : {"bogus", "random:", "random:-1", "random:abc", "random:18446744073709551616", "Parallel", ""})
    CHECK(message(rt::parseSchedule(s, seed)) == "--schedule " + std::string(s) + expected);
}

TEST_CASE("run options: checks, timeout, device", "[options]") {
  auto c = rt::parseChecks("races,uninit");
  REQUIRE(c.ok());
  CHECK((!c->bounds && c->races && c->uninit));
  CHECK_FALSE(rt::parseChecks("none")->any());
  for (const char* s : {"bogus", "", "bounds,", ",races", "all,bounds"})
    CHECK(message(rt::parseChecks(s)) == "--check " + std::string(s) + ": expected all, none, or a list of bounds, races, uninit");
  CHECK(*rt::parseTimeout("0") == 0);
  CHECK(*rt::parseTimeout("1.5") == 1.5);
  CHECK(*rt::parseTimeout("10000000") == 1e7);
  for (const char* s : {"-1", "nan", "inf", "1e999", "10000001", "", " 1", "0x10", "1,5", "."})
    CHECK(message(rt::parseTimeout(s)) == "--timeout " + std::string(s) + ": expected a number from 0 to 10000000 (seconds, 0 for none)");
  CHECK_FALSE(rt::parseDevice("cpu")->gpu);
  CHECK(rt::parseDevice("cuda")->gpu);
  CHECK(rt::parseDevice("cuda:1023")->ordinal == 1023);
  for (const char* s : {"gpu", "cuda:", "cuda:x", "cuda:-1", "cuda:1024", "cuda:99999999999999999999", "CPU"})
    CHECK(message(rt::parseDevice(s)) == "--device " + std::string(s) + ": expected cpu, cuda or cuda:N (N from 0 to 1023)");
}

TEST_CASE("run options: grids and program ids", "[options]") {
  CHECK(*rt::parseGrid("7") == std::array<int64_t, 3>{7, 1, 1});
  CHECK(*rt::parseGrid("2147483647") == std::array<int64_t, 3>{2147483647, 1, 1});
  CHECK(*rt::parseGrid("65535,65537") == std::array<int64_t, 3>{65535, 65537, 1});  // 2^32 - 1 programs
  for (const char* s : {"0", "-1", "", "1,", "1,2,3,4", "2147483648", "18446744073709551617", "65536,65536", "65536,65536,65536",
                        "1.5", "4294967296,4294967296"}) {
    std::string m = message(rt::parseGrid(s));
    CHECK(m.rfind("--grid " + std::string(s) + ": expected X[,Y[,Z]] with positive integers", 0) == 0);
    CHECK(m.find("each dimension must be at most 2147483647") != std::string::npos);
    CHECK(m.find("at most 4294967295 programs in a launch") != std::string::npos);
  }
  // One check and one message for every grid, wherever it comes from; a GPU's Y and Z stop at 65535.
  CHECK_FALSE(rt::checkGrid({65535, 65537, 1}, false));
  CHECK(rt::checkGrid({1, 65536, 1}, true)->message ==
        std::string("--grid 1,65536,1: expected X[,Y[,Z]] with positive integers; ") + interp::kGridLimits +
            "; on a GPU Y and Z at most 65535");
  CHECK_FALSE(rt::checkGrid({2147483647, 1, 1}, true));
  CHECK_FALSE(rt::checkGrid({65535, 65535, 1}, true));
  CHECK(rt::checkGrid({0, 1, 1}, false)->message == std::string("--grid 0,1,1: expected X[,Y[,Z]] with positive integers; ") + interp::kGridLimits);
  auto gpuGrid = rt::parseRunOptions([] {
    rt::RunOptionTexts t;
    t.grid = "4,70000";
    t.device = "cuda";
    return t;
  }());
  CHECK(message(gpuGrid) == std::string("--grid 4,70000: expected X[,Y[,Z]] with positive integers; ") + interp::kGridLimits +
                                "; on a GPU Y and Z at most 65535");
  CHECK(rt::parseRunOptions(with(&rt::RunOptionTexts::grid, "4,70000")).ok());  // the interpreter takes it
  // The interpreter's own API refuses a bad grid with the same limits.
  CHECK(interp::gridProblem({1, 1, 0}) == interp::kGridLimits);
  CHECK(interp::gridProblem({65536, 65536, 1}) == interp::kGridLimits);
  CHECK(interp::gridProblem({65535, 65537, 1}).empty());
  std::array<int64_t, 3> grid{4, 2, 1};
  CHECK(*rt::parsePid("3,1", grid) == std::array<int64_t, 3>{3, 1, 0});
  for (const char* s : {"4", "-1", "0,2", "0,0,1", "x", "0,0,0,0"})
    CHECK(message(rt::parsePid(s, grid)).rfind("--pid " + std::string(s) + ": expected X[,Y[,Z]] naming a program", 0) == 0);
}

TEST_CASE("run options: parseRunOptions reports the first bad option", "[options]") {
  CHECK(message(rt::parseRunOptions(with(&rt::RunOptionTexts::schedule, "bogus"))).rfind("--schedule bogus:", 0) == 0);
  CHECK(message(rt::parseRunOptions(with(&rt::RunOptionTexts::threads, "65537"))).rfind("--threads 65537:", 0) == 0);
  CHECK(message(rt::parseRunOptions(with(&rt::RunOptionTexts::fuel, "-1"))).rfind("--fuel -1:", 0) == 0);
  auto o = rt::parseRunOptions(with(&rt::RunOptionTexts::device, "cuda:3"));
  REQUIRE(o.ok());
  CHECK((o->device.gpu && o->device.ordinal == 3));
}

TEST_CASE("run options: --strict reaches the checks, whatever --check says", "[options]") {
  rt::RunOptionTexts t;
  CHECK_FALSE(rt::parseRunOptions(t)->launch.interpreter.checks.strict);
  t.strict = true;
  t.check = "races";
  auto o = rt::parseRunOptions(t);
  REQUIRE(o.ok());
  CHECK((o->launch.interpreter.checks.strict && o->launch.interpreter.checks.races && !o->launch.interpreter.checks.bounds));
}

// RunOptions.cpp - one checked parser per launch option: numbers are read digit by digit with
// overflow checked (no sign, no wrap), each option's range and message stated once here.
#include "runtime/RunOptions.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "codegen/Targets.h"

namespace tilevm::rt {

namespace {

Diagnostic bad(const std::string& flag, const std::string& text, const std::string& expected) {
  return Diagnostic{"<command line>", 0, 0, flag + " " + text + ": expected " + expected};
}

// Whole decimal digits, checked against overflow.
bool digits(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

std::string range(uint64_t min, uint64_t max, const std::string& what) {
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max) + (what.empty() ? "" : " (" + what + ")");
}

std::string gridExpected(bool gpu) {
  return std::string("X[,Y[,Z]] with positive integers; ") + interp::kGridLimits +
         (gpu ? "; on a GPU Y and Z at most " + std::to_string(codegen::kMaxGridYZ) : "");
}

std::string gridText(const std::array<int64_t, 3>& g) {
  return std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]);
}

}  // namespace

Result<uint64_t> parseInteger(const std::string& flag, const std::string& text, uint64_t min, uint64_t max,
                              const std::string& what) {
  uint64_t v = 0;
  if (!digits(text, v) || v < min || v > max) return bad(flag, text, range(min, max, what));
  return v;
}

Result<double> parseNumber(const std::string& flag, const std::string& text, double min, double max, const std::string& what) {
  auto fail = [&] {
    char lo[32], hi[32];
    std::snprintf(lo, sizeof lo, "%.17g", min);
    std::snprintf(hi, sizeof hi, "%.17g", max);
    return bad(flag, text, std::string("a number from ") + lo + " to " + hi + (what.empty() ? "" : " (" + what + ")"));
  };
  // Decimal only: digits, one point, an exponent; strtod would take spaces, hex, inf and nan.
  bool any = false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) return fail();
    else any = any || (c >= '0' && c <= '9');
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (!any || end != text.c_str() + text.size() || !std::isfinite(v) || v < min || v > max) return fail();
  return v;
}

std::optional<Diagnostic> checkGrid(const std::array<int64_t, 3>& grid, bool gpu) {
  if (!interp::gridProblem(grid).empty() || (gpu && (grid[1] > codegen::kMaxGridYZ || grid[2] > codegen::kMaxGridYZ)))
    return bad("--grid", gridText(grid), gridExpected(gpu));
  return std::nullopt;
}

Result<std::array<int64_t, 3>> parseGrid(const std::string& text) {
  std::array<int64_t, 3> g{1, 1, 1};
  size_t start = 0;
  for (size_t d = 0;; ++d) {
    size_t c = text.find(',', start);
    uint64_t v = 0;
    if (d == 3 || !digits(text.substr(start, c == std::string::npos ? std::string::npos : c - start), v) || v == 0 ||
        v > uint64_t(interp::kMaxGridAxis))
      return bad("--grid", text, gridExpected(false));
    g[d] = int64_t(v);
    if (c == std::string::npos) break;
    start = c + 1;
  }
  if (checkGrid(g, false)) return bad("--grid", text, gridExpected(false));
  return g;
}

Result<std::array<int64_t, 3>> parsePid(const std::string& text, const std::array<int64_t, 3>& grid) {
  std::array<int64_t, 3> p{0, 0, 0};
  auto fail = [&] { return bad("--pid", text, "X[,Y[,Z]] naming a program of the grid (each from 0 to the grid's extent - 1)"); };
  size_t start = 0;
  for (size_t d = 0;; ++d) {
    size_t c = text.find(',', start);
    uint64_t v = 0;
    if (d == 3 || !digits(text.substr(start, c == std::string::npos ? std::string::npos : c - start), v) ||
        v >= uint64_t(grid[d]))
      return fail();
    p[d] = int64_t(v);
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return p;
}

Result<unsigned> parseThreads(const std::string& text) {
  auto v = parseInteger("--threads", text, 0, kMaxThreads, "worker threads, 0 for all cores; see docs/limits.md");
  if (!v) return v.error();
  return unsigned(*v);
}

Result<interp::Schedule> parseSchedule(const std::string& text, uint64_t& seed) {
  if (text == "parallel") return interp::Schedule::Parallel;
  if (text == "serial") return interp::Schedule::Serial;
  if (text == "reverse") return interp::Schedule::Reverse;
  if (text.rfind("random:", 0) == 0 && digits(text.substr(7), seed)) return interp::Schedule::Random;
  return bad("--schedule", text, "parallel, serial, reverse or random:SEED (SEED an integer from 0 to 18446744073709551615)");
}

Result<interp::Checks> parseChecks(const std::string& text) {
  interp::Checks c;  // every check on
  if (text == "all") return c;
  c.bounds = c.races = c.uninit = false;
  if (text == "none") return c;
  size_t start = 0;
  for (;;) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (part == "bounds") c.bounds = true;
    else if (part == "races") c.races = true;
    else if (part == "uninit") c.uninit = true;
    else return bad("--check", text, "all, none, or a list of bounds, races, uninit");
    if (comma == std::string::npos) return c;
    start = comma + 1;
  }
}

Result<double> parseTimeout(const std::string& text) {
  return parseNumber("--timeout", text, 0, kMaxTimeoutSeconds, "seconds, 0 for none");
}

Result<uint64_t> parseFuel(const std::string& text) {
  return parseInteger("--fuel", text, 1, UINT64_MAX, "loop iterations a program may run");
}

Result<uint64_t> parseSeed(const std::string& text) { return parseInteger("--seed", text, 0, UINT64_MAX); }

Result<DeviceSpec> parseDevice(const std::string& text) {
  if (text == "cpu") return DeviceSpec{false, 0};
  if (text == "cuda") return DeviceSpec{true, 0};
  uint64_t n = 0;
  if (text.rfind("cuda:", 0) == 0 && digits(text.substr(5), n) && n <= uint64_t(kMaxCudaOrdinal))
    return DeviceSpec{true, int(n)};
  return bad("--device", text, "cpu, cuda or cuda:N (N from 0 to " + std::to_string(kMaxCudaOrdinal) + ")");
}

Result<unsigned> parseNumWarps(const std::string& text) {
  uint64_t v = 0;
  if (!digits(text, v) || v == 0 || v > 32 || (v & (v - 1))) return bad("--num-warps", text, "a power of two from 1 to 32");
  return unsigned(v);
}

Result<unsigned> parseNumStages(const std::string& text) {
  auto v = parseInteger("--num-stages", text, 1, kMaxNumStages, "1: no software pipelining");
  if (!v) return v.error();
  return unsigned(*v);
}

Result<unsigned> parseMaxnreg(const std::string& text) {
  auto v = parseInteger("--maxnreg", text, 0, kMaxRegistersPerThread, "registers per thread; 0: ptxas decides");
  if (!v) return v.error();
  return unsigned(*v);
}

Result<unsigned> parseRepeat(const std::string& text) {
  auto v = parseInteger("--repeat", text, 1, kMaxRepeat, "launches");
  if (!v) return v.error();
  return unsigned(*v);
}

Result<RunOptions> parseRunOptions(const RunOptionTexts& t) {
  RunOptions o;
  auto grid = parseGrid(t.grid);
  if (!grid) return grid.error();
  o.launch.grid = o.launch.interpreter.grid = *grid;
  interp::LaunchOptions& in = o.launch.interpreter;
  auto threads = parseThreads(t.threads);
  if (!threads) return threads.error();
  in.threads = *threads;
  auto schedule = parseSchedule(t.schedule, in.scheduleSeed);
  if (!schedule) return schedule.error();
  in.schedule = *schedule;
  auto checks = parseChecks(t.check);
  if (!checks) return checks.error();
  in.checks = *checks;
  in.checks.strict = t.strict;
  auto timeout = parseTimeout(t.timeout);
  if (!timeout) return timeout.error();
  in.timeoutSeconds = *timeout;
  auto fuel = parseFuel(t.fuel);
  if (!fuel) return fuel.error();
  in.fuel = *fuel;
  auto seed = parseSeed(t.seed);
  if (!seed) return seed.error();
  o.seed = *seed;
  auto device = parseDevice(t.device);
  if (!device) return device.error();
  o.device = *device;
  if (o.device.gpu && checkGrid(o.launch.grid, true)) return bad("--grid", t.grid, gridExpected(true));
  auto warps = parseNumWarps(t.numWarps);
  if (!warps) return warps.error();
  o.launch.gpu.numWarps = *warps;
  auto stages = parseNumStages(t.numStages);
  if (!stages) return stages.error();
  o.launch.gpu.numStages = *stages;
  auto maxnreg = parseMaxnreg(t.maxnreg);
  if (!maxnreg) return maxnreg.error();
  o.launch.gpu.maxRegisters = *maxnreg;
  auto repeat = parseRepeat(t.repeat);
  if (!repeat) return repeat.error();
  o.launch.repeat = *repeat;
  return o;
}

}  // namespace tilevm::rt

// RunOptions.h - the launch options every front door takes (tilevm run, diff, viz --run, ptx,
// llvm-ir, the demo and the Python module), parsed and checked in one place with one message
// each, into the engine-neutral rt::LaunchOptions every device takes.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <optional>

#include "interpreter/Interpreter.h"
#include "ir/Diagnostics.h"
#include "runtime/LaunchOptions.h"

namespace tilevm::rt {

/// The most interpreter worker threads (more is a typo; 65537 crashed oneTBB at exit).
inline constexpr uint64_t kMaxThreads = 1024;
/// The longest --timeout, in seconds.
inline constexpr double kMaxTimeoutSeconds = 1e7;
/// The most launches of --repeat.
inline constexpr uint64_t kMaxRepeat = 1000000;
/// The highest CUDA device ordinal of cuda:N.
inline constexpr int kMaxCudaOrdinal = 1023;
/// Triton's num_stages range of the code generator.
inline constexpr uint64_t kMaxNumStages = 8;
/// The most registers `.maxnreg` may name (ptxas ignores more).
inline constexpr uint64_t kMaxRegistersPerThread = 255;

/// Launch options as a front door receives them: the texts a command line holds (Python passes
/// str() of its values). The initial values are the defaults.
struct RunOptionTexts {
  std::string grid = "1";
  std::string threads = "0";
  std::string schedule = "parallel";
  std::string check = "all";
  std::string timeout = "300";
  std::string fuel = "16777216";
  std::string seed = "0";
  std::string device = "cpu";
  std::string numWarps = "4";
  std::string numStages = "1";
  std::string maxnreg = "0";
  std::string repeat = "1";
  bool strict = false;  ///< --strict: benign races (identical bits) are errors, not notes
};

/// Where a launch runs.
struct DeviceSpec {
  bool gpu = false;  ///< false: the interpreter
  int ordinal = 0;   ///< cuda:N
};

/// Checked options of a run.
struct RunOptions {
  LaunchOptions launch;  ///< grid, repeat; num_warps, num_stages; checks, threads, schedule and its seed, fuel, timeout
  uint64_t seed = 0;     ///< of generated arguments (--arg randn:...)
  DeviceSpec device;
};

/// Checks every option of `t`, the grid against the device it names too; the first bad one's
/// message (at `<command line>`).
Result<RunOptions> parseRunOptions(const RunOptionTexts& t);

/// The one check of a launch's grid: each axis 1 to 2^31-1 (program_id is int32), at most
/// 2^32-1 programs (interp::gridProblem), and on a GPU Y and Z at most 65535 (CUDA's grid).
/// The message names the grid as --grid does. Devices check again what they are given.
std::optional<Diagnostic> checkGrid(const std::array<int64_t, 3>& grid, bool gpu);

/// A whole decimal number from `min` to `max` (no sign, no spaces, no wrap); otherwise
/// "FLAG TEXT: expected an integer from MIN to MAX[ (what)]".
Result<uint64_t> parseInteger(const std::string& flag, const std::string& text, uint64_t min, uint64_t max,
                              const std::string& what = "");

/// A finite decimal number from `min` to `max`; otherwise "FLAG TEXT: expected a number from
/// MIN to MAX[ (what)]".
Result<double> parseNumber(const std::string& flag, const std::string& text, double min, double max,
                           const std::string& what = "");

/// --grid X[,Y[,Z]] of positive integers, within checkGrid's limits for the interpreter (the
/// device's are checked by parseRunOptions).
Result<std::array<int64_t, 3>> parseGrid(const std::string& text);
/// --pid X[,Y[,Z]]: a program of `grid`.
Result<std::array<int64_t, 3>> parsePid(const std::string& text, const std::array<int64_t, 3>& grid);
/// --threads N: 0 (all cores) to kMaxThreads.
Result<unsigned> parseThreads(const std::string& text);
/// --schedule parallel|serial|reverse|random:SEED (SEED 0 to 2^64-1, stored in `seed`).
Result<interp::Schedule> parseSchedule(const std::string& text, uint64_t& seed);
/// --check all|none|a list of bounds,races,uninit.
Result<interp::Checks> parseChecks(const std::string& text);
/// --timeout SECONDS: 0 (none) to kMaxTimeoutSeconds.
Result<double> parseTimeout(const std::string& text);
/// --fuel N: loop iterations per program, 1 to 2^64-1.
Result<uint64_t> parseFuel(const std::string& text);
/// --seed N: 0 to 2^64-1.
Result<uint64_t> parseSeed(const std::string& text);
/// --device cpu|cuda|cuda:N.
Result<DeviceSpec> parseDevice(const std::string& text);
/// --num-warps N: a power of two from 1 to 32.
Result<unsigned> parseNumWarps(const std::string& text);
/// --num-stages N: 1 to kMaxNumStages.
Result<unsigned> parseNumStages(const std::string& text);

/// --maxnreg N: Triton's maxnreg, 0 (ptxas decides) to kMaxRegistersPerThread.
Result<unsigned> parseMaxnreg(const std::string& text);
/// --repeat N: 1 to kMaxRepeat.
Result<unsigned> parseRepeat(const std::string& text);

}  // namespace tilevm::rt

// RunCommand.cpp - `tilevm run`: a kernel (.py compiled on the fly, .tile or .tbc) on the CPU
// interpreter with generated or loaded arguments; findings are reported, outputs saved.
#include <algorithm>
#include <cerrno>
#include <iostream>
#include <map>

#include "interpreter/Interpreter.h"
#include "runtime/Device.h"
#include "runtime/Launch.h"
#include "runtime/Npy.h"
#include "tools/Commands.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

namespace tilevm::tools {

using namespace rt;

namespace {

struct RunCli {
  std::string input, kernel, grid = "1", check = "all", schedule = "parallel", json, pid, device = "cpu";
  std::vector<std::string> args, defines, saves, includeDirs;
  unsigned threads = 0, repeat = 1, numWarps = 4, numStages = 1;
  double timeout = 300;
  uint64_t seed = 0, fuel = uint64_t(1) << 24;
  bool trace = false, quiet = false, stats = false;
};

/// More worker threads than this is a typo, not a machine (docs/limits.md).
constexpr unsigned kMaxThreads = 1024;

int fail(const std::string& msg) {
  std::cerr << "<command line>: error: " << msg << "\n";
  return kExitBadInput;
}

int runKernel(const RunCli& o) {
  interp::LaunchOptions opts;
  if (!parseTriple(o.grid, opts.grid, 1) || opts.grid[0] <= 0 || opts.grid[1] <= 0 || opts.grid[2] <= 0)
    return fail("--grid " + o.grid + ": expected X[,Y[,Z]] with positive integers");
  for (int64_t g : opts.grid)
    if (g > interp::kMaxGridAxis)
      return fail("--grid " + o.grid + ": each dimension must be at most " + std::to_string(interp::kMaxGridAxis) +
                  " (program_id is int32; see docs/limits.md)");
  if (uint64_t(opts.grid[0]) * uint64_t(opts.grid[1]) > interp::kMaxGridPrograms ||
      uint64_t(opts.grid[0]) * uint64_t(opts.grid[1]) * uint64_t(opts.grid[2]) > interp::kMaxGridPrograms)
    return fail("--grid " + o.grid + ": at most " + std::to_string(interp::kMaxGridPrograms) +
                " programs in a launch (see docs/limits.md)");
  if (!o.pid.empty()) {
    std::array<int64_t, 3> p;
    if (!parseTriple(o.pid, p, 0)) return fail("--pid " + o.pid + ": expected X[,Y[,Z]]");
    opts.onlyPid = p;
  }
  opts.trace = o.trace;
  if (o.trace && !opts.onlyPid) return fail("--trace needs --pid (it traces one program)");
  if (o.check == "all") opts.checks = interp::Checks{true, true, true};
  else if (o.check == "none") opts.checks = interp::Checks{false, false, false};
  else {
    opts.checks = interp::Checks{false, false, false};
    size_t start = 0;
    for (;;) {
      size_t c = o.check.find(',', start);
      std::string part = o.check.substr(start, c == std::string::npos ? std::string::npos : c - start);
      if (part == "bounds") opts.checks.bounds = true;
      else if (part == "races") opts.checks.races = true;
      else if (part == "uninit") opts.checks.uninit = true;
      else return fail("--check " + o.check + ": expected all, none, or a list of bounds, races, uninit");
      if (c == std::string::npos) break;
      start = c + 1;
    }
  }
  if (o.schedule == "parallel") opts.schedule = interp::Schedule::Parallel;
  else if (o.schedule == "serial") opts.schedule = interp::Schedule::Serial;
  else if (o.schedule == "reverse") opts.schedule = interp::Schedule::Reverse;
  else if (o.schedule.rfind("random:", 0) == 0) {
    char* end = nullptr;
    opts.scheduleSeed = std::strtoull(o.schedule.c_str() + 7, &end, 10);
    if (*end != '\0' || o.schedule.size() == 7) return fail("--schedule " + o.schedule + ": expected random:SEED");
    opts.schedule = interp::Schedule::Random;
  } else {
    return fail("--schedule " + o.schedule + ": expected parallel, serial, reverse or random:SEED");
  }
  if (o.threads > kMaxThreads)
    return fail("--threads " + std::to_string(o.threads) + ": at most " + std::to_string(kMaxThreads) + " (see docs/limits.md)");
  opts.threads = o.threads;
  if (!(o.timeout >= 0) || o.timeout > 1e7) return fail("--timeout must be between 0 (none) and 10000000 seconds");
  opts.timeoutSeconds = o.timeout;
  if (o.fuel == 0) return fail("--fuel must be positive");
  opts.fuel = o.fuel;

  int ordinal = 0;
  bool onGpu = o.device != "cpu";
  if (onGpu && !parseCudaDevice(o.device, ordinal)) return fail("--device " + o.device + ": expected cpu, cuda or cuda:N");
  if (onGpu && (opts.onlyPid || opts.trace)) return fail("--pid and --trace need the interpreter (--device cpu)");

  // Arguments first: for .py files they give the signature.
  auto parsed = parseArgs(o.args, o.seed);
  if (!parsed) {
    std::cerr << render(parsed.error());
    return kExitBadInput;
  }
  std::vector<ArgValue>& args = *parsed;
  SourceManager sources;
  KernelRequest request{o.input, o.kernel, o.defines, o.includeDirs};
  auto loaded = loadKernel(request, args, sources);
  if (!loaded) {
    report({loaded.error()}, sources);
    return kExitBadInput;
  }
  const ir::Kernel* kernel = loaded->kernel;
  auto boundArgs = bindArgs(*kernel, args, !isPython(o.input));
  if (!boundArgs) {
    std::cerr << render(boundArgs.error());
    return kExitBadInput;
  }
  std::vector<interp::Buffer>& buffers = boundArgs->buffers;
  std::map<std::string, size_t>& bufferOf = boundArgs->bufferOf;
  std::map<std::string, bool>& bufferUnsigned = boundArgs->bufferUnsigned;
  for (const auto& s : o.saves) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || !bufferOf.count(s.substr(0, eq))) return fail("--save " + s + ": expected BUFFER=FILE.npy naming an array argument");
  }

  std::unique_ptr<Device> device;
  if (!onGpu) {
    device = interpreterDevice();
  } else {
    GpuOptions gpuOptions;
    gpuOptions.numWarps = o.numWarps;
    gpuOptions.numStages = o.numStages;
    auto gpu = cudaDevice(ordinal, gpuOptions);
    if (!gpu) {
      std::cerr << "tilevm run: " << gpu.error().message << "\n";
      return kExitEnvironment;
    }
    device = std::move(*gpu);
  }
  LoadedKernel& k = *loaded;
  auto ran = device->run(k, *boundArgs, opts, std::max(1u, o.repeat));
  if (!ran) {
    std::cerr << render(ran.error());
    return ran.error().file == "<device>" ? kExitEnvironment : kExitBadInput;
  }
  interp::Report& rep = *ran;
  if (!writeStdout(rep.printed + rep.trace)) return kExitBadInput;
  if (o.stats) std::cerr << "tilevm run: @" << kernel->name << ": " << (rep.kernelStats.empty() ? "no GPU statistics (the interpreter ran)" : rep.kernelStats) << "\n";
  std::cerr << rep.text();
  if (!o.quiet)
    std::cerr << "tilevm run: @" << kernel->name << ", " << rep.programs << " programs, " << rep.findings.size()
              << (rep.findings.size() == 1 ? " finding" : " findings") << ", " << rep.seconds * 1e3 << " ms"
              << (o.repeat > 1 ? " (median of " + std::to_string(o.repeat - 1) + " warm launches)" : "") << " on "
              << device->describe() << ", compiled in " << rep.compileSeconds * 1e3 << " ms\n";
  if (!o.json.empty()) {
    std::string json = rep.json();
    if (!writeFile(o.json, json.data(), json.size())) return kExitBadInput;
  }
  for (const auto& s : o.saves) {
    size_t eq = s.find('=');
    std::string name = s.substr(0, eq), path = s.substr(eq + 1), err;
    if (!writeNpy(path, buffers[bufferOf[name]], bufferUnsigned[name], err)) return fail("--save " + s + ": " + err);
  }
  return rep.findings.empty() ? kExitOk : kExitFindings;
}

}  // namespace

void addRunCommand(CLI::App& app, int& rc) {
  auto o = std::make_shared<RunCli>();
  CLI::App* c = app.add_subcommand("run", "Run a kernel (.py, .tile or .tbc) on the CPU interpreter, checking every access, or on the GPU");
  c->add_option("input", o->input, "kernel file: .py (compiled on the fly), .tile or .tbc")->required();
  c->add_option("-k,--kernel", o->kernel, "kernel name (optional when the module has one)");
  c->add_option("--grid", o->grid, "grid X[,Y[,Z]]")->capture_default_str();
  c->add_option("--arg", o->args, "argument NAME=SPEC: a number (98432, 1e-5, 7:i64), KIND:DTYPE:SHAPE (randn rand randint arange zeros ones empty full=V, e.g. randn:f32:1823x781) or @file.npy");
  c->add_option("-D,--define", o->defines, "constexpr NAME=VALUE (for .py)");
  c->add_option("-I,--include", o->includeDirs, "directory searched first for imported modules (for .py)");
  c->add_option("--check", o->check, "all, none, or a list of bounds,races,uninit")->capture_default_str();
  c->add_option("--threads", o->threads, "worker threads (0: all)")->capture_default_str();
  c->add_option("--schedule", o->schedule, "parallel, serial, reverse or random:SEED")->capture_default_str();
  c->add_option("--seed", o->seed, "seed of generated inputs")->capture_default_str();
  c->add_option("--save", o->saves, "write an array argument after the run: NAME=out.npy");
  c->add_option("--json", o->json, "write the findings as JSON");
  c->add_option("--pid", o->pid, "run only program X[,Y[,Z]]");
  c->add_flag("--trace", o->trace, "print every op's result summary (needs --pid)");
  c->add_option("--timeout", o->timeout, "wall-clock budget of a launch in seconds (0: none); past it the run stops with a timeout finding")
      ->capture_default_str();
  c->add_option("--fuel", o->fuel, "loop iterations a program may run before it is stopped")->capture_default_str();
  c->add_option("--repeat", o->repeat, "launch N times (warm) and report the median time")->capture_default_str();
  c->add_option("--device", o->device, "where it runs: cpu (the checking interpreter) or cuda[:N] (the GPU engine; no checks)")
      ->capture_default_str();
  c->add_option("--num-warps", o->numWarps, "with --device cuda: warps per program (Triton's num_warps)")->capture_default_str();
  c->add_option("--num-stages", o->numStages, "with --device cuda: Triton's num_stages (1: no software pipelining)")->capture_default_str();
  c->add_flag("--stats", o->stats, "with --device cuda: registers, shared memory and spills of the loaded kernel");
  c->add_flag("-q,--quiet", o->quiet, "no summary line");
  c->callback([o, &rc] { rc = runKernel(*o); });
}

}  // namespace tilevm::tools

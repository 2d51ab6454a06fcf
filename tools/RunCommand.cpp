// RunCommand.cpp - `tilevm run`: a kernel (.py compiled on the fly, .tile or .tbc) on the CPU
// interpreter with generated or loaded arguments; findings are reported, outputs saved.
#include <algorithm>
#include <cerrno>
#include <iostream>
#include <map>

#include "interpreter/Interpreter.h"
#include "runtime/Device.h"
#include "runtime/Launch.h"
#include "runtime/LaunchCache.h"
#include "runtime/Npy.h"
#include "runtime/RunOptions.h"
#include "tools/Commands.h"
#include "tools/ExitCodes.h"
#include "tools/Interrupt.h"
#include "tools/Load.h"

namespace tilevm::tools {

using namespace rt;

namespace {

struct RunCli {
  std::string input, kernel, json, pid;
  rt::RunOptionTexts options;
  std::vector<std::string> args, defines, saves, includeDirs;
  bool fpFusion = false, debug = false;
  bool trace = false, quiet = false, stats = false;
};

int fail(const std::string& msg) {
  std::cerr << "<command line>: error: " << msg << "\n";
  return kExitBadInput;
}

int runKernel(const RunCli& o) {
  auto checked = parseRunOptions(o.options);
  if (!checked) return std::cerr << render(checked.error()), kExitBadInput;
  interp::LaunchOptions& opts = checked->launch.interpreter;
  opts.cancel = cancelOnInterrupt();  // Ctrl-C ends the launch with its findings (exit 130)
  bool onGpu = checked->device.gpu;
  if (onGpu && (!o.pid.empty() || o.trace)) return fail("--pid and --trace need the interpreter (--device cpu)");
  if (!o.pid.empty()) {
    auto p = parsePid(o.pid, opts.grid);
    if (!p) return std::cerr << render(p.error()), kExitBadInput;
    opts.onlyPid = *p;
  }
  opts.trace = o.trace;
  if (o.trace && !opts.onlyPid) return fail("--trace needs --pid (it traces one program)");

  // Arguments first: for .py files they give the signature.
  auto parsed = parseArgs(o.args, checked->seed);
  if (!parsed) {
    std::cerr << render(parsed.error());
    return kExitBadInput;
  }
  std::vector<ArgValue>& args = *parsed;
  SourceManager sources;
  KernelRequest request{o.input, o.kernel, o.defines, o.includeDirs, {o.fpFusion, checked->launch.gpu.numWarps, o.debug}};
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
    auto gpu = cudaDevice(checked->device.ordinal);
    if (!gpu) {
      std::cerr << "tilevm run: " << gpu.error().diag.message << "\n";
      return exitCodeFor(gpu.error().kind);
    }
    device = std::move(*gpu);
  }
  LoadedKernel& k = *loaded;
  unsigned repeat = checked->launch.repeat;
  auto ran = device->run(k, *boundArgs, checked->launch);
  if (!ran) {
    report({ran.error().diag}, sources);
    return exitCodeFor(ran.error().kind);
  }
  interp::Report& rep = ran->report;
  if (!writeStdout(rep.printed + rep.trace)) return kExitBadInput;
  if (o.stats) {
    std::cerr << "tilevm run: @" << kernel->name << ": " << (ran->gpu ? ran->gpu->text() : "no GPU statistics (the interpreter ran)") << "\n";
    std::cerr << "tilevm run: launch caches: " << rt::describe(rt::cacheCounters()) << "\n";
  }
  std::cerr << rep.text();
  if (!o.quiet)
    std::cerr << "tilevm run: @" << kernel->name << ", " << rep.programs << " programs, " << rep.findings.size()
              << (rep.findings.size() == 1 ? " finding" : " findings") << ", " << rep.seconds * 1e3 << " ms"
              << (repeat > 1 ? " (median of " + std::to_string(repeat - 1) + " warm launches)" : "") << " on "
              << device->describe() << ", compiled in " << ran->compileSeconds * 1e3 << " ms\n";
  if (!o.json.empty()) {
    std::string json = ran->json();
    if (!writeFile(o.json, json.data(), json.size())) return kExitBadInput;
  }
  for (const auto& s : o.saves) {
    size_t eq = s.find('=');
    std::string name = s.substr(0, eq), path = s.substr(eq + 1), err;
    if (!writeNpy(path, buffers[bufferOf[name]], bufferUnsigned[name], err)) return fail("--save " + s + ": " + err);
  }
  return rep.errors() == 0 ? kExitOk : kExitFindings;  // warnings and notes pass
}

}  // namespace

void addRunCommand(CLI::App& app, int& rc) {
  auto o = std::make_shared<RunCli>();
  CLI::App* c = app.add_subcommand("run", "Run a kernel (.py, .tile or .tbc) on the CPU interpreter, checking every access, or on the GPU");
  c->add_option("input", o->input, "kernel file: .py (compiled on the fly), .tile or .tbc")->required();
  c->add_option("-k,--kernel", o->kernel, "kernel name (optional when the module has one)");
  addRunOptions(c, o->options);
  c->add_option("--arg", o->args, "argument NAME=SPEC: a number (98432, 1e-5, 7:i64), KIND:DTYPE:SHAPE (randn rand randint arange zeros ones empty full=V, e.g. randn:f32:1823x781) or @file.npy");
  c->add_option("-D,--define", o->defines, "constexpr NAME=VALUE (for .py)");
  c->add_option("-I,--include", o->includeDirs, "directory searched first for imported modules (for .py)");
  addFrontendFlags(c, o->fpFusion, o->debug);
  c->add_option("--save", o->saves, "write an array argument after the run: NAME=out.npy");
  c->add_option("--json", o->json, "write the findings as JSON");
  c->add_option("--pid", o->pid, "run only program X[,Y[,Z]]");
  c->add_flag("--trace", o->trace, "print every op's result summary (needs --pid)");
  c->add_option("--repeat", o->options.repeat, "launch N times (warm) and report the median time")->capture_default_str();
  c->add_option("--device", o->options.device, "where it runs: cpu (the checking interpreter) or cuda[:N] (the GPU engine; no checks)")
      ->capture_default_str();
  addGpuOptions(c, o->options, "with --device cuda: ");
  c->add_flag("--stats", o->stats, "with --device cuda: registers, shared memory and spills of the loaded kernel; the launch caches' counters");
  c->add_flag("-q,--quiet", o->quiet, "no summary line");
  c->callback([o, &rc] { rc = runKernel(*o); });
}

}  // namespace tilevm::tools

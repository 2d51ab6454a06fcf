// DiffCommand.cpp - `tilevm diff`: one seeded input set, two engines, every buffer compared
// afterwards (inputs too); the first divergence located. `--self` compares the interpreter with
// itself (thread counts, schedules, the dense reference path, a bytecode round trip) where no
// GPU is usable, and says so.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <tuple>

#include "ir/Verifier.h"
#include "ir/bytecode/Bytecode.h"
#include "runtime/Compare.h"
#include "runtime/Device.h"
#include "runtime/Launch.h"
#include "tools/Commands.h"
#include "tools/DiffTriton.h"
#include "tools/ExitCodes.h"
#include "tools/Interrupt.h"
#include "tools/Load.h"

namespace tilevm::tools {

namespace {

struct DiffCli {
  std::string input, kernel;
  rt::RunOptionTexts options = [] {
    rt::RunOptionTexts t;
    t.device = "cuda:0";
    return t;
  }();
  std::vector<std::string> args, defines, includeDirs;
  bool fpFusion = false, debug = false;
  std::string ulps, rtol, atol;  // empty: the kernel's default (rt::defaultUlps, per dtype)
  bool exact = false;
  bool self = false;
  std::string engine = "gpu";  // gpu: tilevm's GPU engine; triton: the real triton package (DiffTriton.h)
};

// The tolerances: empty texts stay at -1 (the default); others are checked numbers.
struct Tolerances {
  int64_t ulps = -1;
  double rtol = -1, atol = -1;
};

// One engine configuration of --self.
struct Variant {
  std::string name;
  rt::LaunchOptions options;
  bool bytecodeRoundTrip = false;
};

// A launch on a fresh copy of the inputs (parsed again from the same specs and seed, so every
// run starts from identical data, pointer tables included).
struct RunResult {
  rt::BoundArgs bound;
  interp::Report report;
};

int fail(const std::string& msg) {
  std::cerr << "<command line>: error: " << msg << "\n";
  return kExitBadInput;
}


// Every buffer of `other` against the reference (by argument name), and the findings.
bool compareRuns(const RunResult& reference, const RunResult& other, const rt::Tolerance& tol, bool compareFindings,
                 std::string& details, uint64_t* orderUlps = nullptr) {
  bool same = true;
  for (const auto& [name, index] : reference.bound.bufferOf) {
    bool table = false;  // pointer tables hold each run's own addresses: not data
    for (const auto& t : reference.bound.addressTables) table = table || t.first == index;
    if (table) {
      details += "  " + name + ": pointer table, addresses not compared\n";
      continue;
    }
    rt::BufferDiff d = rt::compareBuffers(reference.bound.buffers[index], other.bound.buffers[other.bound.bufferOf.at(name)], tol);
    if (d.first || !d.shapeError.empty()) same = false;
    if (orderUlps) *orderUlps = std::max(*orderUlps, d.orderMaxUlps);  // floats summed in lock order
    details += rt::describe(d);
  }
  if (compareFindings && other.report.identity() != reference.report.identity()) {
    same = false;
    details += "  findings differ from the reference run\n";
  }
  return same;
}

}  // namespace

int runDiff(const DiffCli& cli) {
  if (cli.engine == "triton") {
    if (cli.self) return std::cerr << "tilevm diff: --self and --engine triton exclude each other\n", kExitBadInput;
    if (!cli.ulps.empty() || !cli.rtol.empty() || !cli.atol.empty() || cli.exact)
      return std::cerr << "tilevm diff --engine triton: the tolerance is the kernel's default (--ulps, --rtol, --atol and "
                          "--exact are for --engine gpu)\n",
             kExitBadInput;
    rt::RunOptionTexts options = cli.options;
    options.device = "cpu";  // the interpreter's side; the GPU is Triton's
    return runDiffTriton(DiffTritonRequest{cli.input, cli.kernel, options, cli.args, cli.defines, cli.includeDirs});
  }
  if (cli.engine != "gpu") return std::cerr << "tilevm diff: --engine " << cli.engine << ": expected gpu or triton\n", kExitBadInput;
  auto checked = rt::parseRunOptions(cli.options);
  if (!checked) return std::cerr << render(checked.error()), kExitBadInput;
  Tolerances o;
  if (!cli.ulps.empty()) {
    auto u = rt::parseInteger("--ulps", cli.ulps, 0, uint64_t(INT64_MAX), "units in the last place");
    if (!u) return std::cerr << render(u.error()), kExitBadInput;
    o.ulps = int64_t(*u);
  }
  for (auto [flag, text, out] : {std::tuple{"--rtol", &cli.rtol, &o.rtol}, std::tuple{"--atol", &cli.atol, &o.atol}}) {
    if (text->empty()) continue;
    auto v = rt::parseNumber(flag, *text, 0, 1e9);
    if (!v) return std::cerr << render(v.error()), kExitBadInput;
    *out = *v;
  }
  checked->launch.interpreter.cancel = cancelOnInterrupt();  // Ctrl-C ends the launches (exit 130)
  const rt::LaunchOptions& base = checked->launch;
  const uint64_t seed = checked->seed;

  SourceManager sources;
  auto firstArgs = rt::parseArgs(cli.args, seed);
  if (!firstArgs) return std::cerr << render(firstArgs.error()), kExitBadInput;
  rt::KernelRequest request{cli.input, cli.kernel, cli.defines, cli.includeDirs, {cli.fpFusion, base.gpu.numWarps, cli.debug}};
  auto loaded = rt::loadKernel(request, *firstArgs, sources);
  if (!loaded) {
    report({loaded.error()}, sources);
    return kExitBadInput;
  }

  auto launchOn = [&](rt::Device& dev, const rt::LoadedKernel& k, rt::LaunchOptions opts) -> rt::Outcome<RunResult> {
    auto args = rt::parseArgs(cli.args, seed);
    if (!args) return rt::inputError(args.error());
    auto bound = rt::bindArgs(*k.kernel, *args, !rt::isPython(cli.input));
    if (!bound) return rt::inputError(bound.error());
    opts.repeat = 1;
    auto ran = dev.run(k, *bound, opts);
    if (!ran) return ran.error();
    if (interrupted()) return rt::inputError(Diagnostic{"<command line>", 0, 0, "interrupted: Ctrl-C cancelled the launch"});
    return RunResult{std::move(*bound), std::move(ran->report)};
  };
  auto cpu = rt::interpreterDevice();
  auto launch = [&](const rt::LoadedKernel& k, const rt::LaunchOptions& opts) { return launchOn(*cpu, k, opts); };

  if (!cli.self) {
    if (!checked->device.gpu) return fail("--device cpu: diff compares the interpreter with a GPU (cuda or cuda:N); --self compares it with itself");
    auto gpu = rt::cudaDevice(checked->device.ordinal);
    if (!gpu) {
      std::cerr << "tilevm diff: cannot run on the GPU: " << gpu.error().diag.message
                << "\n(use --self to compare the interpreter with itself)\n";
      return exitCodeFor(gpu.error().kind);
    }
    auto reference = launch(*loaded, base);
    if (!reference) return std::cerr << render(reference.error().diag), exitCodeFor(reference.error().kind);
    auto onGpu = launchOn(**gpu, *loaded, base);
    if (!onGpu) {
      report({onGpu.error().diag}, sources);
      return exitCodeFor(onGpu.error().kind);
    }
    std::cout << "tilevm diff: " << cpu->describe() << " vs " << (*gpu)->describe() << ", " << reference->report.programs
              << " programs (GPU " << onGpu->report.seconds * 1e3 << " ms)\n";
    // Kernels that reduce are held to relative error (the engines sum in different orders);
    // elementwise ones to --ulps.
    const rt::Tolerance byDefault = rt::defaultTolerance(*loaded->kernel);
    rt::Tolerance tol = byDefault;
    if (o.ulps >= 0) tol.maxUlps = uint64_t(o.ulps);
    tol.relative = !cli.exact && (o.rtol >= 0 || o.atol >= 0 || byDefault.relative);
    tol.rtol = o.rtol;
    tol.atol = o.atol;
    tol.scaleByRms = tol.relative && o.rtol < 0 && o.atol < 0;
    tol.tf32Dot = tol.scaleByRms && byDefault.tf32Dot;
    tol.roundedRtol = tol.scaleByRms ? byDefault.roundedRtol : 0;
    if (tol.relative) {
      std::ostringstream why;
      if (o.rtol >= 0 || o.atol >= 0) why << "as given";
      else why << "the kernel reduces: torch.testing.assert_close's defaults per dtype, scaled by the buffer's rms where sums cancel";
      if (tol.tf32Dot) why << "; f32 results of tf32 tensor-core dots: rtol 2^-13";
      if (tol.roundedRtol) why << "; a computed dot operand rounded to a narrower float: at least its rtol, " << tol.roundedRtol;
      std::cout << "tolerance: |gpu - cpu| <= atol + rtol * " << (tol.scaleByRms ? "(|cpu| + rms(cpu))" : "|cpu|") << " ("
                << why.str() << ")" << (tol.maxUlps ? ", or within " + std::to_string(tol.maxUlps) + " ulp" : "") << "\n";
    } else if (tol.maxUlps)
      std::cout << "tolerance: within " << tol.maxUlps << " ulp"
                << (o.ulps >= 0 ? " (as given)" : " (the kernel uses math the GPU approximates; docs/codegen.md)") << "\n";
    std::string details;
    bool same = compareRuns(*reference, *onGpu, tol, false, details);
    std::cout << details << (same ? "PASS" : "FAIL") << "\n";
    if (!reference->report.findings.empty())
      std::cout << "note: the interpreter's checks found " << reference->report.findings.size() << " problems (see tilevm run)\n";
    return same ? kExitOk : kExitDisagree;
  }

  std::cout << "tilevm diff --self: no GPU ran; the interpreter is compared with itself\n";
  auto reference = launch(*loaded, base);
  if (!reference) return std::cerr << render(reference.error().diag), exitCodeFor(reference.error().kind);
  std::cout << "reference: " << rt::interpreterDevice()->describe() << ", " << cli.options.schedule << " schedule, "
            << reference->report.programs << " programs, " << reference->report.findings.size() << " findings\n";

  std::vector<Variant> variants;
  auto add = [&](std::string name, auto&& tweak, bool roundTrip = false) {
    Variant v{std::move(name), base, roundTrip};
    tweak(v.options.interpreter);
    variants.push_back(std::move(v));
  };
  add("1 thread, serial order", [](interp::LaunchOptions& x) { x.threads = 1, x.schedule = interp::Schedule::Serial; });
  add("reverse order", [](interp::LaunchOptions& x) { x.schedule = interp::Schedule::Reverse; });
  add("random order (seed 12345)", [](interp::LaunchOptions& x) { x.schedule = interp::Schedule::Random, x.scheduleSeed = 12345; });
  add("dense reference path (no symbolic tiles, views or reuse)", [](interp::LaunchOptions& x) { x.symbolic = false; });
  add("bytecode round trip", [](interp::LaunchOptions&) {}, true);  // unkeyed: prepared from the module read back

  rt::Tolerance tol{o.ulps >= 0 ? uint64_t(o.ulps) : 0};  // the interpreter must agree with itself bit for bit
  tol.orderDependent = rt::orderDependence(*loaded->kernel);  // but for floats summed in the order locks are taken
  int failed = 0;
  uint64_t orderUlps = 0;
  for (const Variant& v : variants) {
    rt::LoadedKernel roundTripped;
    const rt::LoadedKernel* k = &*loaded;
    if (v.bytecodeRoundTrip) {
      auto bytes = ir::write(*loaded->module);
      auto back = ir::read(bytes, "<round trip>");
      if (!back || !ir::verify(**back).empty()) {
        std::cout << "FAIL " << v.name << ": the module does not read back\n";
        ++failed;
        continue;
      }
      roundTripped.module = std::move(*back);
      roundTripped.kernel = roundTripped.module->findKernel(loaded->kernel->name);
      k = &roundTripped;
    }
    auto r = launch(*k, v.options);
    if (!r) return std::cerr << render(r.error().diag), exitCodeFor(r.error().kind);
    std::string details;
    uint64_t ulpsHere = 0;
    bool same = compareRuns(*reference, *r, tol, true, details, &ulpsHere);
    orderUlps = std::max(orderUlps, ulpsHere);
    std::cout << (same ? "PASS " : "FAIL ") << v.name << "\n";
    if (!same || ulpsHere) {
      std::cout << details;
      failed += !same;
    }
  }
  if (failed) {
    std::cout << "FAIL: " << failed << " of " << variants.size() << " configurations diverge\n";
    return kExitDisagree;
  }
  std::cout << "PASS: all " << variants.size() << " configurations agree " << (orderUlps ? "" : "bit for bit ") << "on "
            << reference->bound.buffers.size() << " buffers"
            << (orderUlps ? "; order-dependent (" + tol.orderDependent + "): max " + std::to_string(orderUlps) + " ulp" : "") << "\n";
  return kExitOk;
}

void addDiffCommand(CLI::App& app, int& rc) {
  auto o = std::make_shared<DiffCli>();
  CLI::App* c = app.add_subcommand("diff", "Run one kernel on two engines (interpreter and GPU; or --self) and compare every buffer");
  c->add_option("input", o->input, "kernel file: .py, .tile or .tbc")->required();
  c->add_option("-k,--kernel", o->kernel, "kernel name (optional when the module has one)");
  addRunOptions(c, o->options);
  c->add_option("--arg", o->args, "argument NAME=SPEC, as for tilevm run");
  c->add_option("-D,--define", o->defines, "constexpr NAME=VALUE (for .py)");
  c->add_option("-I,--include", o->includeDirs, "directory searched first for imported modules (for .py)");
  addFrontendFlags(c, o->fpFusion, o->debug);
  c->add_option("--device", o->options.device, "the GPU: cuda or cuda:N")->capture_default_str();
  c->add_option("--ulps", o->ulps, "float elements may differ by this many units in the last place (default: 0, or 16 for kernels using approximate math)");
  c->add_option("--rtol", o->rtol, "relative tolerance for floats, 0 to 1e9 (with --atol: torch.testing.assert_close's rule); default per dtype for kernels that reduce");
  c->add_option("--atol", o->atol, "absolute tolerance for floats, 0 to 1e9 (see --rtol)");
  c->add_flag("--exact", o->exact, "hold kernels that reduce to --ulps too (no relative tolerance)");
  addGpuOptions(c, o->options, "on the GPU: ");
  c->add_option("--engine", o->engine, "the other engine: gpu (tilevm's GPU engine) or triton (the real triton package, through python3)")
      ->capture_default_str();
  c->add_flag("--self", o->self, "no GPU: compare the interpreter with itself (threads, schedules, dense path, bytecode round trip)");
  c->callback([o, &rc] { rc = runDiff(*o); });
}

}  // namespace tilevm::tools

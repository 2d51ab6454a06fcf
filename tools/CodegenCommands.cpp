// CodegenCommands.cpp - `tilevm ptx` and `tilevm llvm-ir`: a kernel (.py with its --arg specs,
// .tile or .tbc) through the GPU code generator.
#include <iostream>

#include "runtime/Launch.h"
#include "tools/Commands.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

#ifdef TILEVM_HAVE_CODEGEN
#include "codegen/Codegen.h"
#include "runtime/CudaDevice.h"
#endif

namespace tilevm::tools {

namespace {

struct CodegenCli {
  std::string input, kernel, output, arch = "sm_90";
  std::vector<std::string> args, defines, includeDirs;
  bool fpFusion = false, debug = false;
  rt::RunOptionTexts options;  // --num-warps, --num-stages
  bool llvmIr = false;
  bool stats = false;  // ptx --stats: the launch metadata on stderr
};

int runCodegen(const CodegenCli& o) {
#ifndef TILEVM_HAVE_CODEGEN
  (void)o;
  std::cerr << "tilevm: error: this build has no GPU code generator (LLVM 19 was not found when it was built)\n";
  return kExitEnvironment;
#else
  auto numWarps = rt::parseNumWarps(o.options.numWarps);
  if (!numWarps) return std::cerr << render(numWarps.error()), kExitBadInput;
  auto numStages = rt::parseNumStages(o.options.numStages);
  if (!numStages) return std::cerr << render(numStages.error()), kExitBadInput;
  auto maxnreg = rt::parseMaxnreg(o.options.maxnreg);
  if (!maxnreg) return std::cerr << render(maxnreg.error()), kExitBadInput;
  SourceManager sources;
  auto args = rt::parseArgs(o.args, 0);
  if (!args) return std::cerr << render(args.error()), kExitBadInput;
  // The PTX depends on the arguments' types and specialization (alignment, numbers divisible by
  // 16 or equal to 1), never on array contents: generated arrays are allocated, not filled.
  for (rt::ArgValue& a : *args)
    if (a.isBuffer && (a.generate == "randn" || a.generate == "rand" || a.generate == "randint" || a.generate == "arange" ||
                       a.generate == "ones" || a.generate == "full"))
      a.generate = "zeros";
  auto loaded = rt::loadKernel(rt::KernelRequest{o.input, o.kernel, o.defines, o.includeDirs, {o.fpFusion, *numWarps, o.debug}}, *args, sources);
  if (!loaded) {
    report({loaded.error()}, sources);
    return kExitBadInput;
  }
  codegen::Options copts;
  copts.arch = o.arch;
  copts.numWarps = *numWarps;
  copts.numStages = *numStages;
  copts.maxRegisters = *maxnreg;
  // Specialized on the arguments given as a launch is (rt::specialize: integers divisible by 16
  // or 1, arrays aligned; descriptors' fields, tuples' elements and tables as bound). When some
  // parameters have no --arg, those get no assumption and the others are matched by name.
  if (auto bound = rt::bindArgs(*loaded->kernel, *args, !rt::isPython(o.input))) rt::specialize(*loaded->kernel, bound->args, copts);
  else for (size_t i = 0; i < loaded->kernel->params().size(); ++i) {
    uint32_t d = 1;
    bool one = false;
    bool isInt = loaded->kernel->params()[i]->type.isInt();
    for (const rt::ArgValue& a : *args)
      if (a.name == loaded->kernel->paramNames[i] && a.refs.empty()) {
        bool buffer = a.isBuffer || !a.generate.empty();
        d = buffer ? 16 : (!a.isFloat && isInt) ? codegen::divisorOf(uint64_t(a.i)) : 1;
        one = !buffer && !a.isFloat && isInt && a.i == 1;
      }
    copts.paramDivisors.push_back(d);
    copts.paramOnes.push_back(one);
  }
  Result<std::string> text = std::string();
  if (o.llvmIr) {
    text = codegen::emitLlvmIr(*loaded->module, *loaded->kernel, copts);
  } else if (auto ptx = codegen::emitPtx(*loaded->module, *loaded->kernel, copts); !ptx) {
    text = ptx.error();
  } else {
    const codegen::LaunchInfo& l = ptx->launch;
    if (o.stats)
      std::cerr << "tilevm ptx: @" << l.kernel << " for " << l.arch << ": " << l.threads << " threads per block, "
                << l.dynamicSharedBytes << " bytes of dynamic shared memory"
                << (l.tensorMaps.empty() ? "" : ", " + std::to_string(l.tensorMaps.size()) + " tensor maps (TMA)")
                << (l.deviceTensorMaps ? ", " + std::to_string(l.deviceTensorMaps) + " tensor maps built per program (TMA)" : "") << "\n";
    text = std::move(ptx->ptx);
  }
  if (!text) {
    report({text.error()}, sources);
    return kExitBadInput;
  }
  if (o.output.empty() || o.output == "-") return writeStdout(*text) ? kExitOk : kExitBadInput;
  return writeFile(o.output, text->data(), text->size()) ? kExitOk : kExitBadInput;
#endif
}

void addOne(CLI::App& app, int& rc, const char* name, const char* help, bool llvmIr) {
  auto o = std::make_shared<CodegenCli>();
  o->llvmIr = llvmIr;
  CLI::App* c = app.add_subcommand(name, help);
  c->add_option("input", o->input, "kernel file: .py (with --arg specs for its signature), .tile or .tbc")->required();
  c->add_option("-k,--kernel", o->kernel, "kernel name (optional when the module has one)");
  c->add_option("--arg", o->args, "argument NAME=SPEC as for tilevm run (for .py: gives the signature)");
  c->add_option("-D,--define", o->defines, "constexpr NAME=VALUE (for .py)");
  c->add_option("-I,--include", o->includeDirs, "directory searched first for imported modules (for .py)");
  addFrontendFlags(c, o->fpFusion, o->debug);
  c->add_option("--arch", o->arch, "the target (docs/limits.md): sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a")->capture_default_str();
  if (!llvmIr) c->add_flag("--stats", o->stats, "print the launch metadata (threads, dynamic shared memory) to stderr");
  addGpuOptions(c, o->options, "");
  c->add_option("-o,--output", o->output, "output file (default: stdout)");
  c->callback([o, &rc] { rc = runCodegen(*o); });
}

}  // namespace

void addCodegenCommands(CLI::App& app, int& rc) {
  addOne(app, rc, "ptx", "Compile a kernel to PTX through LLVM's NVPTX backend", false);
  addOne(app, rc, "llvm-ir", "Compile a kernel to LLVM IR for nvptx64 (after O3)", true);
}

}  // namespace tilevm::tools

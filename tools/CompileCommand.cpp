// CompileCommand.cpp - `tilevm compile`: a Triton kernel file (.py) to bytecode or text.
#include <iostream>

#include "frontend/Compile.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"
#include "runtime/Launch.h"
#include "tools/Commands.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

namespace tilevm::tools {

namespace {

struct CompileCli {
  std::string input, kernel, signature, output, emit = "tbc";
  std::vector<std::string> args, defines, includeDirs;
  bool fpFusion = false, debug = false;
  bool list = false;
  bool noLocations = false;
};

int runCompile(const CompileCli& o) {
  SourceManager sources;
  auto text = readFile(o.input);
  if (!text) {
    report({text.error()}, sources);
    return kExitBadInput;
  }
  sources.add(o.input, *text);
  if (o.list) {
    auto names = frontend::listKernels(*text, o.input);
    if (!names) {
      report({names.error()}, sources);
      return kExitBadInput;
    }
    std::string listing;
    for (const auto& n : names->names) listing += n + "\n";
    for (const auto& w : names->warnings) std::cerr << render(w, &sources, "warning");
    return writeStdout(listing) ? kExitOk : kExitBadInput;
  }
  if (o.kernel.empty()) {
    std::cerr << "tilevm compile: error: name the kernel with -k NAME (list them with --list)\n";
    return kExitBadInput;
  }
  std::shared_ptr<ir::Module> module;
  if (!o.args.empty()) {
    // Typed as ptx, viz and run type a .py kernel: from --arg specs (no array is allocated).
    if (!o.signature.empty()) {
      std::cerr << "<command line>: error: give the signature with --arg specs or --signature, not both\n";
      return kExitBadInput;
    }
    auto args = rt::parseArgs(o.args, 0);
    if (!args) return std::cerr << render(args.error()), kExitBadInput;
    SourceManager loadSources;
    auto loaded = rt::loadKernel(rt::KernelRequest{o.input, o.kernel, o.defines, o.includeDirs, {o.fpFusion, 4, o.debug}}, *args, loadSources);
    if (!loaded) {
      report({loaded.error()}, loadSources);
      return kExitBadInput;
    }
    module = std::move(loaded->module);
  } else {
    frontend::CompileOptions opts;
    opts.kernel = o.kernel;
    opts.signature = o.signature;
    opts.includeDirs = o.includeDirs;
    opts.flags.fpFusion = o.fpFusion;
    opts.flags.debug = o.debug;
    opts.sources = &sources;
    for (const auto& d : o.defines) {
      size_t eq = d.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cerr << "<command line>: error: -D " << d << ": expected NAME=VALUE\n";
        return kExitBadInput;
      }
      opts.defines[d.substr(0, eq)] = d.substr(eq + 1);
    }
    auto m = frontend::compileKernel(*text, o.input, opts);
    if (!m) {
      report({m.error()}, sources);
      return kExitBadInput;
    }
    module = std::move(*m);
  }
  const ir::Module* m = module.get();
  bool toStdout = o.output.empty() || o.output == "-";
  if (o.emit == "tile") {
    std::string out = ir::print(*m, ir::PrintOptions{.locations = !o.noLocations});
    if (toStdout) return writeStdout(out) ? kExitOk : kExitBadInput;
    return writeFile(o.output, out.data(), out.size()) ? kExitOk : kExitBadInput;
  }
  if (toStdout) {
    std::cerr << "tilevm compile: error: bytecode needs an output file (-o OUT.tbc), or use --emit tile\n";
    return kExitBadInput;
  }
  auto bytes = ir::write(*m);
  return writeFile(o.output, bytes.data(), bytes.size()) ? kExitOk : kExitBadInput;
}

}  // namespace

void addCompileCommand(CLI::App& app, int& rc) {
  auto o = std::make_shared<CompileCli>();
  CLI::App* c = app.add_subcommand("compile", "Compile a @triton.jit kernel from a Python file to tile IR (.tbc or text)");
  c->add_option("input", o->input, "kernel file (.py)")->required();
  c->add_option("-k,--kernel", o->kernel, "the @triton.jit function to compile");
  c->add_option("-D,--define", o->defines, "constexpr value NAME=VALUE (int, float, True/False, or a dtype like fp16)");
  c->add_option("-I,--include", o->includeDirs, "directory searched first for imported modules (like PYTHONPATH)");
  addFrontendFlags(c, o->fpFusion, o->debug);
  c->add_option("--arg", o->args, "argument NAME=SPEC as for tilevm run, ptx and viz: gives the parameter's type (or a constexpr's value)");
  c->add_option("--signature", o->signature, "runtime parameter types as text, e.g. 'x: *fp32, y: *fp32, n: i32' (instead of --arg)");
  c->add_option("-o,--output", o->output, "output file (- or absent: stdout, text only)");
  c->add_option("--emit", o->emit, "output form: tbc (bytecode, default) or tile (text)")
      ->check(CLI::IsMember({"tbc", "tile"}));
  c->add_flag("--list", o->list, "list the file's @triton.jit functions and exit");
  c->add_flag("--no-locations", o->noLocations, "text output without loc(...)");
  c->callback([o, &rc] { rc = runCompile(*o); });
}

}  // namespace tilevm::tools

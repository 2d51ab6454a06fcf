// VizCommand.cpp - `tilevm viz`: a kernel as a tile dataflow graph (viz/), drawn by Graphviz to
// SVG, PNG or DOT; with --run, an interpreter run's counters and findings on the graph; with
// --access BUFFER, that buffer's access map as an SVG heat map.
#include <iostream>

#include "runtime/Device.h"
#include "runtime/Launch.h"
#include "tools/Commands.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

#ifdef TILEVM_HAVE_CODEGEN
#include "codegen/Codegen.h"
#endif
#ifdef TILEVM_HAVE_VIZ
#include "viz/AccessSvg.h"
#include "viz/Graph.h"
#include "viz/Graphviz.h"
#include "viz/Overlay.h"
#endif

namespace tilevm::tools {

namespace {

struct VizCli {
  std::string input, kernel, output, access, accessOutput;
  rt::RunOptionTexts options;  // of --run (and --num-warps of --layouts)
  std::vector<std::string> args, defines, includeDirs;
  bool fpFusion = false, debug = false;
  bool run = false, collapse = false, layouts = false;
};

int fail(const std::string& msg) {
  std::cerr << "<command line>: error: " << msg << "\n";
  return kExitBadInput;
}

std::string extensionOf(const std::string& path) {
  size_t dot = path.find_last_of('.'), slash = path.find_last_of('/');
  return dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot + 1);
}

int runViz(const VizCli& o) {
#ifndef TILEVM_HAVE_VIZ
  (void)o;
  std::cerr << "tilevm: error: this build has no `viz` (Graphviz's headers, libgraphviz-dev, were not found when it was built)\n";
  return kExitEnvironment;
#else
  std::string format = extensionOf(o.output);
  if (o.output.empty() && o.access.empty()) return fail("viz needs -o FILE.svg|.png|.dot (or --access BUFFER -o FILE.svg)");
  if (!o.output.empty() && format != "svg" && format != "png" && format != "dot")
    return fail("-o " + o.output + ": the file name must end in .svg, .png or .dot");
  if (!o.access.empty() && extensionOf(o.accessOutput) != "svg")
    return fail("--access-output " + o.accessOutput + ": the access map is an .svg file");
  auto checked = rt::parseRunOptions(o.options);
  if (!checked) return std::cerr << render(checked.error()), kExitBadInput;
  const std::array<int64_t, 3> grid = checked->launch.grid;
  bool run = o.run || !o.access.empty();

  auto parsed = rt::parseArgs(o.args, checked->seed);
  if (!parsed) return std::cerr << render(parsed.error()), kExitBadInput;
  SourceManager sources;
  auto loaded = rt::loadKernel(rt::KernelRequest{o.input, o.kernel, o.defines, o.includeDirs, {o.fpFusion, checked->launch.gpu.numWarps, o.debug}}, *parsed, sources);
  if (!loaded) {
    report({loaded.error()}, sources);
    return kExitBadInput;
  }
  auto gv = viz::Graphviz::load();
  if (!gv) {
    std::cerr << "tilevm viz: " << gv.error().message << "\n";
    return kExitEnvironment;
  }
  std::string note;  // bounded in nodes: folded past one size, refused past another (docs/limits.md)
  auto drawable = viz::buildDrawableGraph(*loaded->module, *loaded->kernel, viz::BuildOptions{o.collapse}, note);
  if (!drawable) return std::cerr << render(drawable.error()), kExitBadInput;
  if (!note.empty()) std::cerr << "tilevm viz: note: " << note << "\n";
  viz::Graph graph = std::move(*drawable);
  if (o.layouts) {
#ifdef TILEVM_HAVE_CODEGEN
    codegen::Options copts;
    copts.numWarps = checked->launch.gpu.numWarps;
    viz::annotateLayouts(graph, codegen::describeLayouts(*loaded->module, *loaded->kernel, copts));
#else
    std::cerr << "tilevm viz: --layouts needs the GPU code generator, which this build lacks (LLVM 19 was not found)\n";
    return kExitEnvironment;
#endif
  }

  if (run) {
    auto bound = rt::bindArgs(*loaded->kernel, *parsed, !rt::isPython(o.input));
    if (!bound) return std::cerr << render(bound.error()), kExitBadInput;
    std::unique_ptr<interp::OpProfile> profile = interp::OpProfile::forKernel(*loaded->kernel);
    interp::AccessMap access(o.access);
    rt::LaunchOptions opts = checked->launch;
    opts.repeat = 1;
    opts.interpreter.profile = profile.get();
    if (!o.access.empty()) {
      if (!bound->bufferOf.count(o.access)) return fail("--access " + o.access + ": no array argument of that name");
      opts.interpreter.access = &access;
    }
    auto ran = rt::interpreterDevice()->run(*loaded, *bound, opts);
    if (!ran) return std::cerr << render(ran.error().diag), exitCodeFor(ran.error().kind);
    const interp::Report& rep = ran->report;
    std::cerr << rep.text();
    viz::annotate(graph, *loaded->module, *profile, rep);
    std::cerr << "tilevm viz: @" << loaded->kernel->name << " ran on the interpreter: " << rep.programs << " programs, "
              << rep.findings.size() << (rep.findings.size() == 1 ? " finding" : " findings") << "\n";
    if (!o.access.empty()) {
      const interp::Buffer& b = bound->buffers[bound->bufferOf.at(o.access)];
      std::string svg = viz::accessSvg(access, b.shape, grid);
      if (!writeFile(o.accessOutput, svg.data(), svg.size())) return kExitBadInput;
      std::cerr << "tilevm viz: access map of " << o.access << " in " << o.accessOutput << " ("
                << viz::conflictedElements(access) << " elements touched by several programs with a write)\n";
    }
  }
  if (o.output.empty()) return kExitOk;
  std::string text;
  if (format == "dot") {
    text = gv->get()->dot(graph);
  } else {
    auto r = gv->get()->render(graph, format);
    if (!r) {
      std::cerr << "tilevm viz: " << r.error().message << "\n";
      return kExitEnvironment;
    }
    text = std::move(*r);
  }
  if (!writeFile(o.output, text.data(), text.size())) return kExitBadInput;
  return kExitOk;
#endif
}

}  // namespace

void addVizCommand(CLI::App& app, int& rc) {
  auto o = std::make_shared<VizCli>();
  CLI::App* c = app.add_subcommand("viz", "Draw a kernel as a tile dataflow graph (Graphviz), optionally annotated with a run");
  c->add_option("input", o->input, "kernel file: .py (with --arg specs for its signature), .tile or .tbc")->required();
  c->add_option("-k,--kernel", o->kernel, "kernel name (optional when the module has one)");
  c->add_option("-o,--output", o->output, "the graph: FILE.svg, FILE.png or FILE.dot");
  c->add_option("--arg", o->args, "argument NAME=SPEC as for tilevm run (for .py: gives the signature)");
  c->add_option("-D,--define", o->defines, "constexpr NAME=VALUE (for .py)");
  c->add_option("-I,--include", o->includeDirs, "directory searched first for imported modules (for .py)");
  addFrontendFlags(c, o->fpFusion, o->debug);
  c->add_flag("--collapse", o->collapse, "fold chains of elementwise ops into one node");
  c->add_flag("--layouts", o->layouts, "annotate each value with its layout on the GPU (the code generator's)");
  c->add_option("--num-warps", o->options.numWarps, "warps per program for --layouts (1, 2, 4, 8, 16 or 32)")->capture_default_str();
  c->add_flag("--run", o->run, "run the kernel on the interpreter (the arguments and options of tilevm run) and draw what it did");
  addRunOptions(c, o->options);
  c->add_option("--access", o->access, "with a run: draw which program read and wrote each element of this array argument");
  c->add_option("--access-output", o->accessOutput, "the access map: FILE.svg (default: the graph's name with -access.svg)");
  c->callback([o, &rc] {
    if (!o->access.empty() && o->accessOutput.empty()) {
      std::string base = o->output.empty() ? o->access : o->output.substr(0, o->output.find_last_of('.'));
      o->accessOutput = base + "-access.svg";
    }
    rc = runViz(*o);
  });
}

}  // namespace tilevm::tools

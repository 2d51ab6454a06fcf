// Load.cpp - file loading and option parsing shared by the subcommands.
#include "tools/Load.h"

#include "runtime/Launch.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ir/Verifier.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"

namespace tilevm::tools {

bool looksLikeBytecode(const std::string& path, const std::string& bytes) {
  auto endsWith = [&](const char* ext) { return path.size() >= 4 && path.compare(path.size() - 4, 4, ext) == 0; };
  if (endsWith(".tbc")) return true;
  if (endsWith("tile")) return false;
  return !bytes.empty() && static_cast<uint8_t>(bytes[0]) == ir::kBytecodeMagic[0];
}

void report(const std::vector<Diagnostic>& diags, const SourceManager& sources) {
  for (const auto& d : diags) std::cerr << render(d, &sources);
}

std::unique_ptr<ir::Module> loadVerified(const std::string& path, SourceManager& sources) {
  std::vector<Diagnostic> all;
  auto m = rt::loadModule(path, sources, &all);
  if (!m) {
    report(all.empty() ? std::vector<Diagnostic>{m.error()} : all, sources);
    return nullptr;
  }
  return std::move(*m);
}

void addRunOptions(CLI::App* c, rt::RunOptionTexts& t) {
  c->add_option("--grid", t.grid, "grid X[,Y[,Z]]")->capture_default_str();
  c->add_option("--check", t.check, "all, none, or a list of bounds,races,uninit")->capture_default_str();
  c->add_option("--threads", t.threads, "worker threads (0: all; at most 1024)")->capture_default_str();
  c->add_option("--schedule", t.schedule, "parallel, serial, reverse or random:SEED")->capture_default_str();
  c->add_option("--timeout", t.timeout, "wall-clock budget of a launch in seconds (0: none); past it the run stops with a timeout finding")
      ->capture_default_str();
  c->add_option("--fuel", t.fuel, "loop iterations a program may run before it is stopped")->capture_default_str();
  c->add_option("--seed", t.seed, "seed of generated inputs")->capture_default_str();
  c->add_flag("--strict", t.strict, "benign races (identical bits written by unordered programs) are errors, not notes");
}

void addGpuOptions(CLI::App* c, rt::RunOptionTexts& t, const std::string& what) {
  c->add_option("--num-warps", t.numWarps, what + "warps per program (Triton's num_warps: 1, 2, 4, 8, 16 or 32)")->capture_default_str();
  c->add_option("--num-stages", t.numStages, what + "Triton's num_stages, 1 to 8 (1: no software pipelining)")->capture_default_str();
  c->add_option("--maxnreg", t.maxnreg, what + "Triton's maxnreg: registers per thread, 1 to 255 (0: ptxas decides)")->capture_default_str();
}

void addFrontendFlags(CLI::App* c, bool& fpFusion, bool& debug) {
  c->add_flag("--fp-fusion", fpFusion, "fuse a product and its sum into one fma, as Triton's enable_fp_fusion (.py)");
  c->add_flag("--debug", debug,
              "Triton's debug mode (.py): integer +, -, * under 64 bits assert that they do not overflow, as "
              "TRITON_DEBUG=1 makes Triton's sanitize_overflow do");
}

}  // namespace tilevm::tools

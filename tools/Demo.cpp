// Demo.cpp - `tilevm demo`: verifies and round-trips every example, then runs the anchor
// kernels on the interpreter (DemoRun.cpp), printing tables.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "ir/Verifier.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"
#include "tools/Commands.h"
#include "tools/Demo.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

namespace tilevm::tools {

namespace {

namespace fs = std::filesystem;

// One example: verify, text -> bytecode -> text, compare. Prints a table row; true when it holds.
bool demoOne(const fs::path& file) {
  SourceManager sources;
  std::string name = file.filename().string();
  auto m = loadVerified(file.string(), sources);
  if (!m) {
    std::printf("%-22s  FAILED to load or verify (see above)\n", name.c_str());
    return false;
  }
  std::string text = ir::print(*m);
  auto bytes = ir::write(*m);
  auto back = ir::read(bytes, name + ".tbc");
  bool same = back && ir::verify(**back).empty() && ir::print(**back) == text;
  size_t ops = 0;
  for (const auto& k : m->kernels) ops += ir::countOps(*k);
  auto bare = ir::write(*m, ir::WriteOptions{.locations = false});
  std::printf("%-22s %7zu %5zu %9zu %9zu %9.1f  %s\n", name.c_str(), m->kernels.size(), ops, bytes.size(), bare.size(),
              ops ? double(bare.size()) / double(ops) : 0.0, same ? "ok" : "MISMATCH");
  return same;
}

int runDemo(const std::string& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".tile") files.push_back(e.path());
  if (ec || files.empty()) {
    std::cerr << dir << ": error: no .tile examples found\n";
    return kExitBadInput;
  }
  std::sort(files.begin(), files.end());
  std::printf("tilevm %s: verify and round-trip (text -> bytecode -> text) of %s\n\n", TILEVM_VERSION, dir.c_str());
  std::printf("%-22s %7s %5s %9s %9s %9s  %s\n", "example", "kernels", "ops", "tbc B", "no-loc B", "B/op", "round-trip");
  bool ok = true;
  for (const auto& f : files) ok &= demoOne(f);
  std::printf("\n%s\n", ok ? "all examples verified and round-tripped" : "some examples FAILED");
  bool ran = demoInterpreter(TILEVM_SOURCE_DIR);
  std::printf("\n%s\n", ran ? "anchor kernels clean, planted race reported" : "the interpreter demo FAILED");
  return ok && ran ? kExitOk : kExitBadInput;
}

}  // namespace

void addDemoCommand(CLI::App& app, int& rc) {
  auto dir = std::make_shared<std::string>(TILEVM_EXAMPLES_DIR);
  CLI::App* d = app.add_subcommand("demo", "Verify and round-trip the examples, printing a table");
  d->add_option("--examples", *dir, "folder of .tile examples")->capture_default_str();
  d->callback([dir, &rc] { rc = runDemo(*dir); });
}

}  // namespace tilevm::tools

// IrCommands.cpp - `asm` (text to bytecode), `dis` (either form to text), `verify` (either form).
#include <iostream>

#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"
#include "tools/Commands.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

namespace tilevm::tools {

namespace {

struct AsmOptions {
  std::string input, output;
  bool noLocations = false;
};

int runAsm(const AsmOptions& o) {
  SourceManager sources;
  auto m = loadVerified(o.input, sources);
  if (!m) return kExitBadInput;
  auto bytes = ir::write(*m, ir::WriteOptions{.locations = !o.noLocations});
  return writeFile(o.output, bytes.data(), bytes.size()) ? kExitOk : kExitBadInput;
}

int runDis(const std::string& input, bool noLocations) {
  SourceManager sources;
  auto m = loadVerified(input, sources);
  if (!m) return kExitBadInput;
  return writeStdout(ir::print(*m, ir::PrintOptions{.locations = !noLocations})) ? kExitOk : kExitBadInput;
}

int runVerify(const std::string& input) {
  SourceManager sources;
  auto m = loadVerified(input, sources);
  if (!m) return kExitBadInput;
  size_t ops = 0;
  for (const auto& k : m->kernels) ops += ir::countOps(*k);
  std::cout << input << ": ok (" << m->kernels.size() << " kernel" << (m->kernels.size() == 1 ? "" : "s") << ", "
            << ops << " ops)\n";
  return kExitOk;
}

}  // namespace

void addIrCommands(CLI::App& app, int& rc) {
  auto asmOpts = std::make_shared<AsmOptions>();
  CLI::App* a = app.add_subcommand("asm", "Assemble a .tile text file into .tbc bytecode (verifies first)");
  a->add_option("input", asmOpts->input, "input .tile (or .tbc)")->required();
  a->add_option("-o,--output", asmOpts->output, "output .tbc")->required();
  a->add_flag("--no-locations", asmOpts->noLocations, "omit the source locations section");
  a->callback([asmOpts, &rc] { rc = runAsm(*asmOpts); });

  auto disIn = std::make_shared<std::string>();
  auto disNoLoc = std::make_shared<bool>(false);
  CLI::App* d = app.add_subcommand("dis", "Print a .tbc (or .tile) module as text to stdout (verifies first)");
  d->add_option("input", *disIn, "input .tbc or .tile")->required();
  d->add_flag("--no-locations", *disNoLoc, "do not print loc(...) on ops");
  d->callback([disIn, disNoLoc, &rc] { rc = runDis(*disIn, *disNoLoc); });

  auto verIn = std::make_shared<std::string>();
  CLI::App* v = app.add_subcommand("verify", "Check a .tile or .tbc module: syntax/encoding, types, shapes, dominance");
  v->add_option("input", *verIn, "input .tile or .tbc")->required();
  v->callback([verIn, &rc] { rc = runVerify(*verIn); });
}

}  // namespace tilevm::tools

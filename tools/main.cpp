// main.cpp - the tilevm command line: one binary, subcommands (see README "CLI usage").
#include <CLI/CLI.hpp>

#include <iostream>
#include <new>
#include <stdexcept>

#include "tools/Commands.h"

#ifdef TILEVM_HAVE_CODEGEN
#include "runtime/CudaDevice.h"
#endif
#include "tools/ExitCodes.h"

int main(int argc, char** argv) {
  using namespace tilevm::tools;
  CLI::App app{"tilevm: run, check and compile Triton-style tile kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tilevm ") + TILEVM_VERSION);
  int rc = kExitOk;
#ifdef TILEVM_HAVE_CODEGEN
  tilevm::rt::setCudaFactory(&tilevm::rt::openCuda);
#endif
  addRunCommand(app, rc);
  addDiffCommand(app, rc);
  addCodegenCommands(app, rc);
  addVizCommand(app, rc);
  addCompileCommand(app, rc);
  addIrCommands(app, rc);
  addDemoCommand(app, rc);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  } catch (const std::bad_alloc&) {
    // Sizes are checked before allocating (docs/limits.md); this is the last line of defence.
    std::cerr << "tilevm: error: out of memory\n";
    return kExitEnvironment;
  } catch (const std::length_error&) {
    std::cerr << "tilevm: error: out of memory (a size beyond what can be allocated)\n";
    return kExitEnvironment;
  }
  return rc;
}

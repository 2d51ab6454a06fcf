// main.cpp - the tilevm command line: one binary, subcommands (see README "CLI usage").
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>
#include <new>
#include <stdexcept>

#include "tools/Commands.h"
#include "tools/Interrupt.h"

#ifdef TILEVM_HAVE_CODEGEN
#include "runtime/CudaDevice.h"
#endif
#include "tools/ExitCodes.h"

namespace tilevm::tools {

namespace {
std::atomic<bool> gInterrupt{false};  // lock-free: safe to set in a signal handler
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void onInterrupt(int) { gInterrupt.store(true); }
}  // namespace

std::atomic<bool>* cancelOnInterrupt() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;  // one cancel; the next Ctrl-C is the default (kill)
    return sigaction(SIGINT, &sa, nullptr) == 0;
  }();
  (void)installed;
  return &gInterrupt;
}

bool interrupted() { return gInterrupt.load(); }

}  // namespace tilevm::tools

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
  // A cancelled launch reported what it found; the exit code says it did not finish.
  return interrupted() ? kExitInterrupted : rc;
}

// Interrupt.h - Ctrl-C in the tilevm CLI: the first SIGINT cancels the running launch (which
// ends with an `interrupted` finding, exit 130); a second one kills the process as usual.
#pragma once

#include <atomic>

namespace tilevm::tools {

/// Installs the SIGINT handler (once; main.cpp) and returns the flag it sets, for
/// LaunchOptions::cancel. Commands that never call it keep the default Ctrl-C (exit at once).
std::atomic<bool>* cancelOnInterrupt();

/// True once a SIGINT arrived while the handler was installed (main exits with kExitInterrupted).
bool interrupted();

}  // namespace tilevm::tools

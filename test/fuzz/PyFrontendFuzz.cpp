// PyFrontendFuzz.cpp - libFuzzer target over the Python frontend and the interpreter: tokenizer,
// module reader, parser, lowering, then execution. Every input must compile or give a located
// diagnostic; a module that compiles must verify, and no error may be an "internal error"
// (frontend errors are the user's, located at the user's source). Each kernel that compiles is
// run on the checking interpreter with bindings drawn from the input (ExecuteKernel.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/Compile.h"
#include "ir/Verifier.h"
#include "test/fuzz/ExecuteKernel.h"

using namespace tilevm;

// TILEVM_FUZZ_PLANT=1: every launch with LaunchOptions::testPlantShadowBug (scripts/fuzz.sh).
static const bool plant = [] {
  const char* v = std::getenv("TILEVM_FUZZ_PLANT");
  return v && std::string(v) == "1";
}();

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  auto kernels = frontend::listKernels(source, "fuzz.py");
  if (!kernels) {
    if (kernels.error().message.empty()) std::abort();
    return 0;
  }
  // Each kernel (the first few) with every runtime parameter a *fp32 and constexprs at their
  // defaults (or 16).
  size_t tried = 0;
  for (const std::string& name : kernels->names) {
    if (++tried > 3) break;
    auto params = frontend::kernelParams(source, "fuzz.py", name);
    if (!params) continue;
    frontend::CompileOptions o;
    o.kernel = name;
    for (const auto& p : *params) {
      if (p.constexpr_) continue;
      o.signature += (o.signature.empty() ? "" : ", ") + p.name + ": *fp32";
    }
    auto m = frontend::compileKernel(source, "fuzz.py", o);
    if (!m) {
      const Diagnostic& d = m.error();
      if (d.message.empty() || d.message.find("internal error") != std::string::npos) {
        std::fprintf(stderr, "bad diagnostic: %s:%u:%u: %s\n", d.file.c_str(), d.line, d.col, d.message.c_str());
        std::abort();
      }
    } else if (!ir::verify(**m).empty()) {
      std::fprintf(stderr, "a compiled kernel does not verify\n");
      std::abort();
    }
    // Then with a drawn signature and constexprs, run (ExecuteKernel.h).
    if (auto broken = fuzz::executeKernel(source, name, *params, fuzz::bindingSeed(source) + tried, plant)) {
      std::fprintf(stderr, "tilevm fuzz: invariant violated: %s\n", broken->c_str());
      std::abort();
    }
  }
  return 0;
}

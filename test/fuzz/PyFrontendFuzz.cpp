// PyFrontendFuzz.cpp - libFuzzer target over the Python frontend: tokenizer, module reader,
// parser and lowering. Every input must compile or give a located diagnostic; a module that
// compiles must verify, and no error may be an "internal error" (frontend errors are the
// user's, located at the user's source).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/Compile.h"
#include "ir/Verifier.h"

using namespace tilevm;

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
      continue;
    }
    if (!ir::verify(**m).empty()) {
      std::fprintf(stderr, "a compiled kernel does not verify\n");
      std::abort();
    }
  }
  return 0;
}

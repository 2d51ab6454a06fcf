// ArgSpecFuzz.cpp - libFuzzer target over the command line's argument specs and the .npy
// reader: the first line is an `--arg NAME=SPEC`, the rest a .npy file. Either parses into
// something consistent (buffer sizes match shapes) or gives an error message; arrays are
// materialized against a small budget, so no input can allocate without bound.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "interpreter/Elements.h"
#include "runtime/ArgSpec.h"
#include "runtime/Npy.h"

using namespace tilevm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  size_t nl = input.find('\n');
  std::string spec = input.substr(0, nl);
  std::string npy = nl == std::string::npos ? "" : input.substr(nl + 1);

  auto a = rt::parseArg(spec, 1, 0);
  if (!a) {
    if (a.error().message.empty()) std::abort();
  } else if (a->isBuffer) {
    uint64_t budget = uint64_t(64) << 20;
    std::string err = rt::materialize(*a, budget);
    if (err.empty() && a->refs.empty()) {
      uint64_t numel = 1;
      for (int64_t d : a->buffer.shape) numel *= uint64_t(d);
      if (a->buffer.bytes.size() != numel * interp::storageBytes(a->buffer.elem)) {
        std::fprintf(stderr, "buffer size does not match its shape for %s\n", spec.c_str());
        std::abort();
      }
    }
  }

  auto b = rt::parseNpy(npy, "fuzz.npy");
  if (b) {
    uint64_t numel = 1;
    for (int64_t d : b->shape) numel *= uint64_t(d);
    if (b->bytes.size() != numel * interp::storageBytes(b->elem)) {
      std::fprintf(stderr, ".npy buffer size does not match its shape\n");
      std::abort();
    }
  } else if (b.error().message.empty()) {
    std::abort();
  }
  return 0;
}

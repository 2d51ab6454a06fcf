// ReaderFuzz.cpp - libFuzzer target over the bytecode reader and the verifier. Anything that
// reads and verifies must also print, parse back to the same text, and re-encode identically.
#include <cstdint>
#include <cstdlib>
#include <cstdio>

#include "ir/Verifier.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"

using namespace tilevm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto m = ir::read(std::span<const uint8_t>(data, size), "fuzz.tbc");
  if (!m) return 0;
  if (!ir::verify(**m).empty()) return 0;
  std::string text = ir::print(**m);
  auto back = ir::parse(text, "fuzz.tile");
  if (!back || ir::print(**back) != text) {
    std::fprintf(stderr, "text round trip failed:\n%s\n", text.c_str());
    std::abort();
  }
  auto bytes = ir::write(**m);
  auto again = ir::read(bytes, "again.tbc");
  if (!again || ir::write(**again) != bytes) {
    std::fprintf(stderr, "bytecode round trip failed\n");
    std::abort();
  }
  return 0;
}

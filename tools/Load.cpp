// Load.cpp - file loading and option parsing shared by the subcommands.
#include "tools/Load.h"

#include "runtime/Launch.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
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

bool parseTriple(const std::string& s, std::array<int64_t, 3>& out, int64_t fill) {
  out = {fill, fill, fill};
  size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    size_t c = s.find(',', start);
    std::string part = s.substr(start, c == std::string::npos ? std::string::npos : c - start);
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || errno == ERANGE) return false;
    out[size_t(d)] = v;
    if (c == std::string::npos) return true;
    start = c + 1;
  }
  return false;
}

}  // namespace tilevm::tools

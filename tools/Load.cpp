// Load.cpp - file loading shared by the subcommands.
#include "tools/Load.h"

#include <algorithm>
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
  auto contents = readFile(path);
  if (!contents) {
    report({contents.error()}, sources);
    return nullptr;
  }
  Result<std::unique_ptr<ir::Module>> m = Diagnostic{};
  if (looksLikeBytecode(path, *contents)) {
    const auto* p = reinterpret_cast<const uint8_t*>(contents->data());
    m = ir::read(std::span<const uint8_t>(p, contents->size()), path);
  } else {
    sources.add(path, *contents);
    m = ir::parse(*contents, path);
  }
  if (!m) {
    report({m.error()}, sources);
    return nullptr;
  }
  auto diags = ir::verify(**m);
  if (!diags.empty()) {
    for (auto& d : diags)
      if (d.file.empty()) d.file = path;  // no locations in the module: at least the file
    report(diags, sources);
    return nullptr;
  }
  return std::move(*m);
}

}  // namespace tilevm::tools

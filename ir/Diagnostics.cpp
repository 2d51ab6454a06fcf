// Diagnostics.cpp - rendering of user diagnostics with source line and caret.
#include "ir/Diagnostics.h"

namespace tilevm {

std::optional<std::string> SourceManager::line(const std::string& file, uint32_t line) const {
  auto it = texts_.find(file);
  if (it == texts_.end() || line == 0) return std::nullopt;
  const std::string& t = it->second;
  size_t pos = 0;
  for (uint32_t l = 1; l < line; ++l) {
    pos = t.find('\n', pos);
    if (pos == std::string::npos) return std::nullopt;
    ++pos;
  }
  size_t end = t.find('\n', pos);
  return t.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

std::string render(const Diagnostic& d, const SourceManager* sources) {
  std::string out = d.file.empty() ? std::string("<input>") : d.file;
  if (d.line) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.col);
  out += ": error: " + d.message + "\n";
  if (sources && d.line) {
    if (auto text = sources->line(d.file, d.line)) {
      out += *text + "\n";
      std::string caret;
      for (uint32_t i = 1; i < d.col && i <= text->size(); ++i) caret += (*text)[i - 1] == '\t' ? '\t' : ' ';
      out += caret + "^\n";
    }
  }
  return out;
}

}  // namespace tilevm

// Diagnostics.cpp - rendering of user diagnostics with source line and caret.
#include "ir/Diagnostics.h"

namespace tilevm {

std::optional<std::string> SourceManager::line(const std::string& file, uint32_t line) const {
  auto it = texts_.find(file);
  if (it == texts_.end() || line == 0) return std::nullopt;
  const std::string& t = it->second;
  // Lines end at LF, CRLF or CR, as Python reads them.
  size_t pos = 0;
  auto lineEnd = [&](size_t from) { return t.find_first_of("\r\n", from); };
  for (uint32_t l = 1; l < line; ++l) {
    size_t e = lineEnd(pos);
    if (e == std::string::npos) return std::nullopt;
    pos = e + (t[e] == '\r' && e + 1 < t.size() && t[e + 1] == '\n' ? 2 : 1);
  }
  size_t end = lineEnd(pos);
  return t.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

std::string render(const Diagnostic& d, const SourceManager* sources, const char* severity) {
  std::string out = d.file.empty() ? std::string("<input>") : d.file;
  if (d.line) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.col);
  out += std::string(": ") + severity + ": " + d.message + "\n";
  if (sources && d.line) {
    if (auto text = sources->line(d.file, d.line)) {
      out += *text + "\n";
      // Columns count code points: UTF-8 continuation bytes take no place of their own.
      std::string caret;
      uint32_t column = 1;
      for (size_t i = 0; i < text->size() && column < d.col; ++i) {
        unsigned char c = static_cast<unsigned char>((*text)[i]);
        if ((c & 0xC0) == 0x80) continue;
        caret += c == '\t' ? '\t' : ' ';
        ++column;
      }
      out += caret + "^\n";
    }
  }
  return out;
}

}  // namespace tilevm

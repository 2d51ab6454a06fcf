// Diagnostics.cpp - rendering of user diagnostics with source line and caret.
#include "ir/Diagnostics.h"

#include <algorithm>
#include <vector>

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
      // Columns count code points: split the line into them (UTF-8 continuation bytes join the
      // code point before). A long line is shown as a window around the caret.
      std::vector<std::string> points;
      for (size_t i = 0; i < text->size(); ++i) {
        unsigned char c = static_cast<unsigned char>((*text)[i]);
        if ((c & 0xC0) == 0x80 && !points.empty()) points.back() += char(c);
        else points.emplace_back(1, char(c));
      }
      constexpr size_t kWindow = 160;
      size_t caretAt = d.col ? size_t(d.col - 1) : 0;
      size_t first = 0, last = points.size();
      if (points.size() > kWindow) {
        first = caretAt > kWindow / 2 ? std::min(caretAt - kWindow / 2, points.size() - kWindow) : 0;
        last = first + kWindow;
      }
      std::string shown = first > 0 ? "..." : "", caret = first > 0 ? "   " : "";
      for (size_t i = first; i < last; ++i) {
        shown += points[i];
        if (i < caretAt) caret += points[i] == "\t" ? '\t' : ' ';
      }
      if (last < points.size()) shown += "...";
      out += shown + "\n" + caret + "^\n";
    }
  }
  return out;
}

}  // namespace tilevm

// SourceEncoding.cpp - PEP 263 coding cookies and UTF-8 checking, as CPython's tokenizer does
// them (Parser/tokenizer.c: check_coding_spec, and the decoding of the whole file).
#include "frontend/SourceEncoding.h"

#include <iconv.h>

#include <cctype>
#include <regex>

#include "ir/Diagnostics.h"

namespace tilevm::frontend {

namespace {

[[noreturn]] void fail(const std::string& file, uint32_t line, uint32_t col, const std::string& msg) {
  throw DiagnosticError(Diagnostic{file, line, col, msg});
}

// The first `n` lines (without their newlines).
std::string_view lineAt(std::string_view s, int n, size_t& start) {
  start = 0;
  for (int i = 0; i < n; ++i) {
    size_t e = s.find_first_of("\r\n", start);
    if (e == std::string_view::npos) return i + 1 == n ? s.substr(start) : std::string_view();
    if (i + 1 == n) return s.substr(start, e - start);
    start = e + (s[e] == '\r' && e + 1 < s.size() && s[e + 1] == '\n' ? 2 : 1);
  }
  return {};
}

// The encoding a cookie declares on line 1, or on line 2 when line 1 is blank or a comment.
std::string cookie(std::string_view s, uint32_t& line) {
  static const std::regex re(R"(^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+))");
  for (int n = 1; n <= 2; ++n) {
    size_t start;
    std::string l(lineAt(s, n, start));
    std::smatch m;
    if (std::regex_search(l, m, re)) {
      line = uint32_t(n);
      return m[1].str();
    }
    size_t first = l.find_first_not_of(" \t\f");
    if (first != std::string::npos && l[first] != '#') break;
  }
  return "";
}

// CPython's normalization of the common names (get_normal_name).
std::string normalName(const std::string& name) {
  std::string low;
  for (char c : name) low += static_cast<char>(c == '_' ? '-' : std::tolower(static_cast<unsigned char>(c)));
  if (low == "utf-8" || low.rfind("utf-8-", 0) == 0 || low == "utf8") return "utf-8";
  for (const char* l : {"latin-1", "iso-8859-1", "iso-latin-1"})
    if (low == l || low.rfind(std::string(l) + "-", 0) == 0) return "iso-8859-1";
  return low;
}

// The position of the first byte that is not valid UTF-8, or npos.
size_t invalidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return i;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    bool overlong = (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n;
  }
  return std::string_view::npos;
}

void position(std::string_view s, size_t at, uint32_t& line, uint32_t& col) {
  line = 1;
  col = 1;
  for (size_t i = 0; i < at && i < s.size(); ++i) {
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= s.size() || s[i + 1] != '\n'))) {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && s[i] != '\r') {
      ++col;
    }
  }
}

std::string convert(std::string_view s, const std::string& from, const std::string& file, uint32_t cookieLine) {
  iconv_t cd = iconv_open("UTF-8", from.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) fail(file, cookieLine, 1, "unknown encoding: " + from);
  std::string out(s.size() * 4 + 16, '\0');
  char* in = const_cast<char*>(s.data());
  size_t inLeft = s.size(), outLeft = out.size();
  char* o = out.data();
  size_t r = iconv(cd, &in, &inLeft, &o, &outLeft);
  iconv_close(cd);
  if (r == size_t(-1)) {
    uint32_t line, col;
    position(s, size_t(in - s.data()), line, col);
    fail(file, line, col, "'" + from + "' codec can't decode the source here");
  }
  out.resize(out.size() - outLeft);
  return out;
}

}  // namespace

std::string sourceToUtf8(std::string_view bytes, const std::string& fileName) {
  bool bom = bytes.substr(0, 3) == "\xEF\xBB\xBF";
  if (bom) bytes.remove_prefix(3);
  uint32_t cookieLine = 0;
  std::string declared = cookie(bytes, cookieLine);
  std::string enc = declared.empty() ? "utf-8" : normalName(declared);
  if (bom && enc != "utf-8") fail(fileName, cookieLine, 1, "encoding problem: " + declared + " with BOM");
  if (enc != "utf-8") return convert(bytes, enc, fileName, cookieLine);
  if (size_t bad = invalidUtf8(bytes); bad != std::string_view::npos) {
    uint32_t line, col;
    position(bytes, bad, line, col);
    fail(fileName, line, col, "(unicode error) 'utf-8' codec can't decode byte 0x" +
                                  std::string(1, "0123456789abcdef"[static_cast<unsigned char>(bytes[bad]) >> 4]) +
                                  std::string(1, "0123456789abcdef"[static_cast<unsigned char>(bytes[bad]) & 15]));
  }
  return std::string(bytes);
}

}  // namespace tilevm::frontend

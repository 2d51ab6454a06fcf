// PyLexer.cpp - Python's tokenizer, rule for rule (CPython's Lib/tokenize.py and
// Parser/tokenizer.c): logical lines, brackets, continuations, indentation with tab
// consistency, numbers, strings of every prefix (f-strings with nested fields and quotes).
#include "frontend/PyLexer.h"

#include <cctype>

#include "frontend/SourceEncoding.h"
#include "ir/Diagnostics.h"

namespace tilevm::frontend {

namespace {

// CPython's own limits (Parser/tokenizer.h: MAXINDENT, MAXLEVEL): they also bound every
// recursion of the parser that follows.
constexpr size_t kMaxIndent = 100;
constexpr size_t kMaxBrackets = 200;

bool isIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool isIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// LF, CRLF and CR all end a line, as Python's universal newlines read them.
std::string normalizeNewlines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The value of a non-raw string body: Python's escape sequences (unknown ones stay as written).
std::string decodeEscapes(std::string_view s, bool bytes) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char e = s[++i];
    auto hex = [&](size_t n) -> bool {
      uint32_t v = 0;
      for (size_t k = 1; k <= n; ++k) {
        if (i + k >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + k]))) return false;
        char h = s[i + k];
        v = v * 16 + uint32_t(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
      }
      if (n == 2 && bytes) out += char(v);
      else appendUtf8(out, v > 0x10FFFF ? 0xFFFD : v);
      i += n;
      return true;
    };
    switch (e) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x':
        if (!hex(2)) out += "\\x";
        break;
      case 'u':
        if (bytes || !hex(4)) out += "\\u";
        break;
      case 'U':
        if (bytes || !hex(8)) out += "\\U";
        break;
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = 0;
          size_t k = 0;
          while (k < 3 && i + k < s.size() && s[i + k] >= '0' && s[i + k] <= '7') v = v * 8 + uint32_t(s[i + k++] - '0');
          i += k - 1;
          if (bytes) out += char(v & 0xFF);
          else appendUtf8(out, v);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

class PyLexer {
 public:
  PyLexer(std::string_view text, const std::string& file) : file_(file) {
    t_ = normalizeNewlines(sourceToUtf8(text, file));
  }

  std::vector<PyToken> run() {
    if (size_t nul = t_.find('\0'); nul != std::string::npos) {
      seek(nul);
      fail(line_, col_, "source code cannot contain null bytes");
    }
    indents_.push_back({0, 0});
    bool atLineStart = true, continued = false;
    while (pos_ < t_.size()) {
      if (atLineStart) {
        atLineStart = false;
        if (brackets_.empty() && !continued && indentation()) {
          atLineStart = true;  // a blank or comment-only line: no tokens, no NEWLINE
          continue;
        }
        continued = false;
      }
      char c = cur();
      if (c == ' ' || c == '\t' || c == '\f') {
        advance();
      } else if (c == '#') {
        while (pos_ < t_.size() && cur() != '\n') advance();
      } else if (c == '\\') {
        if (peekc(1) == '\n') {
          advance();
          advance();
          atLineStart = continued = true;
          if (pos_ >= t_.size()) fail(line_, col_, "unexpected EOF while parsing");
        } else {
          advance();
          fail(line_, col_, "unexpected character after line continuation character");
        }
      } else if (c == '\n') {
        if (brackets_.empty() && lineHasTokens_) push(PyTok::Newline, "", line_, col_);
        advance();
        atLineStart = true;
      } else if (isIdentStart(static_cast<unsigned char>(c))) {
        nameOrString();
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peekc(1))))) {
        number();
      } else if (c == '"' || c == '\'') {
        string(pos_, line_, col_, "");
      } else {
        op();
      }
    }
    if (!brackets_.empty()) {
      const Bracket& open = brackets_.back();
      fail(open.line, open.col, std::string("'") + open.ch + "' was never closed");
    }
    if (lineHasTokens_) push(PyTok::Newline, "", line_, col_);
    // Python counts the end of file as the start of the line after the last one.
    uint32_t endLine = col_ == 1 ? line_ : line_ + 1;
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(PyTok::Dedent, "", endLine, 1);
    }
    push(PyTok::Eof, "", endLine, 1);
    return std::move(out_);
  }

 private:
  struct Bracket {
    char ch;
    uint32_t line, col;
  };
  struct Indent {
    unsigned col, altcol;  ///< tabs to multiples of 8, and tabs as 1 (Python checks both agree)
  };

  char cur() const { return pos_ < t_.size() ? t_[pos_] : '\0'; }
  char peekc(size_t k) const { return pos_ + k < t_.size() ? t_[pos_ + k] : '\0'; }
  void advance() {
    unsigned char c = static_cast<unsigned char>(t_[pos_]);
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else if ((c & 0xC0) != 0x80) {  // UTF-8 continuation bytes are part of the previous code point
      ++col_;
    }
    ++pos_;
  }
  void seek(size_t target) {
    while (pos_ < target) advance();
  }
  [[noreturn]] void fail(uint32_t l, uint32_t c, const std::string& m) { throw DiagnosticError(Diagnostic{file_, l, c, m}); }
  void push(PyTok k, std::string text, uint32_t l, uint32_t c, std::string value = {}) {
    lineHasTokens_ = k != PyTok::Newline && k != PyTok::Dedent && k != PyTok::Eof;
    out_.push_back(PyToken{k, std::move(text), std::move(value), l, c});
  }

  // At the start of a line outside brackets: measure the indentation and emit INDENT/DEDENT.
  // Returns true if the line is blank or a comment (consumed whole, newline included).
  bool indentation() {
    unsigned column = 0, altcol = 0;
    size_t p = pos_;
    for (; p < t_.size(); ++p) {
      char ch = t_[p];
      if (ch == ' ') {
        ++column;
        ++altcol;
      } else if (ch == '\t') {
        column = (column / 8 + 1) * 8;
        ++altcol;
      } else if (ch == '\f') {
        column = altcol = 0;
      } else {
        break;
      }
    }
    char c = p < t_.size() ? t_[p] : '\n';
    if (c == '\n' || c == '#') {
      while (pos_ < t_.size() && cur() != '\n') advance();
      if (pos_ < t_.size()) advance();
      return true;
    }
    uint32_t startLine = line_;
    std::string ws = t_.substr(pos_, p - pos_);
    seek(p);
    const Indent& top = indents_.back();
    if (column > top.col) {
      if (altcol <= top.altcol) fail(line_, col_, "inconsistent use of tabs and spaces in indentation");
      if (indents_.size() > kMaxIndent) fail(line_, col_, "too many levels of indentation");
      indents_.push_back({column, altcol});
      push(PyTok::Indent, ws, startLine, 1);
      lineHasTokens_ = false;
    } else {
      while (column < indents_.back().col) {
        indents_.pop_back();
        push(PyTok::Dedent, "", line_, col_);
      }
      if (column != indents_.back().col) fail(line_, col_, "unindent does not match any outer indentation level");
      if (altcol != indents_.back().altcol) fail(line_, col_, "inconsistent use of tabs and spaces in indentation");
    }
    return false;
  }

  void nameOrString() {
    size_t start = pos_;
    uint32_t l = line_, c = col_;
    while (pos_ < t_.size() && isIdentChar(static_cast<unsigned char>(cur()))) advance();
    std::string name = t_.substr(start, pos_ - start);
    if ((cur() == '"' || cur() == '\'') && name.size() <= 2) {
      std::string lower;
      for (char ch : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      static const char* prefixes[] = {"r", "u", "f", "b", "br", "rb", "fr", "rf"};
      for (const char* pre : prefixes)
        if (lower == pre) return string(start, l, c, lower);
    }
    push(PyTok::Name, std::move(name), l, c);
  }

  // digitpart := digit (['_'] digit)*  ; returns false if no digit is there.
  bool digitPart(bool (*isDigit)(char)) {
    if (!isDigit(cur())) return false;
    advance();
    while (isDigit(cur()) || (cur() == '_' && isDigit(peekc(1)))) {
      if (cur() == '_') advance();
      advance();
    }
    return true;
  }
  static bool dec(char ch) { return ch >= '0' && ch <= '9'; }
  static bool hexd(char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; }
  static bool octd(char ch) { return ch >= '0' && ch <= '7'; }
  static bool bind(char ch) { return ch == '0' || ch == '1'; }

  void number() {
    size_t start = pos_;
    uint32_t l = line_, c = col_;
    bool isInt = true;
    if (cur() == '0' && std::string_view("xXoObB").find(peekc(1)) != std::string_view::npos) {
      char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(peekc(1))));
      advance();
      advance();
      if (cur() == '_') advance();
      bool (*digit)(char) = kind == 'x' ? hexd : kind == 'o' ? octd : bind;
      if (!digitPart(digit)) fail(line_, col_, std::string("invalid ") + (kind == 'x' ? "hexadecimal" : kind == 'o' ? "octal" : "binary") + " literal");
    } else {
      bool leadingZero = cur() == '0';
      if (cur() != '.') digitPart(dec);
      if (cur() == '.') {
        isInt = false;
        advance();
        digitPart(dec);
      }
      if ((cur() == 'e' || cur() == 'E') &&
          (dec(peekc(1)) || ((peekc(1) == '+' || peekc(1) == '-') && dec(peekc(2))))) {
        isInt = false;
        advance();
        if (cur() == '+' || cur() == '-') advance();
        digitPart(dec);
      }
      if (cur() == 'j' || cur() == 'J') {
        isInt = false;
        advance();
      }
      if (isInt && leadingZero && t_.find_first_not_of("0_", start) < pos_)
        fail(l, c, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
    }
    if (isIdentStart(static_cast<unsigned char>(cur()))) {
      // Python accepts a keyword right after a number (`1if x else 2`); anything else is an error.
      size_t e = pos_;
      while (e < t_.size() && isIdentChar(static_cast<unsigned char>(t_[e]))) ++e;
      std::string_view word(t_.data() + pos_, e - pos_);
      static const char* kws[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
      bool kw = false;
      for (const char* k : kws) kw |= word == k;
      if (!kw) fail(l, c, "invalid decimal literal");
    }
    push(PyTok::Number, t_.substr(start, pos_ - start), l, c);
  }

  // A string literal from `start` (its prefix, lower-cased, already read): scans to the
  // closing quote and records the source text and the decoded value.
  void string(size_t start, uint32_t l, uint32_t c, const std::string& prefix) {
    bool raw = prefix.find('r') != std::string::npos;
    bool fmt = prefix.find('f') != std::string::npos;
    bool bytes = prefix.find('b') != std::string::npos;
    char q = cur();
    bool triple = peekc(1) == q && peekc(2) == q;
    for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
    size_t bodyStart = pos_;
    size_t bodyEnd = stringBody(q, triple, fmt, l, c);
    std::string body = t_.substr(bodyStart, bodyEnd - bodyStart);
    push(PyTok::String, t_.substr(start, pos_ - start), l, c, raw || fmt ? body : decodeEscapes(body, bytes));
  }

  // Scans a string body up to and past its closing quotes; returns where the body ends.
  size_t stringBody(char q, bool triple, bool fmt, uint32_t l, uint32_t c) {
    for (;;) {
      if (pos_ >= t_.size())
        fail(l, c, std::string(triple ? "unterminated triple-quoted string literal" : "unterminated string literal") +
                       " (detected at line " + std::to_string(line_) + ")");
      char ch = cur();
      if (ch == '\\') {
        advance();
        // In f-strings a backslash does not hide the brace of a field (`rf"\{x}"`).
        if (pos_ < t_.size() && !(fmt && (cur() == '{' || cur() == '}'))) advance();
        continue;
      }
      if (ch == '\n' && !triple) fail(l, c, "unterminated string literal (detected at line " + std::to_string(line_) + ")");
      if (ch == q && (!triple || (peekc(1) == q && peekc(2) == q))) {
        size_t end = pos_;
        for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
        return end;
      }
      if (fmt && ch == '{') {
        if (peekc(1) == '{') {
          advance();
          advance();
        } else {
          replacementField();
        }
        continue;
      }
      if (fmt && ch == '}') {
        if (peekc(1) != '}') fail(line_, col_, "f-string: single '}' is not allowed");
        advance();
      }
      advance();
    }
  }

  // `{expr[!conv][:spec]}` inside an f-string; nested strings may use any quote (Python 3.12).
  void replacementField() {
    uint32_t l = line_, c = col_;
    advance();  // '{'
    int depth = 0;
    std::string lastName;
    for (;;) {
      if (pos_ >= t_.size()) fail(l, c, "f-string: expecting '}'");
      char ch = cur();
      if (isIdentStart(static_cast<unsigned char>(ch))) {
        size_t s = pos_;
        while (pos_ < t_.size() && isIdentChar(static_cast<unsigned char>(cur()))) advance();
        lastName = t_.substr(s, pos_ - s);
        continue;
      }
      if (ch == '"' || ch == '\'') {
        std::string lower;
        for (char x : lastName) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(x)));
        bool nestedF = lastName.size() <= 2 && lower.find('f') != std::string::npos &&
                       lower.find_first_not_of("rbfu") == std::string::npos;
        uint32_t sl = line_, sc = col_;
        bool tri = peekc(1) == ch && peekc(2) == ch;
        for (int i = 0; i < (tri ? 3 : 1); ++i) advance();
        stringBody(ch, tri, nestedF, sl, sc);
        lastName.clear();
        continue;
      }
      lastName.clear();
      if (ch == '(' || ch == '[' || ch == '{') {
        ++depth;
      } else if ((ch == ')' || ch == ']') && depth > 0) {
        --depth;
      } else if (ch == '}') {
        if (depth == 0) {
          advance();
          return;
        }
        --depth;
      } else if (depth == 0 && ch == ':') {
        advance();
        formatSpec(l, c);
        return;
      } else if (ch == '\\') {
        advance();
      }
      advance();
    }
  }

  // The format spec after ':' up to the field's closing '}'; may hold nested fields.
  void formatSpec(uint32_t l, uint32_t c) {
    for (;;) {
      if (pos_ >= t_.size()) fail(l, c, "f-string: expecting '}'");
      char ch = cur();
      if (ch == '{') {
        replacementField();
        continue;
      }
      advance();
      if (ch == '}') return;
    }
  }

  void op() {
    static const char* ops3[] = {"**=", "//=", ">>=", "<<=", "..."};
    static const char* ops2[] = {"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=",
                                 "%=", "&=", "|=", "^=", "@=", ":="};
    uint32_t l = line_, c = col_;
    std::string_view rest = std::string_view(t_).substr(pos_);
    for (const char* o : ops3)
      if (rest.substr(0, 3) == o) return seek(pos_ + 3), push(PyTok::Op, o, l, c);
    for (const char* o : ops2)
      if (rest.substr(0, 2) == o) return seek(pos_ + 2), push(PyTok::Op, o, l, c);
    char ch = cur();
    if (ch == '(' || ch == '[' || ch == '{') {
      if (brackets_.size() >= kMaxBrackets) fail(l, c, "too many nested parentheses");
      brackets_.push_back({ch, l, c});
    } else if (ch == ')' || ch == ']' || ch == '}') {
      if (brackets_.empty()) fail(l, c, std::string("unmatched '") + ch + "'");
      char open = brackets_.back().ch;
      char want = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (ch != want)
        fail(l, c, std::string("closing parenthesis '") + ch + "' does not match opening parenthesis '" + open + "'");
      brackets_.pop_back();
    } else if (std::string_view("+-*/%&|^~<>=.,:;@").find(ch) == std::string_view::npos) {
      unsigned char u = static_cast<unsigned char>(ch);
      fail(l, c, std::string("invalid character '") + (std::isprint(u) ? std::string(1, ch) : "?") + "'");
    }
    advance();
    push(PyTok::Op, std::string(1, ch), l, c);
  }

  std::string t_;
  std::string file_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
  bool lineHasTokens_ = false;
  std::vector<Bracket> brackets_;
  std::vector<Indent> indents_;
  std::vector<PyToken> out_;
};

}  // namespace

std::vector<PyToken> tokenizePython(std::string_view text, const std::string& fileName) {
  return PyLexer(text, fileName).run();
}

const char* pyTokName(PyTok k) {
  switch (k) {
    case PyTok::Name: return "NAME";
    case PyTok::Number: return "NUMBER";
    case PyTok::String: return "STRING";
    case PyTok::Op: return "OP";
    case PyTok::Newline: return "NEWLINE";
    case PyTok::Indent: return "INDENT";
    case PyTok::Dedent: return "DEDENT";
    case PyTok::Eof: return "ENDMARKER";
  }
  return "?";
}

}  // namespace tilevm::frontend

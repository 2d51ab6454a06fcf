// PyLexer.cpp - Python tokenizer: indentation, brackets (implicit line joining), backslash
// continuations, comments, numbers (with _ and 0x/0o/0b, j suffix), string literals of every
// prefix and quote form.
#include "frontend/PyLexer.h"

#include <cctype>

#include "ir/Diagnostics.h"

namespace tilevm::frontend {

namespace {

class PyLexer {
 public:
  PyLexer(std::string_view text, const std::string& file) : t_(text), file_(file) {}

  std::vector<PyToken> run() {
    indents_.push_back(0);
    bool atLineStart = true;
    while (pos_ < t_.size()) {
      if (atLineStart && depth_ == 0) {
        if (handleIndentation()) continue;  // blank or comment-only line consumed
        atLineStart = false;
      }
      char c = cur();
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        advance();
      } else if (c == '#') {
        while (pos_ < t_.size() && cur() != '\n') advance();
      } else if (c == '\\' && peekc(1) == '\n') {
        advance();
        advance();
      } else if (c == '\n') {
        if (depth_ == 0 && !out_.empty() && out_.back().kind != PyTok::Newline) push(PyTok::Newline, "", line_, col_);
        advance();
        atLineStart = true;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
        lexNameOrString();
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peekc(1))))) {
        lexNumber();
      } else if (c == '"' || c == '\'') {
        lexString(line_, col_, "");
      } else {
        lexOp();
      }
    }
    if (!out_.empty() && out_.back().kind != PyTok::Newline) push(PyTok::Newline, "", line_, col_);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(PyTok::Dedent, "", line_, col_);
    }
    push(PyTok::Eof, "", line_, col_);
    return std::move(out_);
  }

 private:
  char cur() const { return pos_ < t_.size() ? t_[pos_] : '\0'; }
  char peekc(size_t k) const { return pos_ + k < t_.size() ? t_[pos_ + k] : '\0'; }
  void advance() {
    if (cur() == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  [[noreturn]] void fail(uint32_t l, uint32_t c, const std::string& m) { throw DiagnosticError(Diagnostic{file_, l, c, m}); }
  void push(PyTok k, std::string text, uint32_t l, uint32_t c) {
    out_.push_back(PyToken{k, std::move(text), l, c});
    lastWasString_ = false;
  }

  // At the start of a logical line: measure indentation, emit INDENT/DEDENT. Returns true if the
  // line was blank (or a comment) and has been consumed.
  bool handleIndentation() {
    unsigned width = 0;
    size_t p = pos_;
    while (p < t_.size() && (t_[p] == ' ' || t_[p] == '\t' || t_[p] == '\f')) {
      width = t_[p] == '\t' ? (width / 8 + 1) * 8 : width + 1;
      ++p;
    }
    char c = p < t_.size() ? t_[p] : '\n';
    if (c == '\n' || c == '#' || c == '\r' || p >= t_.size()) {
      while (pos_ < t_.size() && cur() != '\n') advance();
      if (pos_ < t_.size()) advance();
      return true;
    }
    while (pos_ < p) advance();
    if (width > indents_.back()) {
      indents_.push_back(width);
      push(PyTok::Indent, "", line_, col_);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        push(PyTok::Dedent, "", line_, col_);
      }
      if (width != indents_.back()) fail(line_, col_, "unindent does not match any outer indentation level");
    }
    return false;
  }

  void lexNameOrString() {
    uint32_t l = line_, c = col_;
    std::string name;
    while (std::isalnum(static_cast<unsigned char>(cur())) || cur() == '_' || static_cast<unsigned char>(cur()) >= 0x80) {
      name += cur();
      advance();
    }
    if ((cur() == '"' || cur() == '\'') && name.size() <= 2) {
      std::string lower;
      for (char ch : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (lower.find_first_not_of("rbfu") == std::string::npos) {
        lexString(l, c, lower);
        return;
      }
    }
    push(PyTok::Name, name, l, c);
  }

  void lexNumber() {
    uint32_t l = line_, c = col_;
    std::string s;
    auto take = [&] {
      if (cur() != '_') s += cur();
      advance();
    };
    if (cur() == '0' && std::string_view("xXoObB").find(peekc(1)) != std::string_view::npos) {
      take();
      take();
      while (std::isxdigit(static_cast<unsigned char>(cur())) || cur() == '_') take();
    } else {
      while (std::isdigit(static_cast<unsigned char>(cur())) || cur() == '_') take();
      if (cur() == '.') {
        take();
        while (std::isdigit(static_cast<unsigned char>(cur())) || cur() == '_') take();
      }
      if (cur() == 'e' || cur() == 'E') {
        take();
        if (cur() == '+' || cur() == '-') take();
        if (!std::isdigit(static_cast<unsigned char>(cur()))) fail(line_, col_, "invalid number literal: expected exponent digits");
        while (std::isdigit(static_cast<unsigned char>(cur())) || cur() == '_') take();
      }
      if (cur() == 'j' || cur() == 'J') take();
    }
    if (std::isalpha(static_cast<unsigned char>(cur()))) fail(line_, col_, "invalid number literal");
    push(PyTok::Number, s, l, c);
  }

  void lexString(uint32_t l, uint32_t c, const std::string& prefix) {
    bool raw = prefix.find('r') != std::string::npos;
    char q = cur();
    bool triple = peekc(1) == q && peekc(2) == q;
    advance();
    if (triple) {
      advance();
      advance();
    }
    std::string value;
    for (;;) {
      if (pos_ >= t_.size()) fail(l, c, "unterminated string literal");
      char ch = cur();
      if (!triple && ch == '\n') fail(l, c, "unterminated string literal");
      if (ch == q && (!triple || (peekc(1) == q && peekc(2) == q))) {
        advance();
        if (triple) {
          advance();
          advance();
        }
        break;
      }
      if (ch == '\\' && !raw) {
        advance();
        char e = cur();
        switch (e) {
          case 'n': value += '\n'; break;
          case 't': value += '\t'; break;
          case 'r': value += '\r'; break;
          case '0': value += '\0'; break;
          case '\n': break;  // line continuation inside a string
          case '\\': case '\'': case '"': value += e; break;
          default: value += '\\'; value += e; break;
        }
        advance();
        continue;
      }
      if (ch == '\\' && raw) {
        value += ch;
        advance();
        if (pos_ < t_.size()) {
          value += cur();
          advance();
        }
        continue;
      }
      value += ch;
      advance();
    }
    if (!out_.empty() && out_.back().kind == PyTok::String && lastWasString_) {
      out_.back().text += value;
    } else {
      push(PyTok::String, value, l, c);
    }
    lastWasString_ = true;  // adjacent literals concatenate
  }

  void lexOp() {
    static const char* ops3[] = {"**=", "//=", ">>=", "<<=", "...", "!="};
    static const char* ops2[] = {"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=",
                                 "%=", "&=", "|=", "^=", "@=", ":="};
    uint32_t l = line_, c = col_;
    std::string_view rest = t_.substr(pos_);
    for (const char* op : ops3)
      if (rest.substr(0, 3) == op) {
        for (int i = 0; i < 3; ++i) advance();
        push(PyTok::Op, op, l, c);
        return;
      }
    for (const char* op : ops2)
      if (rest.substr(0, 2) == op) {
        advance();
        advance();
        push(PyTok::Op, op, l, c);
        return;
      }
    char ch = cur();
    if (std::string_view("()[]{}").find(ch) != std::string_view::npos) {
      if (ch == '(' || ch == '[' || ch == '{') ++depth_;
      else if (depth_ > 0) --depth_;
      else fail(l, c, std::string("unmatched '") + ch + "'");
    } else if (std::string_view("+-*/%&|^~<>=.,:;@!").find(ch) == std::string_view::npos) {
      fail(l, c, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(ch)) ? std::string(1, ch) : "?") + "'");
    }
    advance();
    push(PyTok::Op, std::string(1, ch), l, c);
  }

  std::string_view t_;
  std::string file_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
  int depth_ = 0;
  std::vector<unsigned> indents_;
  std::vector<PyToken> out_;
  bool lastWasString_ = false;
};

}  // namespace

std::vector<PyToken> tokenizePython(std::string_view text, const std::string& fileName) {
  return PyLexer(text, fileName).run();
}

}  // namespace tilevm::frontend

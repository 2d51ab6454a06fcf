// Lexer.cpp - tokenizer of the `.tile` text form.
#include "ir/text/Lexer.h"

#include <cctype>

#include "ir/Diagnostics.h"

namespace tilevm::ir {

namespace {
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }
}  // namespace

void Lexer::fail(uint32_t line, uint32_t col, const std::string& msg) const {
  throw DiagnosticError(Diagnostic{file_, line, col, msg});
}

void Lexer::advance() {
  if (pos_ >= text_.size()) return;
  if (text_[pos_] == '\n') {
    ++line_;
    col_ = 1;
    sawTokenOnLine_ = false;
  } else {
    ++col_;
  }
  ++pos_;
}

void Lexer::skipSpaceAndComments() {
  while (pos_ < text_.size()) {
    char c = cur();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      advance();
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && cur() != '\n') advance();
    } else {
      break;
    }
  }
}

const Token& Lexer::peek() {
  if (!hasPeeked_) {
    peeked_ = lex();
    hasPeeked_ = true;
  }
  return peeked_;
}

Token Lexer::next() {
  if (hasPeeked_) {
    hasPeeked_ = false;
    return std::move(peeked_);
  }
  return lex();
}

std::vector<int64_t> Lexer::scanDims() {
  std::vector<int64_t> dims;
  while (std::isdigit(static_cast<unsigned char>(cur()))) {
    uint32_t l = line_, c = col_;
    int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(cur()))) {
      if (v > (int64_t(1) << 40)) fail(l, c, "dimension is too large");
      v = v * 10 + (cur() - '0');
      advance();
    }
    if (cur() != 'x') fail(line_, col_, "expected 'x' after a tile dimension");
    advance();
    dims.push_back(v);
  }
  return dims;
}

Token Lexer::lex() {
  skipSpaceAndComments();
  Token t;
  t.line = line_;
  t.col = col_;
  t.firstOnLine = !sawTokenOnLine_;
  sawTokenOnLine_ = true;
  if (pos_ >= text_.size()) {
    t.kind = Tok::Eof;
    return t;
  }
  char c = cur();
  if (c == '%' || c == '@') {
    advance();
    t.kind = c == '%' ? Tok::ValueId : Tok::KernelId;
    while (isIdentChar(cur())) {
      t.text += cur();
      advance();
    }
    if (t.text.empty()) fail(t.line, t.col, std::string("expected a name after '") + c + "'");
    return t;
  }
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    t.kind = Tok::Ident;
    while (isIdentChar(cur())) {
      t.text += cur();
      advance();
    }
    return t;
  }
  if (std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && pos_ + 1 < text_.size() &&
                                                       (std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) ||
                                                        text_[pos_ + 1] == 'i'))) {
    t.kind = Tok::Int;
    if (c == '-') {
      t.text += c;
      advance();
      if (cur() == 'i') {  // -inf
        while (isIdentChar(cur())) {
          t.text += cur();
          advance();
        }
        if (t.text != "-inf") fail(t.line, t.col, "expected a number, got '" + t.text + "'");
        t.kind = Tok::Float;
        return t;
      }
    }
    while (std::isdigit(static_cast<unsigned char>(cur()))) {
      t.text += cur();
      advance();
    }
    if (cur() == '.' || cur() == 'e' || cur() == 'E') {
      t.kind = Tok::Float;
      if (cur() == '.') {
        t.text += cur();
        advance();
        while (std::isdigit(static_cast<unsigned char>(cur()))) {
          t.text += cur();
          advance();
        }
      }
      if (cur() == 'e' || cur() == 'E') {
        t.text += cur();
        advance();
        if (cur() == '+' || cur() == '-') {
          t.text += cur();
          advance();
        }
        if (!std::isdigit(static_cast<unsigned char>(cur()))) fail(line_, col_, "expected exponent digits");
        while (std::isdigit(static_cast<unsigned char>(cur()))) {
          t.text += cur();
          advance();
        }
      }
    }
    return t;
  }
  if (c == '"') {
    t.kind = Tok::String;
    advance();
    while (cur() != '"') {
      if (pos_ >= text_.size() || cur() == '\n') fail(t.line, t.col, "unterminated string");
      if (cur() == '\\') {
        advance();
        char e = cur();
        if (e == 'n') t.text += '\n';
        else if (e == '"' || e == '\\') t.text += e;
        else if (e == 'x') {
          advance();
          std::string hex;
          for (int i = 0; i < 2 && std::isxdigit(static_cast<unsigned char>(cur())); ++i) {
            hex += cur();
            advance();
          }
          if (hex.size() != 2) fail(line_, col_, "expected two hex digits after \\x");
          t.text += static_cast<char>(std::stoi(hex, nullptr, 16));
          continue;
        } else fail(line_, col_, "unknown escape in string");
        advance();
        continue;
      }
      t.text += cur();
      advance();
    }
    advance();
    return t;
  }
  if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
    advance();
    advance();
    t.kind = Tok::Arrow;
    t.text = "->";
    return t;
  }
  if (std::string_view("(){}[]<>,:=").find(c) != std::string_view::npos) {
    t.kind = Tok::Punct;
    t.text = c;
    advance();
    return t;
  }
  fail(t.line, t.col, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x?") + "'");
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Eof: return "end of file";
    case Tok::ValueId: return "'%" + t.text + "'";
    case Tok::KernelId: return "'@" + t.text + "'";
    case Tok::String: return "a string";
    case Tok::Ident:
    case Tok::Int:
    case Tok::Float:
    case Tok::Punct:
    case Tok::Arrow: return "'" + t.text + "'";
  }
  return "?";
}

}  // namespace tilevm::ir

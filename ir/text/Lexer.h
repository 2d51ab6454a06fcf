// Lexer.h - tokens of the `.tile` text form.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilevm::ir {

/// Token kinds of the text form.
enum class Tok { Eof, ValueId, KernelId, Ident, Int, Float, String, Punct, Arrow };

/// One token with its position. `text` excludes the sigil of ValueId/KernelId and holds the
/// decoded contents of a String.
struct Token {
  Tok kind = Tok::Eof;
  std::string text;
  uint32_t line = 1;
  uint32_t col = 1;
  bool firstOnLine = false;  ///< no other token precedes it on its line
};

/// Splits text into tokens on demand with one token of lookahead. Lexical errors throw
/// DiagnosticError with the position.
class Lexer {
 public:
  Lexer(std::string_view text, std::string fileName) : text_(text), file_(std::move(fileName)) {}

  const Token& peek();
  Token next();
  /// Reads `NxMx...x` shape dims right after a consumed `tile<`, stopping before the element
  /// type. Requires that nothing has been peeked since.
  std::vector<int64_t> scanDims();
  /// A token-less position marker at the current raw position (for errors in scanDims).
  Token position() const {
    Token t;
    t.line = line_;
    t.col = col_;
    return t;
  }
  [[noreturn]] void fail(uint32_t line, uint32_t col, const std::string& msg) const;
  const std::string& fileName() const { return file_; }

 private:
  Token lex();
  void skipSpaceAndComments();
  char cur() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void advance();

  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
  bool sawTokenOnLine_ = false;
  bool hasPeeked_ = false;
  Token peeked_;
};

/// Human description of a token for "expected X, got Y".
std::string describe(const Token& t);

}  // namespace tilevm::ir

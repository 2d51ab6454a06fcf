// PyLexer.h - a tokenizer for Python source: enough of Python's lexical grammar to read whole
// kernel files (host code included), with INDENT/DEDENT and positions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilevm::frontend {

/// Python token kinds.
enum class PyTok { Name, Number, String, Op, Newline, Indent, Dedent, Eof };

/// One token. For String, `text` holds the decoded value of the (possibly concatenated)
/// literal; prefixes f/b/r are accepted (f-strings are kept as plain strings).
struct PyToken {
  PyTok kind = PyTok::Eof;
  std::string text;
  uint32_t line = 1;
  uint32_t col = 1;
};

/// Tokenizes the whole text up front. Errors throw DiagnosticError with the position.
std::vector<PyToken> tokenizePython(std::string_view text, const std::string& fileName);

}  // namespace tilevm::frontend

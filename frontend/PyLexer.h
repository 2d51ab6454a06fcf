// PyLexer.h - a tokenizer that follows Python's lexical rules (the tokens CPython's `tokenize`
// module yields, less comments and NL): logical lines, implicit joining inside brackets,
// backslash continuation, INDENT/DEDENT, every number and string form.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilevm::frontend {

/// Python token kinds (CPython's NAME, NUMBER, STRING, OP, NEWLINE, INDENT, DEDENT, ENDMARKER).
enum class PyTok { Name, Number, String, Op, Newline, Indent, Dedent, Eof };

/// One token. `text` is the exact source text (a string keeps its prefix and quotes; an INDENT
/// its whitespace; NEWLINE, DEDENT and ENDMARKER are empty). For strings, `value` holds the
/// decoded contents (escapes applied unless raw; f-strings keep their replacement fields as
/// written). Lines are 1-based; columns are 1-based and count code points, as Python's do.
struct PyToken {
  PyTok kind = PyTok::Eof;
  std::string text;
  std::string value;
  uint32_t line = 1;
  uint32_t col = 1;
};

/// Tokenizes the whole text up front. Line endings may be LF, CRLF or CR; a UTF-8 BOM is
/// skipped. Errors (what Python reports as SyntaxError, IndentationError or TabError) throw
/// DiagnosticError with the position.
std::vector<PyToken> tokenizePython(std::string_view text, const std::string& fileName);

/// CPython's name for a token kind (NAME, OP, ...), for dumps and tests.
const char* pyTokName(PyTok k);

}  // namespace tilevm::frontend

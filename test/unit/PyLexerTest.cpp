// PyLexerTest.cpp - the tokenizer's rules that the standard-library comparison (ctest
// tokenize-stdlib) cannot reach: what Python rejects, and line-ending forms the stdlib lacks.
#include <catch2/catch.hpp>

#include "frontend/PyLexer.h"
#include "frontend/PyParser.h"
#include "ir/Diagnostics.h"

using namespace tilevm;
using frontend::PyTok;

namespace {

// "KIND@line:col" per token, NEWLINE/INDENT/DEDENT included.
std::string kinds(const std::string& src) {
  std::string out;
  for (const auto& t : frontend::tokenizePython(src, "t.py"))
    out += std::string(frontend::pyTokName(t.kind)) + "@" + std::to_string(t.line) + ":" + std::to_string(t.col) + " ";
  return out;
}

Diagnostic errorOf(const std::string& src) {
  try {
    frontend::tokenizePython(src, "t.py");
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
  FAIL("no error for: " << src);
  return {};
}

}  // namespace

TEST_CASE("newlines inside brackets join lines; the logical line ends after the bracket", "[pylexer]") {
  CHECK(kinds("f(a,\n  b)\nx\n") ==
        "NAME@1:1 OP@1:2 NAME@1:3 OP@1:4 NAME@2:3 OP@2:4 NEWLINE@2:5 NAME@3:1 NEWLINE@3:2 ENDMARKER@4:1 ");
}

TEST_CASE("CR, CRLF and LF end lines alike; a BOM is skipped", "[pylexer]") {
  std::string lf = kinds("if x:\n    y\nz\n");
  CHECK(kinds("if x:\r\n    y\r\nz\r\n") == lf);
  CHECK(kinds("if x:\r    y\rz\r") == lf);
  CHECK(kinds("\xEF\xBB\xBFif x:\n    y\nz\n") == lf);
}

TEST_CASE("columns count code points, as Python's do", "[pylexer]") {
  auto toks = frontend::tokenizePython("\xC3\xA9t\xC3\xA9 = 1\n", "t.py");  // "été = 1"
  REQUIRE(toks.size() >= 3);
  CHECK(toks[0].text == "\xC3\xA9t\xC3\xA9");
  CHECK(toks[1].col == 5);
}

TEST_CASE("strings: prefixes, escapes, raw forms, implicit concatenation in the parser", "[pylexer]") {
  auto toks = frontend::tokenizePython("a = b'\\x41' r'\\n' u'\\u00e9' f'{x!r:>{w}}' '''t\nq'''\n", "t.py");
  REQUIRE(toks[2].kind == PyTok::String);
  CHECK(toks[2].value == "A");
  CHECK(toks[3].value == "\\n");
  CHECK(toks[4].value == "\xC3\xA9");
  CHECK(toks[5].text == "f'{x!r:>{w}}'");
  CHECK(toks[6].value == "t\nq");
  // Python 3.12 lets an f-string field reuse the enclosing quote.
  auto nested = frontend::tokenizePython("s = f\"{d[\"k\"]:{w}}\"\n", "t.py");
  CHECK(nested[2].text == "f\"{d[\"k\"]:{w}}\"");
}

TEST_CASE("numbers in every base and form keep their text", "[pylexer]") {
  auto toks = frontend::tokenizePython("x = 0x_1F + 0o17 + 0b1_0 + 1_000.5e-3j + .5 + 1. + 1e5\n", "t.py");
  std::vector<std::string> nums;
  for (const auto& t : toks)
    if (t.kind == PyTok::Number) nums.push_back(t.text);
  CHECK(nums == std::vector<std::string>{"0x_1F", "0o17", "0b1_0", "1_000.5e-3j", ".5", "1.", "1e5"});
}

TEST_CASE("what Python rejects is a located error", "[pylexer]") {
  auto d = errorOf("def f():\n\tif x:\n        y\n");  // tab then 8 spaces: inconsistent
  CHECK(d.message.find("inconsistent use of tabs and spaces") != std::string::npos);
  d = errorOf("if x:\n        a\n    b\n");
  CHECK(d.message == "unindent does not match any outer indentation level");
  CHECK(d.line == 3);
  d = errorOf("x = (1,\n  2\n");
  CHECK(d.message == "'(' was never closed");
  CHECK((d.line == 1 && d.col == 5));
  d = errorOf("x = [1)\n");
  CHECK(d.message == "closing parenthesis ')' does not match opening parenthesis '['");
  d = errorOf("s = 'abc\n");
  CHECK(d.message.find("unterminated string literal") != std::string::npos);
  d = errorOf("s = '''abc\n");
  CHECK(d.message.find("unterminated triple-quoted string literal") != std::string::npos);
  d = errorOf("x = 012\n");
  CHECK(d.message.find("leading zeros") != std::string::npos);
  d = errorOf("x = 1 $ 2\n");
  CHECK(d.message == "invalid character '$'");
  d = errorOf("x = 1 \\ 2\n");
  CHECK(d.message == "unexpected character after line continuation character");
  d = errorOf(std::string("x = 1\0\n", 7));
  CHECK(d.message == "source code cannot contain null bytes");
  d = errorOf("x = '\xFF'\n");
  CHECK(d.message.find("can't decode byte 0xff") != std::string::npos);
  d = errorOf("# -*- coding: no-such-codec -*-\nx = 1\n");
  CHECK(d.message == "unknown encoding: no-such-codec");
}

TEST_CASE("a coding cookie converts the source to UTF-8", "[pylexer]") {
  auto toks = frontend::tokenizePython("# -*- coding: latin-1 -*-\ns = '\xE9'\n", "t.py");
  CHECK(toks[2].value == "\xC3\xA9");
}

TEST_CASE("the module reader keeps its place in any valid file", "[pyparser]") {
  const char* src =
      "import triton\n"
      "import triton.language as tl\n"
      "X = {k: [i for i in range(3) if i] for k in 'ab'}\n"
      "f = lambda a, *b, c=1, **d: (a, *b)\n"
      "class C:\n    def m(self):\n        return [*(1, 2)]\n"
      "@triton.heuristics({'B': lambda args: args['n'] * 2})\n"
      "@triton.jit(do_not_specialize=['n'])\n"
      "def k(x, n):\n    pass\n"
      "def plain(x):\n    pass\n"
      "alias = triton.jit(plain)\n";
  auto m = frontend::parsePython(src, "m.py");
  REQUIRE(m.ok());
  REQUIRE(m->kernels.size() == 2);
  CHECK(m->kernels[0].name == "k");
  CHECK(m->kernels[1].name == "alias");
  CHECK(m->kernels[1].fn->name == "alias");
  CHECK(m->names.at("C")[0].kind == frontend::Binding::K::Other);
}

TEST_CASE("branches of try keep every binding; an undecided if's names are undecided", "[pyparser]") {
  const char* src =
      "try:\n    from a import f\nexcept ImportError:\n    from b import f\n"
      "if V:\n    G = 1\nelse:\n    G = 2\n";
  auto m = frontend::parsePython(src, "m.py");
  REQUIRE(m.ok());
  const auto& f = m->names.at("f");
  REQUIRE(f.size() == 2);
  CHECK(f[0].moduleName == "a");
  CHECK(f[1].moduleName == "b");
  REQUIRE(m->names.at("G").size() == 1);
  CHECK(m->names.at("G")[0].kind == frontend::Binding::K::Undecided);
}

// PyTokDump.cpp - prints tilevm's Python token stream of each file named on the command line,
// for tokenize_diff.py to compare with CPython's `tokenize` module.
//   FILE <path>
//   <KIND> <line> <col, 0-based as tokenize gives it> <token text as hex>
//   ERROR <line> <col> <message>          (instead of tokens, when the file does not tokenize)
#include <fstream>
#include <iostream>
#include <sstream>

#include "frontend/PyLexer.h"
#include "ir/Diagnostics.h"

int main(int argc, char** argv) {
  using namespace tilevm;
  std::ios::sync_with_stdio(false);
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    std::cout << "FILE " << argv[i] << "\n";
    try {
      for (const auto& t : frontend::tokenizePython(ss.str(), argv[i])) {
        static const char* hex = "0123456789abcdef";
        std::string h;
        for (unsigned char c : t.text) {
          h += hex[c >> 4];
          h += hex[c & 15];
        }
        std::cout << frontend::pyTokName(t.kind) << ' ' << t.line << ' ' << t.col - 1 << ' ' << (h.empty() ? "-" : h) << "\n";
      }
    } catch (const DiagnosticError& e) {
      std::cout << "ERROR " << e.diag.line << ' ' << e.diag.col << ' ' << e.diag.message << "\n";
    }
  }
  return 0;
}

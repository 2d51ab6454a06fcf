// PyStmtParser.h - the statements of @triton.jit function bodies, on top of the expression
// parser (PyExprParser.h); PyParser.cpp reads modules and function headers with it. The grammar
// is Python's, restricted to:
//   stmt   := simple (';' simple)* NEWLINE | if | for | while
//   simple := expr | targets '=' ... | target augop expr | target ':' expr ['=' expr]
//           | 'return' [exprs] | 'pass' | 'break' | 'continue' | 'assert' expr [',' expr]
// `global`, `nonlocal`, `del`, `raise` and `import` parse as Unsupported statements, errors only
// where the lowering reaches them (as in Triton); with, try, def, class and the rest are errors.
#pragma once

#include <string>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/PyExprParser.h"

namespace tilevm::frontend::detail {

/// Statements and blocks parsed from the token cursor (errors throw DiagnosticError).
class StmtParser : public ExprParser {
 public:
  using ExprParser::ExprParser;

 protected:
  /// An indented block, or the simple statements after a compound statement's colon.
  std::vector<StmtP> block();

 private:
  void statement(std::vector<StmtP>& out);  // appends one statement (a simple line: several)
  StmtP newStmt(Stmt::K k, const PyToken& at);
  StmtP ifStatement();
  void simpleStatements(std::vector<StmtP>& out);
  StmtP simpleStatement();
  void checkTarget(const Expr& e);
};

}  // namespace tilevm::frontend::detail

// PyStmtParser.cpp - the statements of @triton.jit functions (PyStmtParser.h).
#include "frontend/PyStmtParser.h"

#include <string>

namespace tilevm::frontend::detail {

std::vector<StmtP> StmtParser::block() {
  std::vector<StmtP> body;
  if (peek().kind != PyTok::Newline) {  // one-line body: `if x: y = 1`
    simpleStatements(body);
    return body;
  }
  ++pos_;
  if (peek().kind != PyTok::Indent) fail(peek(), "expected an indented block");
  ++pos_;
  while (peek().kind != PyTok::Dedent && peek().kind != PyTok::Eof) statement(body);
  if (peek().kind == PyTok::Dedent) ++pos_;
  return body;
}

StmtP StmtParser::newStmt(Stmt::K k, const PyToken& at) {
  auto s = std::make_unique<Stmt>();
  s->kind = k;
  s->line = at.line;
  s->col = at.col;
  return s;
}

void StmtParser::statement(std::vector<StmtP>& out) {
  if (++depth_ > detail::kMaxDepth) fail(peek(), "statements nested too deeply");
  const PyToken& t = peek();
  if (isName("if")) {
    out.push_back(ifStatement());
  } else if (isName("for")) {
    PyToken f = next();
    auto s = newStmt(Stmt::K::For, f);
    s->targets.push_back(targetList());
    if (!isName("in")) fail(peek(), "expected 'in', got " + describe(peek()));
    ++pos_;
    s->value = testList();
    expectOp(":");
    s->body = block();
    if (isName("else")) fail(peek(), "for-else is not supported");
    out.push_back(std::move(s));
  } else if (isName("while")) {
    PyToken w = next();
    auto s = newStmt(Stmt::K::While, w);
    s->test = namedTest();
    expectOp(":");
    s->body = block();
    if (isName("else")) fail(peek(), "while-else is not supported");
    out.push_back(std::move(s));
  } else if (t.kind == PyTok::Name && (t.text == "with" || t.text == "try" || t.text == "def" || t.text == "class" ||
                                       t.text == "yield" || t.text == "async" ||
                                       (t.text == "match" && peek(1).kind == PyTok::Name))) {
    fail(t, "'" + t.text + "' is not supported in a @triton.jit function");
  } else if (isOp("@")) {
    fail(t, "decorators are not supported inside a @triton.jit function");
  } else {
    simpleStatements(out);
  }
  --depth_;
}

StmtP StmtParser::ifStatement() {
  PyToken kw = next();  // 'if' or 'elif'
  auto s = newStmt(Stmt::K::If, kw);
  s->test = namedTest();
  expectOp(":");
  s->body = block();
  if (isName("elif")) {
    s->orelse.push_back(ifStatement());
  } else if (isName("else")) {
    ++pos_;
    expectOp(":");
    s->orelse = block();
  }
  return s;
}

void StmtParser::simpleStatements(std::vector<StmtP>& out) {
  do {
    if (peek().kind == PyTok::Newline) break;
    out.push_back(simpleStatement());
  } while (acceptOp(";"));
  expectNewline();
}

StmtP StmtParser::simpleStatement() {
  PyToken t = peek();
  if (isName("pass")) return ++pos_, newStmt(Stmt::K::Pass, t);
  if (isName("break")) return ++pos_, newStmt(Stmt::K::Break, t);
  if (isName("continue")) return ++pos_, newStmt(Stmt::K::Continue, t);
  if (isName("return")) {
    ++pos_;
    auto s = newStmt(Stmt::K::Return, t);
    if (peek().kind != PyTok::Newline && !isOp(";")) s->value = testList();
    return s;
  }
  if (isName("assert")) {
    ++pos_;
    auto s = newStmt(Stmt::K::Assert, t);
    s->test = test();
    if (acceptOp(",")) s->value = test();
    return s;
  }
  if (t.kind == PyTok::Name && t.text == "yield") fail(t, "'yield' is not supported in a @triton.jit function");
  if (t.kind == PyTok::Name && (t.text == "global" || t.text == "nonlocal" || t.text == "del" || t.text == "raise" ||
                                t.text == "import" || t.text == "from")) {
    // An error only where it is reached, as in Triton: `else: raise ValueError(...)` under a
    // constexpr `if` that never takes it is fine. Only the statement's end is needed.
    ++pos_;
    auto s = newStmt(Stmt::K::Unsupported, t);
    s->op = t.text;
    for (int depth = 0; peek().kind != PyTok::Eof && !(depth == 0 && (peek().kind == PyTok::Newline || isOp(";")));) {
      PyToken x = next();
      if (x.kind == PyTok::Op && (x.text == "(" || x.text == "[" || x.text == "{")) ++depth;
      if (x.kind == PyTok::Op && (x.text == ")" || x.text == "]" || x.text == "}")) --depth;
    }
    return s;
  }
  ExprP first = testList();
  static const char* augOps[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>=", "@="};
  for (const char* op : augOps) {
    if (isOp(op)) {
      next();
      auto s = newStmt(Stmt::K::AugAssign, t);
      checkTarget(*first);
      s->targets.push_back(std::move(first));
      s->op = std::string(op).substr(0, std::string(op).size() - 1);
      s->value = testList();
      return s;
    }
  }
  if (isOp(":")) {
    ++pos_;
    auto s = newStmt(Stmt::K::AnnAssign, t);
    checkTarget(*first);
    s->targets.push_back(std::move(first));
    s->annotation = test();
    if (acceptOp("=")) s->value = testList();
    return s;
  }
  if (isOp("=")) {
    auto s = newStmt(Stmt::K::Assign, t);
    std::vector<ExprP> chain;
    chain.push_back(std::move(first));
    while (acceptOp("=")) chain.push_back(testList());
    s->value = std::move(chain.back());
    chain.pop_back();
    for (auto& target : chain) {
      checkTarget(*target);
      s->targets.push_back(std::move(target));
    }
    return s;
  }
  auto s = newStmt(Stmt::K::Expr, t);
  s->value = std::move(first);
  return s;
}

void StmtParser::checkTarget(const Expr& e) {
  switch (e.kind) {
    case Expr::K::Name:
    case Expr::K::Subscript:
    case Expr::K::Attr:
      return;
    case Expr::K::Tuple:
    case Expr::K::List:
      for (const auto& x : e.elts) checkTarget(*x);
      return;
    default:
      throw DiagnosticError(Diagnostic{file_, e.line, e.col, "cannot assign to this expression"});
  }
}

}  // namespace tilevm::frontend::detail

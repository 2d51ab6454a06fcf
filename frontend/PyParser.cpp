// PyParser.cpp - the statement and module parser for kernel files (expressions and the token
// cursor are in PyExprParser.h).
//
// Module level: `import`, `from ... import`, `NAME = expr`, `def` with decorators are read;
// every other statement (classes, host functions, `if __name__ == ...`) is skipped as a token
// block. Inside @triton.jit functions the grammar is Python's, restricted to:
//   stmt   := simple (';' simple)* NEWLINE | if | for | while
//   simple := expr | targets '=' ... | target augop expr | target ':' expr ['=' expr]
//           | 'return' [exprs] | 'pass' | 'break' | 'continue' | 'assert' expr [',' expr]
#include "frontend/PyParser.h"

#include "frontend/PyExprParser.h"

namespace tilevm::frontend {

namespace {

class PyParser : public detail::ExprParser {
 public:
  using ExprParser::ExprParser;

  PyModule run() {
    PyModule m;
    m.fileName = file_;
    while (peek().kind != PyTok::Eof) moduleStatement(m);
    return m;
  }

 private:
  // ---- module level ----------------------------------------------------------------------
  std::string dottedName() {
    std::string s = expectName().text;
    while (acceptOp(".")) s += "." + expectName().text;
    return s;
  }

  void moduleStatement(PyModule& m) {
    const PyToken& t = peek();
    if (t.kind == PyTok::Newline || t.kind == PyTok::Indent || t.kind == PyTok::Dedent) {
      ++pos_;
      return;
    }
    if (isName("import")) {
      ++pos_;
      do {
        std::string path = dottedName();
        if (isName("as")) {
          ++pos_;
          m.imports[expectName().text] = path;
        } else {
          m.imports[path.substr(0, path.find('.'))] = path.substr(0, path.find('.'));
        }
      } while (acceptOp(","));
      expectNewline();
      return;
    }
    if (isName("from")) {
      ++pos_;
      std::string path;
      while (isOp(".")) path += next().text;  // relative imports
      if (!isName("import")) path += dottedName();
      if (!isName("import")) fail(peek(), "expected 'import', got " + describe(peek()));
      ++pos_;
      bool paren = acceptOp("(");
      if (isOp("*")) {
        ++pos_;
      } else {
        do {
          if (paren && isOp(")")) break;
          std::string name = expectName().text;
          std::string alias = name;
          if (isName("as")) {
            ++pos_;
            alias = expectName().text;
          }
          m.imports[alias] = path + "." + name;
        } while (acceptOp(","));
      }
      if (paren) expectOp(")");
      expectNewline();
      return;
    }
    if (isOp("@") || isName("def") || (isName("async") && isName("def", 1))) {
      functionDefinition(m);
      return;
    }
    if (isName("class")) {
      m.otherDefinitions[peek(1).text] = peek().line;
      skipStatement();
      return;
    }
    // NAME = expr  or  NAME: annotation = expr
    if (t.kind == PyTok::Name && (isOp("=", 1) || isOp(":", 1))) {
      PyToken name = next();
      size_t save = pos_;
      try {
        if (acceptOp(":")) expression();
        if (acceptOp("=")) {
          ModuleConstant c;
          c.line = name.line;
          c.col = name.col;
          c.expr = testList();
          if (peek().kind != PyTok::Newline && peek().kind != PyTok::Eof) throw DiagnosticError(Diagnostic{});
          m.constants[name.text] = std::move(c);
        }
        expectNewline();
      } catch (const DiagnosticError&) {
        // Host code beyond the subset: remember the name, reject it only if a kernel uses it.
        pos_ = save;
        m.constants[name.text] = ModuleConstant{nullptr, name.line, name.col};
        skipStatement();
      }
      return;
    }
    skipStatement();
  }

  bool isJitDecorator(const PyModule& m, const Expr& d) {
    const Expr* e = &d;
    if (e->kind == Expr::K::Call) e = e->a.get();
    std::string path;
    if (e->kind == Expr::K::Name) {
      auto it = m.imports.find(e->str);
      path = it == m.imports.end() ? e->str : it->second;
    } else if (e->kind == Expr::K::Attr && e->a->kind == Expr::K::Name) {
      auto it = m.imports.find(e->a->str);
      path = (it == m.imports.end() ? e->a->str : it->second) + "." + e->str;
    }
    return path == "triton.jit" || path == "triton.runtime.jit.jit" || path == "triton.runtime.jit";
  }

  void functionDefinition(PyModule& m) {
    size_t start = pos_;
    std::vector<ExprP> decorators;
    bool parsedDecorators = true;
    try {
      while (acceptOp("@")) {
        decorators.push_back(expression());
        expectNewline();
      }
    } catch (const DiagnosticError&) {
      parsedDecorators = false;
    }
    bool jit = false;
    for (const auto& d : decorators) jit |= isJitDecorator(m, *d);
    if (!parsedDecorators || !jit) {
      pos_ = start;
      while (isOp("@")) skipStatement();
      if (isName("async")) ++pos_;
      if (isName("def")) m.otherDefinitions[peek(1).text] = peek().line;
      skipStatement();
      return;
    }
    if (isName("async")) fail(peek(), "a @triton.jit function cannot be async");
    size_t defPos = pos_;
    PyToken def = next();
    if (def.kind != PyTok::Name || def.text != "def") fail(def, "expected 'def' after decorators, got " + describe(def));
    auto f = std::make_unique<FunctionDef>();
    f->line = def.line;
    f->col = def.col;
    f->name = expectName().text;
    f->decorators = std::move(decorators);
    try {
      expectOp("(");
      while (!isOp(")")) {
        if (isOp("*") || isOp("**") || isOp("/"))
          fail(peek(), "*args, **kwargs and positional-only markers are not supported in @triton.jit functions");
        Param p;
        PyToken n = expectName();
        p.name = n.text;
        p.line = n.line;
        p.col = n.col;
        if (acceptOp(":")) p.annotation = expression();
        if (acceptOp("=")) p.defaultValue = expression();
        f->params.push_back(std::move(p));
        if (!acceptOp(",")) break;
      }
      expectOp(")");
      if (acceptOp("->")) expression();
      expectOp(":");
      f->body = block();
    } catch (const DiagnosticError& e) {
      f->syntaxError = e.diag;
      f->params.clear();
      f->body.clear();
      pos_ = defPos;
      depth_ = 0;
      skipStatement();
    }
    m.jitFunctions[f->name] = std::move(f);
  }

  // ---- statements ------------------------------------------------------------------------
  std::vector<StmtP> block() {
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

  StmtP newStmt(Stmt::K k, const PyToken& at) {
    auto s = std::make_unique<Stmt>();
    s->kind = k;
    s->line = at.line;
    s->col = at.col;
    return s;
  }

  void statement(std::vector<StmtP>& out) {
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
      s->test = test();
      expectOp(":");
      s->body = block();
      if (isName("else")) fail(peek(), "while-else is not supported");
      out.push_back(std::move(s));
    } else if (t.kind == PyTok::Name && (t.text == "with" || t.text == "try" || t.text == "def" || t.text == "class" ||
                                         t.text == "lambda" || t.text == "global" || t.text == "nonlocal" ||
                                         t.text == "del" || t.text == "raise" || t.text == "yield" ||
                                         t.text == "import" || t.text == "from" || t.text == "async" || t.text == "match")) {
      fail(t, "'" + t.text + "' is not supported in a @triton.jit function");
    } else if (isOp("@")) {
      fail(t, "decorators are not supported inside a @triton.jit function");
    } else {
      simpleStatements(out);
    }
    --depth_;
  }

  StmtP ifStatement() {
    PyToken kw = next();  // 'if' or 'elif'
    auto s = newStmt(Stmt::K::If, kw);
    s->test = test();
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

  void simpleStatements(std::vector<StmtP>& out) {
    do {
      if (peek().kind == PyTok::Newline) break;
      out.push_back(simpleStatement());
    } while (acceptOp(";"));
    expectNewline();
  }

  StmtP simpleStatement() {
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
    ExprP first = testList();
    static const char* augOps[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>=", "@="};
    for (const char* op : augOps) {
      if (isOp(op)) {
        PyToken o = next();
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

  void checkTarget(const Expr& e) {
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

};

}  // namespace

Result<PyModule> parsePython(std::string_view text, const std::string& fileName) {
  try {
    return PyParser(tokenizePython(text, fileName), fileName).run();
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
}

}  // namespace tilevm::frontend

// PyParser.cpp - recursive-descent parser for the Python subset of kernels, and the module scan.
//
// Module level: `import`, `from ... import`, `NAME = expr`, `def` with decorators are read;
// every other statement (classes, host functions, `if __name__ == ...`) is skipped as a token
// block. Inside @triton.jit functions the grammar is Python's, restricted to:
//   stmt   := simple (';' simple)* NEWLINE | if | for | while
//   simple := expr | targets '=' ... | target augop expr | target ':' expr ['=' expr]
//           | 'return' [exprs] | 'pass' | 'break' | 'continue' | 'assert' expr [',' expr]
//   expr   := Python expressions without lambda, comprehensions, starred or walrus forms
#include "frontend/PyParser.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "frontend/PyLexer.h"

namespace tilevm::frontend {

namespace {

constexpr int kMaxDepth = 200;

class PyParser {
 public:
  PyParser(std::vector<PyToken> toks, const std::string& file) : t_(std::move(toks)), file_(file) {}

  PyModule run() {
    PyModule m;
    m.fileName = file_;
    while (peek().kind != PyTok::Eof) moduleStatement(m);
    return m;
  }

 private:
  // ---- token helpers -------------------------------------------------------------------
  const PyToken& peek(size_t k = 0) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  PyToken next() { return t_[pos_ < t_.size() - 1 ? pos_++ : pos_]; }
  bool isOp(const char* op, size_t k = 0) const { return peek(k).kind == PyTok::Op && peek(k).text == op; }
  bool isName(const char* n, size_t k = 0) const { return peek(k).kind == PyTok::Name && peek(k).text == n; }
  bool acceptOp(const char* op) {
    if (!isOp(op)) return false;
    ++pos_;
    return true;
  }
  [[noreturn]] void fail(const PyToken& at, const std::string& msg) {
    throw DiagnosticError(Diagnostic{file_, at.line, at.col, msg});
  }
  static std::string describe(const PyToken& t) {
    switch (t.kind) {
      case PyTok::Name: return "'" + t.text + "'";
      case PyTok::Number: return "number " + t.text;
      case PyTok::String: return "a string";
      case PyTok::Op: return "'" + t.text + "'";
      case PyTok::Newline: return "end of line";
      case PyTok::Indent: return "an indent";
      case PyTok::Dedent: return "a dedent";
      case PyTok::Eof: return "end of file";
    }
    return "?";
  }
  PyToken expectOp(const char* op) {
    if (!isOp(op)) fail(peek(), std::string("expected '") + op + "', got " + describe(peek()));
    return next();
  }
  PyToken expectName() {
    if (peek().kind != PyTok::Name) fail(peek(), "expected a name, got " + describe(peek()));
    return next();
  }
  void expectNewline() {
    if (peek().kind == PyTok::Eof) return;
    if (peek().kind != PyTok::Newline) fail(peek(), "expected end of line, got " + describe(peek()));
    ++pos_;
  }

  // Skips one statement without parsing it: its logical line, the indented block that follows,
  // and the clauses (else, elif, except, finally) that continue it.
  void skipStatement() {
    while (peek().kind != PyTok::Newline && peek().kind != PyTok::Eof) ++pos_;
    if (peek().kind == PyTok::Newline) ++pos_;
    if (peek().kind == PyTok::Indent) {
      int depth = 0;
      do {
        PyToken tok = next();
        if (tok.kind == PyTok::Indent) ++depth;
        else if (tok.kind == PyTok::Dedent) --depth;
      } while (depth > 0 && peek().kind != PyTok::Eof);
    }
    if (isName("else") || isName("elif") || isName("except") || isName("finally")) skipStatement();
  }

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
    if (++depth_ > kMaxDepth) fail(peek(), "statements nested too deeply");
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

  // ---- expressions -----------------------------------------------------------------------
  ExprP node(Expr::K k, const PyToken& at) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->line = at.line;
    e->col = at.col;
    return e;
  }

  // Target of `for`: names or tuples of names, without parsing `in` as a comparison.
  ExprP targetList() {
    PyToken at = peek();
    std::vector<ExprP> elts;
    do {
      if (isName("in")) break;
      elts.push_back(orExpr());
    } while (acceptOp(","));
    if (elts.size() == 1) return std::move(elts[0]);
    auto t = node(Expr::K::Tuple, at);
    t->elts = std::move(elts);
    return t;
  }

  // exprs separated by commas: a tuple if there is a comma.
  ExprP testList() {
    PyToken at = peek();
    ExprP first = test();
    if (!isOp(",")) return first;
    auto t = node(Expr::K::Tuple, at);
    t->elts.push_back(std::move(first));
    while (acceptOp(",")) {
      if (endsExpressionList()) break;
      t->elts.push_back(test());
    }
    return t;
  }

  bool endsExpressionList() const {
    const PyToken& t = peek();
    return t.kind == PyTok::Newline || t.kind == PyTok::Eof || isOp(")") || isOp("]") || isOp("}") || isOp("=") ||
           isOp(":") || isOp(";");
  }

  ExprP expression() { return test(); }

  ExprP test() {
    if (++depth_ > kMaxDepth) fail(peek(), "expression nested too deeply");
    if (isName("lambda")) fail(peek(), "lambda is not supported in a @triton.jit function");
    PyToken at = peek();
    ExprP body = orTest();
    if (isName("if")) {
      ++pos_;
      auto e = node(Expr::K::IfExp, at);
      e->b = orTest();
      if (!isName("else")) fail(peek(), "expected 'else' in conditional expression, got " + describe(peek()));
      ++pos_;
      e->c = test();
      e->a = std::move(body);
      --depth_;
      return e;
    }
    --depth_;
    return body;
  }

  ExprP boolChain(const char* word, ExprP (PyParser::*sub)()) {
    PyToken at = peek();
    ExprP first = (this->*sub)();
    if (!isName(word)) return first;
    auto e = node(Expr::K::BoolOp, at);
    e->str = word;
    e->elts.push_back(std::move(first));
    while (isName(word)) {
      ++pos_;
      e->elts.push_back((this->*sub)());
    }
    return e;
  }
  ExprP orTest() { return boolChain("or", &PyParser::andTest); }
  ExprP andTest() { return boolChain("and", &PyParser::notTest); }
  ExprP notTest() {
    if (isName("not")) {
      PyToken at = next();
      auto e = node(Expr::K::Unary, at);
      e->str = "not";
      e->a = notTest();
      return e;
    }
    return comparison();
  }

  ExprP comparison() {
    PyToken at = peek();
    ExprP first = orExpr();
    std::vector<std::string> ops;
    std::vector<ExprP> operands;
    for (;;) {
      std::string op;
      if (isOp("<") || isOp(">") || isOp("==") || isOp(">=") || isOp("<=") || isOp("!=")) op = next().text;
      else if (isName("in")) op = (++pos_, "in");
      else if (isName("not") && isName("in", 1)) op = (pos_ += 2, "not in");
      else if (isName("is")) {
        ++pos_;
        op = "is";
        if (isName("not")) op = (++pos_, "is not");
      } else break;
      ops.push_back(op);
      operands.push_back(orExpr());
    }
    if (ops.empty()) return first;
    auto e = node(Expr::K::Compare, at);
    e->elts.push_back(std::move(first));
    for (auto& o : operands) e->elts.push_back(std::move(o));
    e->ops = std::move(ops);
    return e;
  }

  ExprP binaryLevel(std::initializer_list<const char*> ops, ExprP (PyParser::*sub)()) {
    ExprP left = (this->*sub)();
    for (;;) {
      const char* found = nullptr;
      for (const char* op : ops)
        if (isOp(op)) found = op;
      if (!found) return left;
      PyToken at = next();
      auto e = node(Expr::K::Binary, at);
      e->line = left->line;  // Python's convention: an expression starts at its left operand
      e->col = left->col;
      e->str = found;
      e->a = std::move(left);
      e->b = (this->*sub)();
      left = std::move(e);
    }
  }
  ExprP orExpr() { return binaryLevel({"|"}, &PyParser::xorExpr); }
  ExprP xorExpr() { return binaryLevel({"^"}, &PyParser::andExpr); }
  ExprP andExpr() { return binaryLevel({"&"}, &PyParser::shiftExpr); }
  ExprP shiftExpr() { return binaryLevel({"<<", ">>"}, &PyParser::arith); }
  ExprP arith() { return binaryLevel({"+", "-"}, &PyParser::term); }
  ExprP term() { return binaryLevel({"*", "/", "//", "%", "@"}, &PyParser::factor); }

  ExprP factor() {
    if (isOp("-") || isOp("+") || isOp("~")) {
      if (++depth_ > kMaxDepth) fail(peek(), "expression nested too deeply");
      PyToken at = next();
      auto e = node(Expr::K::Unary, at);
      e->str = at.text;
      e->a = factor();
      --depth_;
      return e;
    }
    return power();
  }

  ExprP power() {
    ExprP base = atomExpr();
    if (isOp("**")) {
      PyToken at = next();
      auto e = node(Expr::K::Binary, at);
      e->str = "**";
      e->a = std::move(base);
      e->b = factor();
      return e;
    }
    return base;
  }

  ExprP atomExpr() {
    ExprP e = atom();
    for (;;) {
      if (isOp("(")) {
        PyToken at = next();
        auto call = node(Expr::K::Call, at);
        call->line = e->line;
        call->col = e->col;
        call->a = std::move(e);
        while (!isOp(")")) {
          if (isOp("*") || isOp("**")) fail(peek(), "*args and **kwargs are not supported in a @triton.jit function");
          if (peek().kind == PyTok::Name && isOp("=", 1)) {
            std::string name = next().text;
            ++pos_;
            call->keywords.push_back(Keyword{name, test()});
          } else {
            if (!call->keywords.empty()) fail(peek(), "positional argument follows keyword argument");
            call->elts.push_back(test());
          }
          if (!acceptOp(",")) break;
        }
        expectOp(")");
        e = std::move(call);
      } else if (isOp("[")) {
        PyToken at = next();
        auto sub = node(Expr::K::Subscript, at);
        sub->line = e->line;  // an expression starts where its base starts
        sub->col = e->col;
        sub->a = std::move(e);
        std::vector<ExprP> idx;
        do {
          if (isOp("]")) break;
          idx.push_back(subscriptItem());
        } while (acceptOp(","));
        expectOp("]");
        if (idx.size() == 1) {
          sub->b = std::move(idx[0]);
        } else {
          auto tup = node(Expr::K::Tuple, at);
          tup->elts = std::move(idx);
          sub->b = std::move(tup);
        }
        e = std::move(sub);
      } else if (isOp(".")) {
        PyToken at = next();
        auto attr = node(Expr::K::Attr, at);
        attr->line = e->line;
        attr->col = e->col;
        attr->str = expectName().text;
        attr->a = std::move(e);
        e = std::move(attr);
      } else {
        return e;
      }
    }
  }

  ExprP subscriptItem() {
    PyToken at = peek();
    ExprP lower;
    if (!isOp(":")) {
      lower = test();
      if (!isOp(":")) return lower;
    }
    auto s = node(Expr::K::Slice, at);
    s->a = std::move(lower);
    expectOp(":");
    if (!isOp(":") && !isOp(",") && !isOp("]")) s->b = test();
    if (acceptOp(":") && !isOp(",") && !isOp("]")) s->c = test();
    return s;
  }

  ExprP atom() {
    PyToken t = next();
    switch (t.kind) {
      case PyTok::Name: {
        if (t.text == "None") return node(Expr::K::None, t);
        if (t.text == "True" || t.text == "False") {
          auto e = node(Expr::K::Bool, t);
          e->ival = t.text == "True";
          return e;
        }
        static const char* keywords[] = {"if", "else", "elif", "for", "while", "in", "not", "and", "or", "is",
                                         "return", "def", "class", "import", "from", "pass", "lambda", "yield"};
        for (const char* k : keywords)
          if (t.text == k) fail(t, "expected an expression, got '" + t.text + "'");
        auto e = node(Expr::K::Name, t);
        e->str = t.text;
        return e;
      }
      case PyTok::Number:
        return number(t);
      case PyTok::String: {
        auto e = node(Expr::K::Str, t);
        e->str = t.text;
        return e;
      }
      case PyTok::Op:
        if (t.text == "(") {
          if (acceptOp(")")) return node(Expr::K::Tuple, t);
          ExprP inner = test();
          if (isName("for")) fail(peek(), "comprehensions are not supported in a @triton.jit function");
          if (acceptOp(")")) return inner;
          auto tup = node(Expr::K::Tuple, t);
          tup->elts.push_back(std::move(inner));
          while (acceptOp(",")) {
            if (isOp(")")) break;
            tup->elts.push_back(test());
          }
          expectOp(")");
          return tup;
        }
        if (t.text == "[") {
          auto list = node(Expr::K::List, t);
          while (!isOp("]")) {
            list->elts.push_back(test());
            if (isName("for")) fail(peek(), "comprehensions are not supported in a @triton.jit function");
            if (!acceptOp(",")) break;
          }
          expectOp("]");
          return list;
        }
        if (t.text == "{") {
          auto dict = node(Expr::K::Dict, t);
          while (!isOp("}")) {
            dict->elts.push_back(test());
            expectOp(":");
            dict->values.push_back(test());
            if (!acceptOp(",")) break;
          }
          expectOp("}");
          return dict;
        }
        if (t.text == "...") return node(Expr::K::Ellipsis, t);
        break;
      case PyTok::Newline:
      case PyTok::Indent:
      case PyTok::Dedent:
      case PyTok::Eof:
        break;
    }
    fail(t, "expected an expression, got " + describe(t));
  }

  ExprP number(const PyToken& t) {
    const std::string& s = t.text;
    if (!s.empty() && (s.back() == 'j' || s.back() == 'J')) fail(t, "complex numbers are not supported");
    bool isFloat = s.find_first_of(".eE") != std::string::npos && !(s.size() > 1 && (s[1] == 'x' || s[1] == 'X'));
    if (isFloat) {
      auto e = node(Expr::K::Float, t);
      e->fval = std::strtod(s.c_str(), nullptr);
      return e;
    }
    auto e = node(Expr::K::Int, t);
    int base = 10;
    size_t skip = 0;
    if (s.size() > 1 && s[0] == '0' && std::isalpha(static_cast<unsigned char>(s[1]))) {
      char b = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
      base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      skip = 2;
    }
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data() + skip, s.data() + s.size(), v, base);
    if (ec != std::errc() || p != s.data() + s.size()) fail(t, "integer literal " + s + " does not fit in 64 bits");
    if (v > uint64_t(INT64_MAX)) {
      e->str = s;  // an unsigned 64-bit literal: kept as text, typed u64 by the lowering
      e->ival = static_cast<int64_t>(v);
    } else {
      e->ival = static_cast<int64_t>(v);
    }
    return e;
  }

  std::vector<PyToken> t_;
  std::string file_;
  size_t pos_ = 0;
  int depth_ = 0;
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

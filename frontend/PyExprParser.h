// PyExprParser.h - the token cursor and Python's whole expression grammar (lambdas,
// comprehensions, starred and keyword unpacking, walrus, await and yield included, so host code
// and decorators parse as Python parses them; the lowering rejects what kernels cannot use).
// PyStmtParser.h builds the statements on top of it, PyParser.cpp the module reader.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/PyLexer.h"
#include "ir/Diagnostics.h"

namespace tilevm::frontend::detail {

inline constexpr int kMaxDepth = 200;
/// The longest chain of binary operators or trailers (`a + b + ...`, `x.y.z...`) read.
inline constexpr int kMaxChain = 1000;

/// Tokens with a cursor, and expressions parsed from them (errors throw DiagnosticError).
class ExprParser {
 public:
  ExprParser(std::vector<PyToken> toks, const std::string& file) : t_(std::move(toks)), file_(file) {}

 protected:
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

  // ---- expressions -----------------------------------------------------------------------
  ExprP node(Expr::K k, const PyToken& at) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->line = at.line;
    e->col = at.col;
    return e;
  }

  // Targets of `for` (and comprehensions): star_targets, without parsing `in` as a comparison.
  ExprP targetList() {
    PyToken at = peek();
    std::vector<ExprP> elts;
    bool comma = false;
    do {
      if (isName("in")) break;
      elts.push_back(starOr(&ExprParser::orExpr));
    } while ((comma = acceptOp(",")));
    if (elts.size() == 1 && !comma) return std::move(elts[0]);
    auto t = node(Expr::K::Tuple, at);
    t->elts = std::move(elts);
    return t;
  }

  // Expressions (or starred ones) separated by commas: a tuple if there is a comma.
  ExprP testList() {
    PyToken at = peek();
    ExprP first = starOr(&ExprParser::namedTest);
    if (!isOp(",")) return first;
    auto t = node(Expr::K::Tuple, at);
    t->elts.push_back(std::move(first));
    while (acceptOp(",")) {
      if (endsExpressionList()) break;
      t->elts.push_back(starOr(&ExprParser::namedTest));
    }
    return t;
  }

  bool endsExpressionList() const {
    const PyToken& t = peek();
    return t.kind == PyTok::Newline || t.kind == PyTok::Eof || isOp(")") || isOp("]") || isOp("}") || isOp("=") ||
           isOp(":") || isOp(";") || (t.kind == PyTok::Op && t.text.size() >= 2 && t.text.back() == '=' &&
                                      t.text != "==" && t.text != "<=" && t.text != ">=" && t.text != "!=");
  }

  ExprP expression() { return test(); }

  // `*x` where a starred expression may stand, else `sub`.
  ExprP starOr(ExprP (ExprParser::*sub)()) {
    if (isOp("*")) {
      PyToken at = next();
      auto e = node(Expr::K::Starred, at);
      e->str = "*";
      e->a = orExpr();
      return e;
    }
    return (this->*sub)();
  }

  // namedexpr_test := NAME ':=' test | test
  ExprP namedTest() {
    if (peek().kind == PyTok::Name && isOp(":=", 1)) {
      PyToken at = peek();
      auto e = node(Expr::K::NamedExpr, at);
      auto target = node(Expr::K::Name, at);
      target->str = next().text;
      ++pos_;
      e->a = std::move(target);
      e->b = test();
      return e;
    }
    return test();
  }

  ExprP test() {
    if (++depth_ > kMaxDepth) fail(peek(), "expression nested too deeply");
    ExprP result;
    if (isName("lambda")) {
      result = lambda(true);
    } else {
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
        result = std::move(e);
      } else {
        result = std::move(body);
      }
    }
    --depth_;
    return result;
  }

  // lambda [params]: body   (`allowCond`: the body may be a conditional expression)
  ExprP lambda(bool allowCond) {
    PyToken at = next();
    auto e = node(Expr::K::Lambda, at);
    while (!isOp(":")) {
      std::string p;
      if (isOp("*") || isOp("**") || isOp("/")) p = next().text;
      if (p != "/" && !(p == "*" && (isOp(",") || isOp(":")))) p += expectName().text;
      if (acceptOp("=")) e->elts.push_back(test());
      e->ops.push_back(p);
      if (!acceptOp(",")) break;
    }
    expectOp(":");
    e->a = allowCond ? test() : orTest();
    return e;
  }

  ExprP boolChain(const char* word, ExprP (ExprParser::*sub)()) {
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
  ExprP orTest() { return boolChain("or", &ExprParser::andTest); }
  ExprP andTest() { return boolChain("and", &ExprParser::notTest); }
  ExprP notTest() {
    if (isName("not")) {
      if (++depth_ > kMaxDepth) fail(peek(), "expression nested too deeply");
      PyToken at = next();
      auto e = node(Expr::K::Unary, at);
      e->str = "not";
      e->a = notTest();
      --depth_;
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

  ExprP binaryLevel(std::initializer_list<const char*> ops, ExprP (ExprParser::*sub)()) {
    ExprP left = (this->*sub)();
    int chain = 0;
    for (;;) {
      const char* found = nullptr;
      for (const char* op : ops)
        if (isOp(op)) found = op;
      if (!found) return left;
      // A left-leaning chain is as deep as it is long: the same limit as for nesting.
      if (++chain > kMaxChain) fail(peek(), "expression too long (more than " + std::to_string(kMaxChain) + " operators in a chain)");
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
  ExprP orExpr() { return binaryLevel({"|"}, &ExprParser::xorExpr); }
  ExprP xorExpr() { return binaryLevel({"^"}, &ExprParser::andExpr); }
  ExprP andExpr() { return binaryLevel({"&"}, &ExprParser::shiftExpr); }
  ExprP shiftExpr() { return binaryLevel({"<<", ">>"}, &ExprParser::arith); }
  ExprP arith() { return binaryLevel({"+", "-"}, &ExprParser::term); }
  ExprP term() { return binaryLevel({"*", "/", "//", "%", "@"}, &ExprParser::factor); }

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
    ExprP base;
    if (isName("await")) {
      PyToken at = next();
      base = node(Expr::K::Await, at);
      base->a = atomExpr();
    } else {
      base = atomExpr();
    }
    if (isOp("**")) {
      if (++depth_ > kMaxDepth) fail(peek(), "expression nested too deeply");
      PyToken at = next();
      auto e = node(Expr::K::Binary, at);
      e->line = base->line;
      e->col = base->col;
      e->str = "**";
      e->a = std::move(base);
      e->b = factor();
      --depth_;
      return e;
    }
    return base;
  }

  // The arguments of a call, after '(' up to and including ')'.
  void callArguments(Expr& call) {
    while (!isOp(")")) {
      if (isOp("*") || isOp("**")) {
        PyToken at = next();
        auto st = node(Expr::K::Starred, at);
        st->str = at.text;
        st->a = test();
        if (at.text == "**") call.keywords.push_back(Keyword{"**", std::move(st)});
        else call.elts.push_back(std::move(st));
      } else if (peek().kind == PyTok::Name && isOp("=", 1)) {
        std::string name = next().text;
        ++pos_;
        call.keywords.push_back(Keyword{name, test()});
      } else {
        if (!call.keywords.empty() && call.keywords.back().name != "**")
          fail(peek(), "positional argument follows keyword argument");
        ExprP arg = namedTest();
        if (isName("for") || (isName("async") && isName("for", 1))) arg = comprehension("gen", std::move(arg), nullptr);
        call.elts.push_back(std::move(arg));
      }
      if (!acceptOp(",")) break;
    }
    expectOp(")");
  }

  ExprP atomExpr() {
    ExprP e = atom();
    int chain = 0;
    for (;;) {
      if (!isOp("(") && !isOp("[") && !isOp(".")) return e;
      if (++chain > kMaxChain) fail(peek(), "expression too long (more than " + std::to_string(kMaxChain) + " trailers in a chain)");
      if (isOp("(")) {
        PyToken at = next();
        auto call = node(Expr::K::Call, at);
        call->line = e->line;
        call->col = e->col;
        call->a = std::move(e);
        callArguments(*call);
        e = std::move(call);
      } else if (isOp("[")) {
        PyToken at = next();
        auto sub = node(Expr::K::Subscript, at);
        sub->line = e->line;  // an expression starts where its base starts
        sub->col = e->col;
        sub->a = std::move(e);
        std::vector<ExprP> idx;
        bool comma = false;
        do {
          if (isOp("]")) break;
          idx.push_back(isOp("*") ? starOr(&ExprParser::namedTest) : subscriptItem());
        } while ((comma = acceptOp(",")));
        expectOp("]");
        if (idx.size() == 1 && !comma) {
          sub->b = std::move(idx[0]);
        } else {
          auto tup = node(Expr::K::Tuple, at);
          tup->elts = std::move(idx);
          sub->b = std::move(tup);
        }
        e = std::move(sub);
      } else {
        PyToken at = next();
        auto attr = node(Expr::K::Attr, at);
        attr->line = e->line;
        attr->col = e->col;
        attr->str = expectName().text;
        attr->a = std::move(e);
        e = std::move(attr);
      }
    }
  }

  ExprP subscriptItem() {
    PyToken at = peek();
    ExprP lower;
    if (!isOp(":")) {
      lower = namedTest();
      if (!isOp(":")) return lower;
    }
    auto s = node(Expr::K::Slice, at);
    s->a = std::move(lower);
    expectOp(":");
    if (!isOp(":") && !isOp(",") && !isOp("]")) s->b = test();
    if (acceptOp(":") && !isOp(",") && !isOp("]")) s->c = test();
    return s;
  }

  // `element for target in iter [if cond]... [for ...]` after its element (and dict value).
  ExprP comprehension(const char* kind, ExprP element, ExprP value) {
    auto c = node(Expr::K::Comp, peek());
    c->line = element->line;
    c->col = element->col;
    c->str = kind;
    c->a = std::move(element);
    c->b = std::move(value);
    while (isName("for") || (isName("async") && isName("for", 1))) {
      if (isName("async")) ++pos_;
      PyToken at = next();
      auto clause = node(Expr::K::CompFor, at);
      clause->a = targetList();
      if (!isName("in")) fail(peek(), "expected 'in', got " + describe(peek()));
      ++pos_;
      clause->b = orTest();
      while (isName("if")) {
        ++pos_;
        clause->elts.push_back(isName("lambda") ? lambda(false) : orTest());
      }
      c->elts.push_back(std::move(clause));
    }
    return c;
  }

  // ( ... ): a parenthesized expression, a tuple, a generator or a yield.
  ExprP parenthesized(const PyToken& open) {
    if (acceptOp(")")) return node(Expr::K::Tuple, open);
    if (isName("yield")) {
      ExprP y = yieldExpr();
      expectOp(")");
      return y;
    }
    ExprP inner = starOr(&ExprParser::namedTest);
    if (isName("for") || (isName("async") && isName("for", 1))) {
      ExprP g = comprehension("gen", std::move(inner), nullptr);
      expectOp(")");
      return g;
    }
    if (acceptOp(")")) return inner;
    auto tup = node(Expr::K::Tuple, open);
    tup->elts.push_back(std::move(inner));
    while (acceptOp(",")) {
      if (isOp(")")) break;
      tup->elts.push_back(starOr(&ExprParser::namedTest));
    }
    expectOp(")");
    return tup;
  }

  ExprP yieldExpr() {
    PyToken at = next();
    auto y = node(Expr::K::Yield, at);
    if (isName("from")) {
      ++pos_;
      y->str = "from";
      y->a = test();
    } else if (!endsExpressionList()) {
      y->a = testList();
    }
    return y;
  }

  // { ... }: a dict, a set or one of their comprehensions.
  ExprP braces(const PyToken& open) {
    if (acceptOp("}")) return node(Expr::K::Dict, open);
    auto item = [&](bool& isDict) -> std::pair<ExprP, ExprP> {
      if (isOp("**")) {
        PyToken at = next();
        auto st = node(Expr::K::Starred, at);
        st->str = "**";
        st->a = orExpr();
        isDict = true;
        return {std::move(st), nullptr};
      }
      ExprP k = starOr(&ExprParser::namedTest);
      if (acceptOp(":")) {
        isDict = true;
        return {std::move(k), test()};
      }
      return {std::move(k), nullptr};
    };
    bool isDict = false;
    auto [k0, v0] = item(isDict);
    if (isName("for") || (isName("async") && isName("for", 1))) {
      ExprP c = comprehension(isDict ? "dict" : "set", std::move(k0), std::move(v0));
      expectOp("}");
      return c;
    }
    auto e = node(isDict ? Expr::K::Dict : Expr::K::Set, open);
    e->elts.push_back(std::move(k0));
    if (isDict) e->values.push_back(std::move(v0));
    while (acceptOp(",")) {
      if (isOp("}")) break;
      bool d = false;
      auto [k, v] = item(d);
      e->elts.push_back(std::move(k));
      if (isDict) e->values.push_back(std::move(v));
    }
    expectOp("}");
    return e;
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
                                         "return", "def", "class", "import", "from", "pass", "lambda", "yield",
                                         "try", "except", "finally", "with", "as", "del", "global", "nonlocal",
                                         "assert", "break", "continue", "raise", "await", "async"};
        for (const char* k : keywords)
          if (t.text == k) fail(t, "expected an expression, got '" + t.text + "'");
        auto e = node(Expr::K::Name, t);
        e->str = t.text;
        return e;
      }
      case PyTok::Number:
        return number(t);
      case PyTok::String: {
        // Adjacent literals concatenate (Python does this in the parser, not the tokenizer).
        auto e = node(Expr::K::Str, t);
        e->str = t.value;
        auto isBytes = [](const PyToken& s) {
          size_t q = s.text.find_first_of("'\"");
          return s.text.substr(0, q).find_first_of("bB") != std::string::npos;
        };
        bool bytes = isBytes(t);
        while (peek().kind == PyTok::String) {
          if (isBytes(peek()) != bytes) fail(peek(), "cannot mix bytes and nonbytes literals");
          e->str += next().value;
        }
        return e;
      }
      case PyTok::Op:
        if (t.text == "(") return parenthesized(t);
        if (t.text == "[") {
          auto list = node(Expr::K::List, t);
          if (acceptOp("]")) return list;
          ExprP first = starOr(&ExprParser::namedTest);
          if (isName("for") || (isName("async") && isName("for", 1))) {
            ExprP c = comprehension("list", std::move(first), nullptr);
            expectOp("]");
            return c;
          }
          list->elts.push_back(std::move(first));
          while (acceptOp(",")) {
            if (isOp("]")) break;
            list->elts.push_back(starOr(&ExprParser::namedTest));
          }
          expectOp("]");
          return list;
        }
        if (t.text == "{") return braces(t);
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
    std::string s;
    for (char ch : t.text)
      if (ch != '_') s += ch;
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

}  // namespace tilevm::frontend::detail

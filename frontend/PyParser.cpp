// PyParser.cpp - the module reader and the statement parser of @triton.jit functions
// (expressions and the token cursor are in PyExprParser.h).
//
// Module level, every statement is understood or skipped whole: imports, assignments and
// definitions bind names; `if` takes the branch Python takes when its condition is decided
// (ModuleConditions.h), `try` branches become alternatives, `with` bodies run once, and names
// bound under an undecided `if` or a `for`/`while` are Undecided (see PyModule); `class`,
// `match`, plain defs and `if __name__ == "__main__":` are skipped. Inside @triton.jit functions the grammar is Python's,
// restricted to:
//   stmt   := simple (';' simple)* NEWLINE | if | for | while
//   simple := expr | targets '=' ... | target augop expr | target ':' expr ['=' expr]
//           | 'return' [exprs] | 'pass' | 'break' | 'continue' | 'assert' expr [',' expr]
#include "frontend/PyParser.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>

#include "frontend/ModuleConditions.h"
#include "frontend/PyExprParser.h"

namespace tilevm::frontend {

namespace {

/// Names bound so far, each with its alternatives (see PyModule::names).
using Scope = std::map<std::string, std::vector<Binding>>;

bool isJitPath(const std::string& p) {
  return p == "triton.jit" || p == "triton.runtime.jit" || p == "triton.runtime.jit.jit" || p == "triton.runtime.jit.JITFunction";
}

class PyParser : public detail::ExprParser {
 public:
  using ExprParser::ExprParser;

  PyModule run() {
    m_.fileName = file_;
    Scope scope;
    while (peek().kind != PyTok::Eof) moduleStatement(scope);
    m_.names = std::move(scope);
    return std::move(m_);
  }

  /// One function's source: optional decorators, then `def`, then nothing else.
  PyModule runFunction() {
    m_.fileName = file_;
    while (peek().kind == PyTok::Newline) ++pos_;
    while (isOp("@")) skipStatement();
    if (isName("async")) fail(peek(), "a @triton.jit function cannot be async");
    if (!isName("def")) fail(peek(), "expected the source of a function ('def ...'), got " + describe(peek()));
    FunctionDef* f = parseFunction({}, "");
    m_.kernels.push_back(KernelEntry{f->name, f});
    while (peek().kind == PyTok::Newline || peek().kind == PyTok::Dedent) ++pos_;
    if (peek().kind != PyTok::Eof) fail(peek(), "expected the end of the function's source, got " + describe(peek()));
    return std::move(m_);
  }

 private:
  PyModule m_;
  unsigned nextId_ = 1;

  // ---- bindings ----------------------------------------------------------------------------
  void bind(Scope& s, const std::string& name, Binding b) {
    b.id = nextId_++;
    s[name] = {std::move(b)};
  }

  Binding binding(Binding::K k, const PyToken& at) {
    Binding b;
    b.kind = k;
    b.line = at.line;
    b.col = at.col;
    return b;
  }

  // The dotted path a decorator or callee names, following the scope's imports
  // (`jit` imported from triton -> "triton.jit").
  std::string dottedPath(const Expr& e, const Scope& s) {
    if (e.kind == Expr::K::Name) {
      auto it = s.find(e.str);
      if (it != s.end() && !it->second.empty() && it->second[0].kind == Binding::K::Import && it->second[0].level == 0) {
        const Binding& b = it->second[0];
        return b.attr.empty() ? b.moduleName : b.moduleName + "." + b.attr;
      }
      return e.str;
    }
    if (e.kind == Expr::K::Attr && e.a) {
      std::string base = dottedPath(*e.a, s);
      return base.empty() ? "" : base + "." + e.str;
    }
    return "";
  }

  bool isJitDecorator(const Expr& d, const Scope& s) {
    const Expr* e = &d;
    if (e->kind == Expr::K::Call) e = e->a.get();
    return isJitPath(dottedPath(*e, s));
  }

  // ---- module level ------------------------------------------------------------------------
  std::string dottedName() {
    std::string s = expectName().text;
    while (acceptOp(".")) s += "." + expectName().text;
    return s;
  }

  // Skips to the end of the current simple statement (a ';' or the end of the logical line).
  void skipSimple() {
    int depth = 0;
    while (peek().kind != PyTok::Newline && peek().kind != PyTok::Eof) {
      if (peek().kind == PyTok::Op) {
        const std::string& t = peek().text;
        if (t == "(" || t == "[" || t == "{") ++depth;
        else if (t == ")" || t == "]" || t == "}") --depth;
        else if (t == ";" && depth == 0) return;
      }
      ++pos_;
    }
  }

  // The token after the ':' that ends a compound statement's header (outside brackets).
  size_t headerEnd() {
    int depth = 0;
    for (size_t p = pos_; p < t_.size() && t_[p].kind != PyTok::Newline && t_[p].kind != PyTok::Eof; ++p) {
      if (t_[p].kind != PyTok::Op) continue;
      const std::string& t = t_[p].text;
      if (t == "(" || t == "[" || t == "{") ++depth;
      else if (t == ")" || t == "]" || t == "}") --depth;
      else if (t == ":" && depth == 0) return p + 1;
    }
    return std::string::npos;
  }

  // The body of a compound statement read as module code: an indented block, or the simple
  // statements after the colon.
  void moduleSuite(Scope& s) {
    size_t end = headerEnd();
    if (end == std::string::npos) return skipStatement();
    pos_ = end;
    if (peek().kind != PyTok::Newline) return moduleSimpleLine(s);
    ++pos_;
    if (peek().kind != PyTok::Indent) return;
    ++pos_;
    while (peek().kind != PyTok::Dedent && peek().kind != PyTok::Eof) moduleStatement(s);
    if (peek().kind == PyTok::Dedent) ++pos_;
  }

  // Branches that may each run: every name a branch binds keeps each branch's binding, first
  // branch first (a branch that leaves a name alone contributes the earlier binding).
  static void mergeBranches(Scope& s, const std::vector<Scope>& branches) {
    std::set<std::string> names;
    for (const auto& b : branches)
      for (const auto& [n, alts] : b) names.insert(n);
    for (const auto& n : names) {
      std::vector<Binding> alts;
      std::set<unsigned> seen;
      for (const auto& b : branches) {
        auto it = b.find(n);
        if (it == b.end()) continue;
        for (const auto& a : it->second)
          if (seen.insert(a.id).second) alts.push_back(a);
      }
      s[n] = std::move(alts);
    }
  }

  // What a condition may read of the scope: a name's one unconditional constant or module.
  ConditionName conditionName(const Scope& s, const std::string& name) const {
    ConditionName out;
    auto it = s.find(name);
    if (it == s.end() || it->second.size() != 1) return out;
    const Binding& b = it->second[0];
    if (b.kind == Binding::K::Constant) out.constant = b.expr;
    if (b.kind == Binding::K::Import && b.level == 0 && b.attr.empty()) out.module = b.moduleName;
    return out;
  }

  // The condition of the `if`/`elif` at the cursor, decided in scope `s` (the cursor stays).
  ConditionDecision condition(const Scope& s) {
    size_t save = pos_;
    ++pos_;
    ConditionDecision d;
    try {
      ExprP test = namedTest();
      d = decideCondition(*test, [&](const std::string& n) { return conditionName(s, n); });
      m_.exprs.push_back(std::move(test));
    } catch (const DiagnosticError&) {
      d.reason = "the reader cannot parse its condition";
    }
    pos_ = save;
    return d;
  }

  // Names the branches bind differently from `s` become Undecided, with `message` located at
  // `at`; kernels defined in them (listed from `firstKernel` on) are listed as not compilable.
  void undecided(Scope& s, const std::vector<Scope>& branches, size_t firstKernel, const PyToken& at,
                 const std::string& message) {
    std::set<std::string> names;
    for (const auto& b : branches)
      for (const auto& [n, alts] : b) {
        auto it = s.find(n);
        bool same = it != s.end() && it->second.size() == alts.size() &&
                    std::equal(alts.begin(), alts.end(), it->second.begin(), [](const Binding& x, const Binding& y) { return x.id == y.id; });
        if (!same) names.insert(n);
      }
    for (const auto& n : names) {
      Binding b = binding(Binding::K::Undecided, at);
      b.what = message;
      bind(s, n, b);
    }
    std::set<std::string> kernels;
    for (size_t k = firstKernel; k < m_.kernels.size(); ++k) kernels.insert(m_.kernels[k].name);
    m_.kernels.resize(firstKernel);
    for (const auto& n : kernels) {
      FunctionDef* f = newFunction(n, at);
      f->syntaxError = Diagnostic{file_, at.line, at.col, message + "; kernel '" + n + "' is defined in it"};
      m_.kernels.push_back(KernelEntry{n, f});
      m_.warnings.push_back(*f->syntaxError);
    }
  }

  // if/elif/else: the branch Python takes when every condition up to it is decided; otherwise
  // every name the chain binds is undecided.
  void ifChain(Scope& s) {
    std::vector<Scope> branches;
    std::vector<size_t> kernelStart;
    int taken = -1;
    std::optional<PyToken> undecidedAt;
    std::string reason;
    do {
      bool isElse = isName("else");
      PyToken kw = peek();
      if (taken < 0 && !undecidedAt) {
        if (isElse) {
          taken = int(branches.size());
        } else {
          ConditionDecision d = condition(s);
          if (!d.value) undecidedAt = kw, reason = d.reason;
          else if (*d.value) taken = int(branches.size());
        }
      }
      kernelStart.push_back(m_.kernels.size());
      branches.push_back(s);
      moduleSuite(branches.back());
    } while (isName("elif") || isName("else"));
    kernelStart.push_back(m_.kernels.size());
    if (undecidedAt) {
      std::string kw = undecidedAt->text;
      return undecided(s, branches, kernelStart[0], *undecidedAt,
                       "cannot decide this module-level '" + kw + "' without running Python (" + reason +
                           "); run the script under python3 -m tilevm, or make the condition a constant");
    }
    // Only the taken branch's kernels are the file's.
    std::vector<KernelEntry> kept(m_.kernels.begin(), m_.kernels.begin() + long(kernelStart[0]));
    if (taken >= 0)
      kept.insert(kept.end(), m_.kernels.begin() + long(kernelStart[size_t(taken)]), m_.kernels.begin() + long(kernelStart[size_t(taken) + 1]));
    m_.kernels = std::move(kept);
    if (taken >= 0) s = branches[size_t(taken)];
  }

  // A module-level `for`/`while` (with its `else`): how often its body runs is not decided, so
  // every name it binds (loop targets included) is undecided.
  void loopStatement(Scope& s) {
    PyToken kw = peek();
    size_t firstKernel = m_.kernels.size();
    std::vector<Scope> branches{s};
    if (kw.text == "for") {
      for (size_t p = pos_ + 1; p < t_.size() && !(t_[p].kind == PyTok::Name && t_[p].text == "in") && t_[p].kind != PyTok::Newline; ++p)
        if (t_[p].kind == PyTok::Name) bind(branches[0], t_[p].text, binding(Binding::K::Other, t_[p]));
    }
    moduleSuite(branches[0]);
    if (isName("else")) moduleSuite(branches[0]);
    undecided(s, branches, firstKernel, kw,
              "cannot decide what this module-level '" + kw.text + "' loop binds without running Python; run the script under python3 -m tilevm, or bind the name outside the loop");
  }

  void tryChain(Scope& s) {
    std::vector<Scope> branches{s};
    moduleSuite(branches[0]);
    while (isName("except")) {
      branches.push_back(s);
      moduleSuite(branches.back());
    }
    if (isName("else")) moduleSuite(branches[0]);  // runs after the try body
    mergeBranches(s, branches);
    if (isName("finally")) moduleSuite(s);
  }

  bool isMainGuard() {
    return isName("if") && isName("__name__", 1) && isOp("==", 2) && peek(3).kind == PyTok::String;
  }

  void moduleStatement(Scope& s) {
    const PyToken& t = peek();
    if (t.kind == PyTok::Newline || t.kind == PyTok::Indent || t.kind == PyTok::Dedent) {
      ++pos_;
      return;
    }
    if (isOp("@") || isName("def") || (isName("async") && isName("def", 1))) return functionDefinition(s);
    if (isName("class")) {
      Binding b = binding(Binding::K::Other, peek(1));
      b.what = "class";
      bind(s, peek(1).text, b);
      return skipStatement();
    }
    if (isMainGuard()) return skipStatement();
    if (isName("if")) return ifChain(s);
    if (isName("try")) return tryChain(s);
    if (isName("with") || (isName("async") && isName("with", 1))) return moduleSuite(s);
    if (isName("for") || isName("while")) return loopStatement(s);
    if (t.kind == PyTok::Name && (t.text == "match" || t.text == "async")) return skipStatement();
    moduleSimpleLine(s);
  }

  void moduleSimpleLine(Scope& s) {
    for (;;) {
      moduleSimple(s);
      if (!acceptOp(";")) break;
      if (peek().kind == PyTok::Newline || peek().kind == PyTok::Eof) break;
    }
    while (peek().kind != PyTok::Newline && peek().kind != PyTok::Eof) ++pos_;
    if (peek().kind == PyTok::Newline) ++pos_;
  }

  void moduleSimple(Scope& s) {
    size_t start = pos_;
    try {
      if (isName("import")) return importStatement(s);
      if (isName("from")) return fromImport(s);
      if (peek().kind == PyTok::Name || isOp("(") || isOp("[") || isOp("*")) return assignment(s);
    } catch (const DiagnosticError&) {
      // Python beyond what tilevm reads at module level: the names it binds are unknown.
      pos_ = start;
      if (peek().kind == PyTok::Name && (isOp("=", 1) || isOp(":", 1))) {
        Binding b = binding(Binding::K::Constant, peek());
        bind(s, peek().text, b);
      }
    }
    skipSimple();
  }

  void importStatement(Scope& s) {
    ++pos_;
    do {
      PyToken at = peek();
      std::string path = dottedName();
      Binding b = binding(Binding::K::Import, at);
      if (isName("as")) {
        ++pos_;
        b.moduleName = path;
        bind(s, expectName().text, b);
      } else {
        b.moduleName = path.substr(0, path.find('.'));  // `import a.b` binds a
        bind(s, b.moduleName, b);
      }
    } while (acceptOp(","));
  }

  void fromImport(Scope& s) {
    ++pos_;
    int level = 0;
    while (isOp(".") || isOp("...")) level += int(next().text.size());
    std::string path;
    if (!isName("import")) path = dottedName();
    if (!isName("import")) fail(peek(), "expected 'import', got " + describe(peek()));
    ++pos_;
    bool paren = acceptOp("(");
    if (isOp("*")) {
      ++pos_;  // star imports bind names tilevm does not track
      return;
    }
    do {
      if (paren && isOp(")")) break;
      PyToken at = peek();
      std::string name = expectName().text;
      std::string alias = name;
      if (isName("as")) {
        ++pos_;
        alias = expectName().text;
      }
      Binding b = binding(Binding::K::Import, at);
      b.level = level;
      b.moduleName = path;
      b.attr = name;
      bind(s, alias, b);
    } while (acceptOp(","));
    if (paren) expectOp(")");
  }

  // `a = b = expr`, `x: T = expr`, `A, B = 1, 2`, `kernel = triton.jit(fn)`.
  void assignment(Scope& s) {
    PyToken at = peek();
    ExprP first = testList();
    if (isOp(":")) {  // annotated: target ':' annotation ['=' value]
      ++pos_;
      test();
      if (!acceptOp("=")) return;
      ExprP value = testList();
      if (first->kind == Expr::K::Name) bindValue(s, *first, std::move(value));
      return;
    }
    if (!isOp("=")) {
      if (peek().kind == PyTok::Op && peek().text.size() >= 2 && peek().text.back() == '=' && first->kind == Expr::K::Name) {
        Binding b = binding(Binding::K::Other, at);  // augmented: a value tilevm does not follow
        b.what = "value changed by '" + peek().text + "'";
        bind(s, first->str, b);
      }
      return;
    }
    std::vector<ExprP> targets;
    targets.push_back(std::move(first));
    ExprP value;
    while (acceptOp("=")) {
      value = isName("yield") ? yieldExpr() : testList();
      if (isOp("=")) targets.push_back(std::move(value));
    }
    const Expr* v = value.get();
    m_.exprs.push_back(std::move(value));
    for (auto& target : targets) bindTarget(s, *target, v, at);
  }

  void bindTarget(Scope& s, const Expr& target, const Expr* value, const PyToken& at) {
    if (target.kind == Expr::K::Name) {
      if (const FunctionDef* fn = jitAlias(s, *value, target.str)) {
        Binding b = binding(Binding::K::Function, at);
        b.fn = fn;
        bind(s, target.str, b);
        m_.kernels.push_back(KernelEntry{target.str, fn});
        return;
      }
      Binding b = binding(Binding::K::Constant, at);
      b.expr = value;
      bind(s, target.str, b);
    } else if (target.kind == Expr::K::Tuple || target.kind == Expr::K::List) {
      bool pairwise = (value->kind == Expr::K::Tuple || value->kind == Expr::K::List) && value->elts.size() == target.elts.size();
      for (size_t i = 0; i < target.elts.size(); ++i) {
        if (pairwise) {
          bindTarget(s, *target.elts[i], value->elts[i].get(), at);
        } else if (target.elts[i]->kind == Expr::K::Name) {
          Binding b = binding(Binding::K::Other, at);
          b.what = "value unpacked from an expression";
          bind(s, target.elts[i]->str, b);
        }
      }
    }
  }

  void bindValue(Scope& s, const Expr& target, ExprP value) {
    const Expr* v = value.get();
    m_.exprs.push_back(std::move(value));
    PyToken at;
    at.line = target.line;
    at.col = target.col;
    bindTarget(s, target, v, at);
  }

  // `triton.jit(f)` (possibly wrapped: `triton.autotune(...)(triton.jit(f))`): f's definition
  // parsed as a @triton.jit function named `alias`.
  const FunctionDef* jitAlias(const Scope& s, const Expr& value, const std::string& alias) {
    if (value.kind != Expr::K::Call) return nullptr;
    if (isJitDecorator(*value.a, s) && !value.elts.empty() && value.elts[0]->kind == Expr::K::Name) {
      auto it = s.find(value.elts[0]->str);
      if (it == s.end() || it->second.empty()) return nullptr;
      const Binding& b = it->second[0];
      if (b.kind == Binding::K::Function) return b.fn;
      if (b.kind != Binding::K::Other || b.what != "function") return nullptr;
      size_t save = pos_;
      pos_ = defTokens_.at(b.id);
      FunctionDef* fn = parseFunction({}, alias);
      pos_ = save;
      return fn;
    }
    for (const auto& arg : value.elts)
      if (const FunctionDef* fn = jitAlias(s, *arg, alias)) return fn;
    return jitAlias(s, *value.a, alias);
  }

  std::map<unsigned, size_t> defTokens_;  ///< plain defs' bindings -> their 'def' token

  void functionDefinition(Scope& s) {
    size_t start = pos_;
    std::vector<ExprP> decorators;
    bool parsedDecorators = true;
    try {
      while (acceptOp("@")) {
        decorators.push_back(namedTest());
        expectNewline();
      }
    } catch (const DiagnosticError&) {
      parsedDecorators = false;
    }
    bool jit = false;
    for (const auto& d : decorators) jit |= isJitDecorator(*d, s);
    if (!parsedDecorators || !jit) {
      pos_ = start;
      while (isOp("@")) skipStatement();
      bool async = isName("async");
      if (async) ++pos_;
      if (isName("def")) {
        Binding b = binding(Binding::K::Other, peek(1));
        b.what = async ? "async function" : "function";
        bind(s, peek(1).text, b);
        defTokens_[s[peek(1).text][0].id] = pos_;
      }
      if (isName("class")) {
        Binding b = binding(Binding::K::Other, peek(1));
        b.what = "class";
        bind(s, peek(1).text, b);
      }
      skipStatement();
      return;
    }
    if (isName("async")) {
      FunctionDef* f = newFunction(peek(1).text, peek());
      f->syntaxError = Diagnostic{file_, peek().line, peek().col, "a @triton.jit function cannot be async"};
      registerKernel(s, f);
      skipStatement();
      return;
    }
    if (!isName("def")) {
      FunctionDef* f = newFunction("?", peek());
      f->syntaxError = Diagnostic{file_, peek().line, peek().col, "expected 'def' after @triton.jit, got " + describe(peek())};
      skipStatement();
      return;
    }
    FunctionDef* f = parseFunction(std::move(decorators), "");
    registerKernel(s, f);
  }

  FunctionDef* newFunction(const std::string& name, const PyToken& at) {
    auto f = std::make_unique<FunctionDef>();
    f->line = at.line;
    f->col = at.col;
    f->name = name;
    m_.functions.push_back(std::move(f));
    return m_.functions.back().get();
  }

  void registerKernel(Scope& s, FunctionDef* f) {
    Binding b = binding(Binding::K::Function, PyToken{PyTok::Name, f->name, "", f->line, f->col});
    b.fn = f;
    bind(s, f->name, b);
    m_.kernels.push_back(KernelEntry{f->name, f});
    if (f->syntaxError) m_.warnings.push_back(*f->syntaxError);
  }

  // Parses `def name(params) [-> T]: body` at the cursor as a @triton.jit function; syntax
  // outside the subset is kept as the function's error (reported when it is used or listed).
  FunctionDef* parseFunction(std::vector<ExprP> decorators, const std::string& alias) {
    size_t defPos = pos_;
    PyToken def = next();
    FunctionDef* f = newFunction(peek().kind == PyTok::Name ? peek().text : "?", def);
    f->decorators = std::move(decorators);
    try {
      f->name = expectName().text;
      if (!alias.empty()) f->name = alias;
      expectOp("(");
      while (!isOp(")")) {
        if (isOp("*") || isOp("**") || isOp("/"))
          fail(peek(), "*args, **kwargs and positional-only markers are not supported in @triton.jit functions");
        Param p;
        PyToken n = expectName();
        for (const Param& earlier : f->params)  // Python's own SyntaxError
          if (earlier.name == n.text) fail(n, "duplicate argument '" + n.text + "' in function definition");
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
      depth_ = 0;
      f->body = block();
    } catch (const DiagnosticError& e) {
      f->syntaxError = e.diag;
      f->params.clear();
      f->body.clear();
      pos_ = defPos;
      depth_ = 0;
      skipStatement();
    }
    return f;
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

  StmtP ifStatement() {
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

namespace {
std::atomic<uint64_t> parses{0};
}  // namespace

uint64_t pythonFilesParsed() { return parses.load(std::memory_order_relaxed); }

Result<PyModule> parsePython(std::string_view text, const std::string& fileName) {
  parses.fetch_add(1, std::memory_order_relaxed);
  try {
    PyModule m = PyParser(tokenizePython(text, fileName), fileName).run();
    for (auto& f : m.functions) f->module = nullptr;  // set by the caller once the module has its home
    return m;
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
}

Result<PyModule> parseFunctionSource(std::string_view text, const std::string& fileName, uint32_t firstLine, uint32_t indent) {
  parses.fetch_add(1, std::memory_order_relaxed);
  std::vector<PyToken> toks;
  try {
    toks = tokenizePython(text, fileName);
  } catch (const DiagnosticError& e) {  // the tokenizer's positions are the text's
    Diagnostic d = e.diag;
    if (d.line > 0) d.line += firstLine - 1, d.col += indent;
    return d;
  }
  for (PyToken& t : toks) {  // back to the file's positions
    t.line += firstLine - 1;
    t.col += indent;
  }
  try {
    PyModule m = PyParser(std::move(toks), fileName).runFunction();
    for (auto& f : m.functions) f->module = nullptr;
    return m;
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
}

}  // namespace tilevm::frontend

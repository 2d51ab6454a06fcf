// Parser.cpp - reads the `.tile` text form into a Module (recursive descent).
//
//   module   := kernel*
//   kernel   := 'kernel' '@'NAME '(' [param (',' param)*] ')' [loc] '{' op* '}'
//   param    := '%'NAME ':' type
//   op       := [value (',' value)* '='] MNEMONIC [value (',' value)*] [attrs]
//               [':' type (',' type)*] region* [loc]           -- one line, except regions
//   attrs    := '{' NAME '=' attr (',' NAME '=' attr)* '}'
//   attr     := INT | FLOAT | inf | -inf | nan | WORD | STRING | '[' [INT (',' INT)*] ']'
//   region   := '(' [value ':' type (',' ...)*] ')' '{' op* '}'
//   type     := i1|i8|i16|i32|i64|f16|bf16|f32|f64 | 'ptr' '<' scalar '>' | 'tile' '<' (INT 'x')+ elem '>'
//   loc      := 'loc' '(' (STRING ':' INT ':' INT | 'unknown') ')'
// An op's operands must start on its mnemonic's line: a new line begins the next op.
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "ir/text/Lexer.h"
#include "ir/text/Text.h"

namespace tilevm::ir {

namespace {

constexpr int kMaxNesting = 64;

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : lex_(text, file) {}

  std::unique_ptr<Module> run() {
    module_ = std::make_unique<Module>();
    fileIdx_ = module_->fileIndex(lex_.fileName());
    while (lex_.peek().kind != Tok::Eof) parseKernel();
    return std::move(module_);
  }

 private:
  [[noreturn]] void failAt(const Token& t, const std::string& msg) { lex_.fail(t.line, t.col, msg); }
  [[noreturn]] void expected(const std::string& what, const Token& got) {
    failAt(got, "expected " + what + ", got " + describe(got));
  }

  bool isPunct(const Token& t, char c) const { return t.kind == Tok::Punct && t.text[0] == c; }
  Token expectPunct(char c) {
    Token t = lex_.next();
    if (!isPunct(t, c)) expected(std::string("'") + c + "'", t);
    return t;
  }
  bool acceptPunct(char c) {
    if (!isPunct(lex_.peek(), c)) return false;
    lex_.next();
    return true;
  }
  int64_t parseInt(const Token& t) {
    if (t.kind != Tok::Int) expected("an integer", t);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || p != t.text.data() + t.text.size()) failAt(t, "integer '" + t.text + "' out of range");
    return v;
  }

  void parseKernel() {
    Token kw = lex_.next();
    if (kw.kind != Tok::Ident || kw.text != "kernel") expected("'kernel'", kw);
    Token name = lex_.next();
    if (name.kind != Tok::KernelId) expected("a kernel name '@name'", name);
    if (!kernelNames_.insert(name.text).second) failAt(name, "redefinition of kernel @" + name.text);
    auto k = std::make_unique<Kernel>();
    k->name = name.text;
    k->loc = Location{fileIdx_, kw.line, kw.col};
    scope_ = decltype(scope_)();  // (not clear(): that costs the largest kernel's bucket count for every kernel)
    defined_.clear();
    expectPunct('(');
    if (!acceptPunct(')')) {
      do {
        Token p = lex_.next();
        if (p.kind != Tok::ValueId) expected("a parameter '%name'", p);
        if (std::isdigit(static_cast<unsigned char>(p.text[0]))) failAt(p, "parameter names must start with a letter");
        expectPunct(':');
        Value* v = k->body.block.addArg(parseType());
        define(p, v);
        k->paramNames.push_back(p.text);
      } while (acceptPunct(','));
      expectPunct(')');
    }
    maybeParseLoc(k->loc);
    expectPunct('{');
    parseOps(k->body.block, 0);
    module_->kernels.push_back(std::move(k));
  }

  // Ops until the closing '}' (consumed).
  void parseOps(Block& b, int depth) {
    if (depth > kMaxNesting) failAt(lex_.peek(), "regions nested too deeply");
    while (!acceptPunct('}')) {
      if (lex_.peek().kind == Tok::Eof) expected("'}'", lex_.peek());
      parseOp(b, depth);
    }
  }

  void parseOp(Block& b, int depth) {
    Token first = lex_.peek();
    std::vector<Token> resultNames;
    if (first.kind == Tok::ValueId) {
      do {
        Token r = lex_.next();
        if (r.kind != Tok::ValueId) expected("a result name", r);
        resultNames.push_back(r);
      } while (acceptPunct(','));
      expectPunct('=');
    }
    Token mn = lex_.next();
    if (mn.kind != Tok::Ident) expected("an op name", mn);
    auto code = opcodeFromMnemonic(mn.text);
    if (!code) failAt(mn, "unknown op '" + mn.text + "'");
    auto op = std::make_unique<Op>(*code, Location{fileIdx_, first.line, first.col});
    op->parent = &b;

    if (lex_.peek().kind == Tok::ValueId && !lex_.peek().firstOnLine) {
      do op->operands.push_back(use(lex_.next()));
      while (acceptPunct(','));
    }
    if (isPunct(lex_.peek(), '{') && !lex_.peek().firstOnLine) parseAttrs(*op);
    std::vector<Type> types;
    if (acceptPunct(':')) {
      do types.push_back(parseType());
      while (acceptPunct(','));
    }
    if (types.size() != resultNames.size())
      failAt(mn, "'" + mn.text + "' has " + std::to_string(resultNames.size()) + " result names but " +
                     std::to_string(types.size()) + " result types");
    while (isPunct(lex_.peek(), '(')) parseRegion(*op, depth);
    maybeParseLoc(op->loc);
    for (size_t i = 0; i < types.size(); ++i) {
      op->results.push_back(std::make_unique<Value>(types[i], op.get(), &b, static_cast<unsigned>(i)));
      define(resultNames[i], op->results.back().get());
    }
    b.ops.push_back(std::move(op));
  }

  void parseRegion(Op& op, int depth) {
    expectPunct('(');
    auto region = std::make_unique<Region>();
    region->parentOp = &op;
    size_t mark = defined_.size();
    if (!acceptPunct(')')) {
      do {
        Token a = lex_.next();
        if (a.kind != Tok::ValueId) expected("a region argument '%name'", a);
        expectPunct(':');
        define(a, region->block.addArg(parseType()));
      } while (acceptPunct(','));
      expectPunct(')');
    }
    expectPunct('{');
    parseOps(region->block, depth + 1);
    // Values of a region (its arguments included) are not visible after it.
    while (defined_.size() > mark) {
      scope_.erase(defined_.back());
      defined_.pop_back();
    }
    op.regions.push_back(std::move(region));
  }

  void parseAttrs(Op& op) {
    expectPunct('{');
    do {
      Token name = lex_.next();
      if (name.kind != Tok::Ident) expected("an attribute name", name);
      if (op.attr(name.text)) failAt(name, "duplicate attribute '" + name.text + "'");
      expectPunct('=');
      op.setAttr(name.text, parseAttrValue());
    } while (acceptPunct(','));
    expectPunct('}');
  }

  AttrValue parseAttrValue() {
    Token t = lex_.next();
    switch (t.kind) {
      case Tok::Int:
        return parseInt(t);
      case Tok::Float:
        if (t.text == "-inf") return -std::numeric_limits<double>::infinity();
        return parseFloat(t);
      case Tok::Ident:
        if (t.text == "inf") return std::numeric_limits<double>::infinity();
        if (t.text == "nan") return std::numeric_limits<double>::quiet_NaN();
        return t.text;
      case Tok::String:
        return t.text;
      case Tok::Punct:
        if (t.text == "[") {
          std::vector<int64_t> list;
          if (!acceptPunct(']')) {
            do list.push_back(parseInt(lex_.next()));
            while (acceptPunct(','));
            expectPunct(']');
          }
          return list;
        }
        break;
      case Tok::Eof:
      case Tok::ValueId:
      case Tok::KernelId:
      case Tok::Arrow:
        break;
    }
    expected("an attribute value", t);
  }

  double parseFloat(const Token& t) {
    double v = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || p != t.text.data() + t.text.size()) failAt(t, "bad float literal '" + t.text + "'");
    return v;
  }

  Type parseType() {
    Token t = lex_.next();
    if (t.kind == Tok::Ident && t.text == "tile") {
      expectPunct('<');
      Token at = lex_.position();
      std::vector<int64_t> dims = lex_.scanDims();
      if (dims.empty()) expected("tile dimensions 'NxMx...'", lex_.peek());
      if (dims.size() > kMaxRank) failAt(at, "tile rank " + std::to_string(dims.size()) + " exceeds " + std::to_string(kMaxRank));
      int64_t n = 1;
      for (int64_t d : dims) {
        if (d <= 0) failAt(at, "tile dimensions must be positive");
        n *= d;
        if (n > kMaxTileElements) failAt(at, "tile has more than " + std::to_string(kMaxTileElements) + " elements");
      }
      ElemType e = parseElemType(lex_.next());
      expectPunct('>');
      return Type(e, dims);
    }
    return Type(parseElemType(t));
  }

  ElemType parseElemType(const Token& t) {
    if (t.kind == Tok::Ident) {
      if (t.text == "ptr") {
        expectPunct('<');
        Token p = lex_.next();
        auto k = p.kind == Tok::Ident ? scalarFromName(p.text) : std::nullopt;
        if (!k) expected("a pointee type (i1..i64, f16, bf16, f32, f64)", p);
        expectPunct('>');
        return ElemType::ptrTo(*k);
      }
      if (auto k = scalarFromName(t.text)) return ElemType{*k, ScalarKind::I32};
    }
    expected("a type", t);
  }

  void maybeParseLoc(Location& loc) {
    const Token& t = lex_.peek();
    if (t.kind != Tok::Ident || t.text != "loc") return;
    lex_.next();
    expectPunct('(');
    Token f = lex_.next();
    if (f.kind == Tok::Ident && f.text == "unknown") {
      expectPunct(')');
      loc = Location{};
      return;
    }
    if (f.kind != Tok::String) expected("a file name string or 'unknown'", f);
    expectPunct(':');
    Token l = lex_.next();
    expectPunct(':');
    Token c = lex_.next();
    int64_t line = parseInt(l), col = parseInt(c);
    if (line <= 0 || line > UINT32_MAX || col < 0 || col > UINT32_MAX) failAt(l, "location out of range");
    expectPunct(')');
    loc = Location{module_->fileIndex(f.text), static_cast<uint32_t>(line), static_cast<uint32_t>(col)};
  }

  void define(const Token& name, Value* v) {
    if (!scope_.emplace(name.text, v).second) failAt(name, "redefinition of value %" + name.text);
    defined_.push_back(name.text);
  }

  Value* use(const Token& name) {
    if (name.kind != Tok::ValueId) expected("a value", name);
    auto it = scope_.find(name.text);
    if (it == scope_.end()) failAt(name, "use of undefined value %" + name.text);
    return it->second;
  }

  Lexer lex_;
  std::unique_ptr<Module> module_;
  uint32_t fileIdx_ = 0;
  std::unordered_map<std::string, Value*> scope_;
  std::vector<std::string> defined_;  // names in definition order, to close region scopes
  std::unordered_set<std::string> kernelNames_;  // (a set, not Module::findKernel's scan)
};

}  // namespace

Result<std::unique_ptr<Module>> parse(std::string_view text, const std::string& fileName) {
  try {
    return Parser(text, fileName).run();
  } catch (const DiagnosticError& e) {
    return e.diag;
  }
}

}  // namespace tilevm::ir

// Ast.h - the Python syntax tree of the kernel subset (expressions, statements, functions) and
// the scanned module (imports, constants, @triton.jit functions).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "ir/Diagnostics.h"

namespace tilevm::frontend {

struct Expr;
using ExprP = std::unique_ptr<Expr>;

/// A keyword argument of a call.
struct Keyword {
  std::string name;
  ExprP value;
};

/// An expression node. Which fields are used depends on `kind` (see each kind's comment).
struct Expr {
  enum class K {
    Name,       ///< str = identifier
    Int,        ///< ival (str holds the literal if it does not fit int64)
    Float,      ///< fval
    Str,        ///< str
    Bool,       ///< ival 0/1
    None,
    Ellipsis,
    Tuple,      ///< elts
    List,       ///< elts
    Dict,       ///< elts = keys, values
    Attr,       ///< a.str
    Subscript,  ///< a[b]
    Call,       ///< a(elts..., keywords...)
    Binary,     ///< a str b  (str: + - * / // % ** @ << >> & | ^)
    Unary,      ///< str a    (str: - + ~ not)
    BoolOp,     ///< elts joined by str (and | or)
    Compare,    ///< elts[0] ops[0] elts[1] ops[1] ...
    IfExp,      ///< a if b else c
    Slice,      ///< a:b:c (each may be null)
  };
  K kind;
  uint32_t line = 0, col = 0;
  std::string str;
  int64_t ival = 0;
  double fval = 0;
  std::vector<ExprP> elts, values;
  std::vector<std::string> ops;
  std::vector<Keyword> keywords;
  ExprP a, b, c;
};

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;

/// A statement of a @triton.jit function body.
struct Stmt {
  enum class K {
    Expr,       ///< value
    Assign,     ///< targets = value (several targets for a = b = v)
    AugAssign,  ///< targets[0] op= value
    AnnAssign,  ///< targets[0]: annotation [= value]
    If,         ///< if test: body else: orelse (elif nests in orelse)
    For,        ///< for targets[0] in value: body
    While,      ///< while test: body
    Return,     ///< return [value]
    Pass,
    Break,
    Continue,
    Assert,     ///< assert test[, value]
  };
  K kind;
  uint32_t line = 0, col = 0;
  std::vector<ExprP> targets;
  ExprP value, test, annotation;
  std::string op;
  std::vector<StmtP> body, orelse;
};

/// A parameter of a function definition.
struct Param {
  std::string name;
  ExprP annotation;
  ExprP defaultValue;
  uint32_t line = 0, col = 0;
};

/// A function definition (only @triton.jit ones are parsed in full).
struct FunctionDef {
  std::string name;
  std::vector<Param> params;
  std::vector<StmtP> body;
  std::vector<ExprP> decorators;
  uint32_t line = 0, col = 0;
  /// Set when the body uses syntax outside the subset: reported only if the function is used,
  /// as Triton reports such errors when it compiles the function, not when the file loads.
  std::optional<Diagnostic> syntaxError;
};

/// A module-level name bound to an expression (`BLOCK = 128`). `expr` is null when the
/// right-hand side is outside the parsed subset (then using it is an error).
struct ModuleConstant {
  ExprP expr;
  uint32_t line = 0, col = 0;
};

/// What the frontend keeps of a Python file: imports (alias -> dotted module path), module
/// constants, @triton.jit functions, and the names of everything else defined (for errors).
struct PyModule {
  std::string fileName;
  std::map<std::string, std::string> imports;
  std::map<std::string, ModuleConstant> constants;
  std::map<std::string, std::unique_ptr<FunctionDef>> jitFunctions;
  std::map<std::string, uint32_t> otherDefinitions;  ///< non-jit defs/classes -> line
};

}  // namespace tilevm::frontend

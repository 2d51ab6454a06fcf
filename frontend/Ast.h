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
    // Host-code forms: parsed so whole files read as Python reads them; a kernel that uses one
    // gets an error naming it.
    Lambda,     ///< lambda ops...: a  (ops: parameter names as written, with * and **)
    Comp,       ///< str (list|set|dict|gen) of a [: b] followed by elts (CompFor clauses)
    CompFor,    ///< for a in b, with elts = its `if` conditions
    Starred,    ///< str (* or **) a
    Set,        ///< elts
    NamedExpr,  ///< a := b
    Await,      ///< await a
    Yield,      ///< yield [a] (str "from" for yield from)
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
    Unsupported,  ///< op: a simple statement kernels cannot have (raise, import, del, ...): an error where it is reached
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

struct PyModule;
struct HostNames;

/// A function definition (only @triton.jit ones are parsed in full).
struct FunctionDef {
  const PyModule* module = nullptr;  ///< where it is defined (names in its body resolve there)
  std::string name;
  std::vector<Param> params;
  std::vector<StmtP> body;
  std::vector<ExprP> decorators;
  uint32_t line = 0, col = 0;
  /// Set when the body uses syntax outside the subset: reported only if the function is used,
  /// as Triton reports such errors when it compiles the function, not when the file loads.
  std::optional<Diagnostic> syntaxError;
};

/// What a module-level name is bound to by one statement of the file.
struct Binding {
  enum class K {
    Import,    ///< `import`/`from ... import`: module (dotted, after `level` leading dots) [. attr]
    Constant,  ///< NAME = expr (expr null: outside the subset tilevm reads)
    Function,  ///< a @triton.jit function (or NAME = triton.jit(f))
    Other,     ///< anything else: a plain def, a class, an unpacked or augmented assignment
    Undecided, ///< bound by module code the reader cannot run (`what`: the located reason)
  };
  K kind = K::Other;
  int level = 0;
  std::string moduleName, attr;
  const Expr* expr = nullptr;
  const FunctionDef* fn = nullptr;
  std::string what;  ///< Other: "function", "class", "value"; Undecided: the error message
  uint32_t line = 0, col = 0;
  unsigned id = 0;   ///< identity, to merge the branches of a conditional
};

/// A kernel of the file, as `--list` shows it: a @triton.jit function or a `name = triton.jit(f)`.
struct KernelEntry {
  std::string name;
  const FunctionDef* fn = nullptr;
};

/// What the frontend keeps of a Python file. A module-level `if` whose condition the reader
/// decides exactly binds the names of the branch Python takes; an undecidable one (and a
/// module-level `for`/`while`) binds its names as Undecided, an error only when used. A name
/// bound differently in the branches of a `try` keeps every alternative, try body first:
/// lookups take the first that resolves (so `try: from A import f / except ImportError: from B
/// import f` finds f in A or B).
struct PyModule {
  std::string fileName;
  std::string dir;         ///< the directory relative imports start from (set by ModuleLoader)
  bool isPackage = false;  ///< an __init__.py or a directory: submodules are its attributes
  std::map<std::string, std::vector<Binding>> names;
  std::vector<KernelEntry> kernels;                     ///< in source order
  std::vector<std::unique_ptr<FunctionDef>> functions;  ///< every parsed @triton.jit function
  std::vector<ExprP> exprs;                             ///< owns the bindings' expressions
  std::vector<Diagnostic> warnings;                     ///< kernels that could not be read
  /// Set for a function's namespace as Python evaluated it (frontend/SourceUnit.h): names
  /// resolve there, never through `names`.
  const HostNames* host = nullptr;

  /// Points every function at this module (after the module reached its final address).
  void adoptFunctions() {
    for (auto& f : functions) f->module = this;
  }

  /// The kernel named `name` (the last definition, as Python rebinds the name), or null.
  const FunctionDef* kernel(const std::string& name) const {
    for (auto k = kernels.rbegin(); k != kernels.rend(); ++k)
      if (k->name == name) return k->fn;
    return nullptr;
  }
};

}  // namespace tilevm::frontend

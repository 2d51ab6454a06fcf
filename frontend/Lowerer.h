// Lowerer.h - lowers @triton.jit functions to tile IR. One class; its parts live in
// LowerExpr.cpp (expressions, calls, inlining), Semantic.cpp (Triton's typing, promotion,
// broadcasting and casts), LowerStmt.cpp (statements and control flow), LowerKernel.cpp (the
// kernel's parameters and entry), Builtins.cpp (tl.*).
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/Compile.h"
#include "frontend/Value.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"

namespace tilevm::frontend {

/// The most ops one kernel may lower to, and the most loop bodies static_range may unroll in
/// total (docs/limits.md): a kernel's size stays bounded whatever its loops multiply to.
inline constexpr size_t kMaxKernelOps = 500000;
inline constexpr size_t kMaxUnrolledBodies = 1 << 20;

/// Names visible in a function body.
using Env = std::map<std::string, CV>;

/// Evaluated arguments of a call.
struct CallArgs {
  std::vector<CV> pos;
  std::vector<std::pair<std::string, CV>> kw;
  std::vector<const Expr*> posExprs;  ///< for error locations
  const Expr* site = nullptr;
};

class ModuleLoader;

/// A kernel parameter that is a tensor descriptor made on the host (Triton's TensorDescriptor):
/// the IR gets NAME.base, NAME.shapeK and NAME.strideK parameters for it.
struct DescriptorParam {
  DType pointer;                ///< the base pointer's type
  std::vector<int64_t> block;   ///< the block shape
  bool nanPadding = false;      ///< loads past the edge read NaN (Triton's padding="nan"), else zero
};

class Lowerer {
 public:
  /// `loader` finds the modules `m` imports (null: project imports do not resolve).
  Lowerer(const PyModule& m, ir::Module& out, ModuleLoader* loader = nullptr);

  /// Lowers `fn` as kernel `fn.name`. `constexprs` binds compile-time parameters (defaults fill
  /// the rest); `signature` gives every other parameter's dtype, in order.
  /// Is `path` the part after `PARAM.` of a tuple argument's element: dot-separated
  /// components, each an index, or INDEX_FIELD for a named tuple's field ("1.0", "0_ptr.2")?
  /// Elements are given as -D or --signature entries under such names; the kernel sees the
  /// tuple they make (its runtime elements are parameters named so).
  static bool tuplePathValid(const std::string& path);

  void lowerKernel(const FunctionDef& fn, const std::map<std::string, CV>& constexprs,
                   const std::map<std::string, DType>& signature,
                   const std::map<std::string, DescriptorParam>& descriptors = {});

  // ---- diagnostics and locations ---------------------------------------------------------
  [[noreturn]] void fail(uint32_t line, uint32_t col, const std::string& msg) const;
  [[noreturn]] void fail(const Expr& at, const std::string& msg) const { fail(at.line, at.col, msg); }
  void setLoc(uint32_t line, uint32_t col) {
    if (!inPrelude_) b.setLoc(ir::Location{fileIdx_, line, col});
  }
  void setLoc(const Expr& e) { setLoc(e.line, e.col); }

  // ---- expressions (LowerExpr.cpp) -------------------------------------------------------
  CV eval(const Expr& e, Env& env);
  CV lookup(const std::string& name, const Expr& at, Env& env);
  CV attribute(const CV& base, const std::string& name, const Expr& at);
  CV subscript(const CV& base, const Expr& index, Env& env, const Expr& at);
  /// Whether a slice in a subscript keeps a whole dimension (`:`, `None:`, `None:None:None`).
  bool fullSlice(const Expr& slice, Env& env);
  CV call(const Expr& e, Env& env);
  /// The arguments of a call expression, evaluated left to right.
  CallArgs evalArgs(const Expr& call, Env& env);
  CV callValue(const CV& callee, CallArgs& args);
  /// Calls a @triton.constexpr_function (in Python, through its HostCaller) on compile-time
  /// arguments; anything else given it is a located error, as is an exception it raises.
  CV callHost(const CV& callee, const CallArgs& args);
  /// Inlines a @triton.jit function with the given arguments; returns its return value.
  CV inlineFunction(const FunctionDef& fn, CallArgs& args);
  /// A constexpr bool from a value (a number, or an error naming `what`).
  bool constexprTruth(const CV& v, const Expr& at, const char* what);

  // ---- semantics (Semantic.cpp) ----------------------------------------------------------
  /// The dtype Triton gives a Python number (int32/int64/uint64, fp32/fp64, int1).
  DType constexprDType(const CV& v, const Expr& at) const;
  /// A Python number as an IR constant of `dt` and `shape` (scalar when empty).
  CV constant(const CV& number, DType dt, std::span<const int64_t> shape);
  /// A tensor for any number or tensor (numbers get their default dtype).
  CV toTensor(const CV& v, const Expr& at);
  CV cast(const CV& v, DType to, const Expr& at, bool bitcast = false);
  /// Why the IR cannot hold a tile of `shape` (rank past kMaxRank, a dimension below 1, more
  /// than kMaxTileElements elements), or "" if it can; callers prefix the construct's name.
  static std::string tileShapeProblem(std::span<const int64_t> shape);
  /// Fails at `at` with "WHAT: problem" when tileShapeProblem(shape) finds one.
  void checkTileShape(std::span<const int64_t> shape, const Expr& at, const std::string& what) const;
  CV broadcastTo(const CV& t, std::span<const int64_t> shape, const Expr& at);
  /// Numpy-style broadcast of two tensors to one shape.
  void broadcastPair(CV& a, CV& b, const Expr& at);
  /// Triton's type promotion for a binary op; numbers adapt to tensors (weak typing). A Python
  /// integer meeting a tensor must fit the result's integer type (Triton's "Scalar N is out of
  /// range for type T").
  DType computationType(const CV& a, const CV& b, bool divOrMod, const Expr& at);
  /// computationType's promotion alone, without the range rule.
  DType promotedType(const CV& a, const CV& b, bool divOrMod, const Expr& at);
  /// Triton's message when Python number `number` meeting a tensor does not fit the
  /// computation's type `ct` ("Scalar N is out of range for type T"), or "".
  static std::string scalarRangeProblem(const CV& number, const DType& ct);
  /// Why `number` cannot stand for a value of `dt` where Triton would require `dt` itself (a
  /// branch or loop-carried value the other side types): a float for an integer type, or an
  /// integer outside dt's range. "" if it can.
  static std::string implicitNumberProblem(const CV& number, const DType& dt);
  /// Fails at `at` unless Python number `number`, converted explicitly to integer type `to`
  /// (tl.full, a stored value, .to()), keeps its value: an integer must fit to's bits in either
  /// signedness (-1 is all ones in a uint32), a float must be finite and in range.
  void checkNumberFits(const CV& number, const DType& to, const Expr& at) const;
  /// `sanitizeOverflow`: Triton's sanitize_overflow, set for the kernel's Python operators and
  /// tl.add/sub/mul; under LaunchFlags::debug an integer +, - or * under 64 bits then asserts
  /// that its exact result fits its type (sanitizeOverflow() below).
  CV binary(const std::string& op, const CV& a, const CV& b, const Expr& at, bool sanitizeOverflow = false);
  CV unary(const std::string& op, const CV& a, const Expr& at, bool sanitizeOverflow = false);
  /// Triton's binary_op_sanitize_overflow_impl: x op y computed in int64 and asserted within
  /// ct's range ("int32 overflow detected for operation add"); x and y are already ct.
  void sanitizeOverflow(const std::string& op, const CV& x, const CV& y, const DType& ct, const Expr& at);
  CV compare(const std::string& op, const CV& a, const CV& b, const Expr& at);
  /// Both to one dtype and shape (for where/maximum/...); numbers adapt to tensors.
  void unify(CV& a, CV& b, const Expr& at, bool divOrMod = false);
  CV minMax(bool isMax, const CV& a, const CV& b, bool propagateNan, const Expr& at);
  CV select(const CV& cond, const CV& a, const CV& b, const Expr& at);
  CV expandDims(const CV& t, int64_t axis, const Expr& at);
  CV reshape(const CV& t, std::vector<int64_t> shape, const Expr& at);

  // ---- statements (LowerStmt.cpp) --------------------------------------------------------
  struct Flow {
    bool returned = false;
    CV value;
  };
  Flow execBlock(const std::vector<StmtP>& body, Env& env);
  /// Runs body[start...], noting for each statement where the code after it continues.
  Flow execStmts(const std::vector<StmtP>& body, size_t start, Env& env);
  void assign(const Expr& target, const CV& value, Env& env, const Expr& at);
  /// What an assignment binds: numbers lifted to scalar tensors, as Triton's visit_Assign.
  CV lifted(const CV& v, const Expr& at);

  // ---- builtins (Builtins.cpp) -----------------------------------------------------------
  CV callBuiltin(const std::string& name, CallArgs& args);
  /// Builds a reduce or scan over `inputs` along `axis` whose combiner is built by `combine`
  /// from the scalar block arguments (first N then second N).
  std::vector<CV> reduceOrScan(bool scan, const std::vector<CV>& inputs, int64_t axis, bool reverse,
                               const std::function<std::vector<CV>(std::vector<CV>&, std::vector<CV>&)>& combine,
                               const Expr& at);

  /// Inlines a function of the prelude (tl.rand, ...): its names resolve in the prelude, and
  /// its ops keep the location of the user's call.
  CV inlinePrelude(const std::string& name, CallArgs& args);

  ir::Builder b;
  const PyModule* module;
  std::function<void(const std::string&)> staticPrint;  ///< CompileOptions::staticPrint
  LaunchFlags flags;                                     ///< CompileOptions::flags

 private:
  Flow execStmt(const Stmt& s, Env& env);
  void lowerFor(const Stmt& s, Env& env);
  /// start, stop and step of a range()/tl.range()/tl.static_range() call, bound as Triton's
  /// signatures bind them (keywords arg1, arg2, step; tl.range's hints accepted and ignored).
  /// A range's bounds (start, end, step); `hints` receives tl.range's loop attributes.
  std::array<CV, 3> rangeBounds(const std::string& kind, const CallArgs& a, const Expr& site,
                                std::vector<ir::Attribute>* hints = nullptr);
  /// Appends the loop attribute a hint keyword gives (disable_licm, loop_unroll_factor).
  void loopHint(const std::string& name, const CV& v, const Expr& at, std::vector<ir::Attribute>& hints);
  void lowerStaticFor(const Stmt& s, const CallArgs& rangeArgs, Env& env);
  Flow lowerIf(const Stmt& s, Env& env);
  /// A runtime `if` with a `return` inside: the rest of the function is lowered into each branch
  /// that does not return, so the `if` ends the function (Triton allows this; IR v1 has no
  /// early exit). Yields the return value, if any, as the if's results.
  Flow lowerReturningIf(const Stmt& s, const CV& cond, Env& env);
  /// The scalar a runtime `if` tests: the condition, or a one-element tile's element.
  CV ifCondition(const CV& cond, const Expr& test);
  /// `a if cond else b` with a runtime condition, as Triton lowers it: each side in its own
  /// branch of an if (only the side taken runs), made a tensor; both of one type, or both None.
  CV lowerRuntimeIfExp(const Expr& e, const CV& cond, Env& env);
  /// A value that differs between the branches of a runtime `if` (v[0] then, v[1] else):
  /// each branch yields it (numbers materialized there) and its merged dtype is returned;
  /// nullopt when both are the same compile-time value. The messages name a type mismatch and
  /// two different compile-time values (defaulting to the first).
  std::optional<DType> yieldBranchValues(const Stmt& s, ir::Op* op, const CV (&v)[2], std::vector<ir::Value*> (&yields)[2],
                                         const std::string& typeMismatch, const std::string& constantMismatch = "");
  /// Ends both regions of `op` with their yields; returns the if's results.
  std::vector<ir::Value*> closeIf(const Stmt& s, ir::Op* op, ir::Block* parent, std::vector<ir::Value*> (&yields)[2]);
  /// Lowers the code that follows the current statement up to the end of the function.
  Flow runContinuation(Env& env);
  /// The blocks (and positions in them) whose remaining statements follow the current one in
  /// this function, outermost first.
  std::vector<std::pair<const std::vector<StmtP>*, size_t>> continuation_;
  void lowerWhile(const Stmt& s, Env& env);
  /// Loop-carried values: names the body reassigns that exist before the loop.
  struct Carried {
    std::vector<std::string> names;
    std::vector<CV> inits;
    std::vector<ir::Type> types;
    std::map<std::string, CV> blockPtrs;  ///< carried block pointers and tensor descriptors as they entered the loop
  };
  Carried loopCarried(const Stmt& s, const Env& env, const std::string& exclude, const Expr& at);
  void bindCarried(const Carried& c, ir::Block& block, Env& env);
  /// Binds the loop's results to the carried names after the loop.
  void bindResults(const Carried& c, ir::Op* loop, Env& env);
  /// Puts carried block pointers back together from their offset slots.
  void regroupCarried(const Carried& c, Env& env);
  /// Ends a loop body: the carried names' values (numbers materialized), type-checked, yielded.
  void yieldCarried(const Stmt& s, const Carried& c, Env& bodyEnv, const Expr& at);
  /// The value of module-level `name` in `m`: the first of its alternatives that resolves.
  CV global(const PyModule& m, const std::string& name, const Expr& at);
  CV resolveBinding(const PyModule& m, const std::string& name, const Binding& bnd, const Expr& at);
  CV importedValue(const PyModule& m, const Binding& bnd, const Expr& at);
  /// Name `name` of a namespace Python evaluated (SourceUnit.h); nullopt when it has none.
  std::optional<CV> hostName(const HostNames& names, const std::string& name, const Expr& at);
  /// Attribute `name` of project module `m`: a name it binds, or a submodule.
  CV moduleAttribute(const PyModule& m, const std::string& name, const Expr& at);
  CV moduleConstant(const PyModule& m, const std::string& name, const Binding& bnd, const Expr& at);
  /// Makes `m` the module whose names resolve and whose file locations get (returns the old).
  const PyModule* enterModule(const PyModule* m);
  /// Names assigned anywhere in `body` (for loop-carried and branch-merged values).
  static void assignedNames(const std::vector<StmtP>& body, std::vector<std::string>& out);

  uint32_t fileIdx_ = 0;
  bool inPrelude_ = false;
  int callDepth_ = 0;
  size_t unrolledBodies_ = 0;
  ModuleLoader* loader_ = nullptr;
  std::map<std::pair<const PyModule*, unsigned>, CV> constantCache_;  ///< by module and binding id
  std::vector<std::pair<const PyModule*, unsigned>> evaluatingConstants_;
};

}  // namespace tilevm::frontend

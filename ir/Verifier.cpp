// Verifier.cpp - structural checks: arity, regions, terminators, dominance; per-op type rules
// live in VerifyOps.cpp.
#include "ir/Verifier.h"

#include <set>
#include <unordered_set>

#include "ir/Hints.h"

namespace tilevm::ir {

namespace {

constexpr size_t kMaxDiagnostics = 20;

class ModuleVerifier {
 public:
  explicit ModuleVerifier(const Module& m) : module_(m) {}

  std::vector<Diagnostic> run() {
    std::set<std::string> names;
    for (const auto& k : module_.kernels) {
      if (!names.insert(k->name).second) error(k->loc, "duplicate kernel name @" + k->name);
      if (k->paramNames.size() != k->body.block.args.size())
        error(k->loc, "kernel @" + k->name + " has " + std::to_string(k->paramNames.size()) + " parameter names for " +
                          std::to_string(k->body.block.args.size()) + " parameters");
      std::set<std::string> params;
      for (const auto& p : k->paramNames)
        if (!params.insert(p).second) error(k->loc, "duplicate parameter name %" + p + " in @" + k->name);
      // (Empty here: regions erase what they add. Not clear(): that costs the bucket count of
      // the largest kernel so far, for every kernel.)
      if (!visible_.empty()) visible_ = decltype(visible_)();
      kernelName_ = k->name;
      opIndex_ = 0;
      currentOp_ = nullptr;
      verifyRegion(k->body, Opcode::Return, k->loc);
    }
    return std::move(diags_);
  }

 private:
  void error(const Location& loc, std::string msg) {
    if (diags_.size() >= kMaxDiagnostics) return;
    Diagnostic d;
    d.file = loc.file < module_.files.size() ? module_.files[loc.file] : "";
    d.line = loc.line;
    d.col = loc.col;
    d.message = std::move(msg);
    // Without a source location (bytecode written with --no-locations), name the place in
    // the IR: the kernel and the op's position in it.
    if (d.line == 0 && !kernelName_.empty()) {
      d.message += " (in @" + kernelName_;
      if (currentOp_) d.message += ", op #" + std::to_string(opIndex_) + " '" + std::string(opInfo(currentOp_->code).mnemonic) + "'";
      d.message += ")";
    }
    diags_.push_back(std::move(d));
  }
  std::string kernelName_;
  const Op* currentOp_ = nullptr;
  size_t opIndex_ = 0;

  // Checks a region's block: each op, dominance of its operands, and that it ends with the
  // terminator `expected` (and has no terminator elsewhere).
  void verifyRegion(const Region& r, Opcode expected, const Location& ownerLoc) {
    const Block& b = r.block;
    std::vector<const Value*> added;
    for (const auto& a : b.args) {
      visible_.insert(a.get());
      added.push_back(a.get());
    }
    if (b.ops.empty()) {
      error(ownerLoc, "region must end with '" + std::string(opInfo(expected).mnemonic) + "'");
    }
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op& op = *b.ops[i];
      currentOp_ = &op;
      ++opIndex_;
      bool last = i + 1 == b.ops.size();
      bool term = hasTrait(op.code, Terminator);
      if (term && !last) error(op.loc, "'" + std::string(op.mnemonic()) + "' must be the last op of its region");
      if (last && op.code != expected)
        error(op.loc, "region must end with '" + std::string(opInfo(expected).mnemonic) + "', got '" +
                          std::string(op.mnemonic()) + "'");
      verifyOp(op);
      for (const auto& res : op.results) {
        visible_.insert(res.get());
        added.push_back(res.get());
      }
    }
    for (const Value* v : added) visible_.erase(v);
  }

  void verifyOp(const Op& op) {
    const OpInfo& info = opInfo(op.code);
    std::string name(info.mnemonic);
    size_t n = op.operands.size();
    if (n < size_t(info.minOperands) || (info.maxOperands >= 0 && n > size_t(info.maxOperands))) {
      std::string want = info.maxOperands < 0 ? "at least " + std::to_string(info.minOperands)
                         : info.minOperands == info.maxOperands
                             ? std::to_string(info.minOperands)
                             : std::to_string(info.minOperands) + " to " + std::to_string(info.maxOperands);
      error(op.loc, "'" + name + "' expects " + want + " operands, got " + std::to_string(n));
      return;
    }
    if (info.numResults >= 0 && op.results.size() != size_t(info.numResults)) {
      error(op.loc, "'" + name + "' expects " + std::to_string(info.numResults) + " results, got " +
                        std::to_string(op.results.size()));
      return;
    }
    if (op.regions.size() != info.numRegions) {
      error(op.loc, "'" + name + "' expects " + std::to_string(info.numRegions) + " regions, got " +
                        std::to_string(op.regions.size()));
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      if (!op.operands[i]) {
        error(op.loc, "'" + name + "' operand #" + std::to_string(i) + " is missing");
        return;
      }
      if (!visible_.count(op.operands[i])) {
        error(op.loc, "'" + name + "' operand #" + std::to_string(i) + " does not dominate its use");
        return;
      }
    }
    for (const auto& r : op.results) {
      if (r->type.numElements() > kMaxTileElements) {
        error(op.loc, "'" + name + "' result tile has " + std::to_string(r->type.numElements()) +
                          " elements, more than the limit " + std::to_string(kMaxTileElements));
        return;
      }
    }
    if (auto problem = checkOpTypes(op)) {
      error(op.loc, "'" + name + "' " + *problem);
      return;
    }
    if (auto problem = checkHints(op)) {
      error(op.loc, "'" + name + "' " + *problem);
      return;
    }
    verifyNested(op);
  }

  // Regions: which terminator ends each, and whether the outer scope is visible inside.
  void verifyNested(const Op& op) {
    if (op.code == Opcode::Reduce || op.code == Opcode::Scan || op.code == Opcode::Map) {
      // Combiners and map functions are isolated from above: they see only their arguments.
      std::unordered_set<const Value*> saved;
      saved.swap(visible_);
      verifyRegion(*op.regions[0], Opcode::Yield, op.loc);
      visible_.swap(saved);
    } else if (op.code == Opcode::While) {
      verifyRegion(*op.regions[0], Opcode::Condition, op.loc);
      verifyRegion(*op.regions[1], Opcode::Yield, op.loc);
    } else {
      for (const auto& r : op.regions) verifyRegion(*r, Opcode::Yield, op.loc);  // for, if
    }
  }

  const Module& module_;
  std::unordered_set<const Value*> visible_;
  std::vector<Diagnostic> diags_;
};

}  // namespace

std::vector<Diagnostic> verify(const Module& m) { return ModuleVerifier(m).run(); }

}  // namespace tilevm::ir

// Contiguity.cpp - the run-shape analysis (see Contiguity.h).
#include "codegen/Contiguity.h"

#include <string>

namespace tilevm::codegen {

using ir::Opcode;

std::map<const ir::Value*, RunShape> analyzeRuns(const ir::Kernel& k) {
  std::map<const ir::Value*, RunShape> shape;
  auto of = [&](const ir::Value* v) {
    if (v->type.isScalar()) return RunShape::Uniform;
    auto it = shape.find(v);
    return it == shape.end() ? RunShape::Unknown : it->second;
  };
  auto allUniform = [&](const ir::Op& op) {
    for (const ir::Value* v : op.operands)
      if (of(v) != RunShape::Uniform) return false;
    return true;
  };
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.results.size() != 1) return;
    const ir::Value* r = op.result();
    RunShape s = RunShape::Unknown;
    auto a = [&](size_t i) { return of(op.operands[i]); };
    switch (op.code) {
      case Opcode::Constant:
      case Opcode::Splat:
      case Opcode::ProgramId:
      case Opcode::NumPrograms: s = RunShape::Uniform; break;
      case Opcode::Arange: s = RunShape::Contiguous; break;
      case Opcode::AddI:
      case Opcode::AddPtr:  // pointer + offset: contiguous when either side is and the other uniform
        if (a(0) == RunShape::Uniform && a(1) == RunShape::Uniform) s = RunShape::Uniform;
        else if ((a(0) == RunShape::Contiguous && a(1) == RunShape::Uniform) ||
                 (a(0) == RunShape::Uniform && a(1) == RunShape::Contiguous))
          s = RunShape::Contiguous;
        break;
      case Opcode::SubI:
        if (a(0) == RunShape::Uniform && a(1) == RunShape::Uniform) s = RunShape::Uniform;
        else if (a(0) == RunShape::Contiguous && a(1) == RunShape::Uniform) s = RunShape::Contiguous;
        break;
      case Opcode::ExtSI:
      case Opcode::ExtUI: s = a(0); break;
      case Opcode::CmpI: {
        const std::string* pred = op.strAttr("pred");
        bool ordered = pred && *pred != "eq" && *pred != "ne";
        if (a(0) == RunShape::Uniform && a(1) == RunShape::Uniform) s = RunShape::Uniform;
        else if (ordered && ((a(0) == RunShape::Contiguous && a(1) == RunShape::Uniform) ||
                             (a(0) == RunShape::Uniform && a(1) == RunShape::Contiguous)))
          s = RunShape::Monotone;
        break;
      }
      default:
        if (!op.operands.empty() && op.regions.empty() && ir::hasTrait(op.code, ir::Pure) && allUniform(op)) s = RunShape::Uniform;
        break;
    }
    if (s != RunShape::Unknown) shape[r] = s;
  });
  return shape;
}

}  // namespace tilevm::codegen

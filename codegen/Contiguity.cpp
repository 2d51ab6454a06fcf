// Contiguity.cpp - the run-shape and divisibility analysis (see Contiguity.h).
#include "codegen/Contiguity.h"

#include <algorithm>
#include <set>
#include <string>

#include "codegen/Layout.h"

namespace tilevm::codegen {

using ir::Opcode;

namespace {

constexpr int64_t kMaxDivisor = int64_t(1) << 30;

// The largest power of two dividing v (capped; 0 is divisible by anything).
int64_t powerOfTwoIn(int64_t v) {
  if (v == 0) return kMaxDivisor;
  int64_t d = 1;
  while (d < kMaxDivisor && v % (d * 2) == 0) d *= 2;
  return d;
}

int64_t elementBytes(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::I1: case ir::ScalarKind::I8: return 1;
    case ir::ScalarKind::I16: case ir::ScalarKind::F16: case ir::ScalarKind::BF16: return 2;
    case ir::ScalarKind::I32: case ir::ScalarKind::F32: return 4;
    default: return 8;
  }
}

}  // namespace

std::map<const ir::Value*, RunInfo> analyzeRuns(const ir::Kernel& k, unsigned threads, unsigned maxVec,
                                                const std::vector<uint32_t>& paramDivisors) {
  std::map<const ir::Value*, RunInfo> info;
  // Values contiguous over the whole flattened tile, not only within runs (aranges, plus
  // uniform values): a broadcast may regroup their elements into longer runs.
  std::set<const ir::Value*> flat;
  for (size_t i = 0; i < paramDivisors.size() && i < k.params().size(); ++i)
    info[k.params()[i].get()] = RunInfo{RunShape::Uniform, std::max<int64_t>(1, paramDivisors[i])};
  auto of = [&](const ir::Value* v) {
    auto it = info.find(v);
    RunInfo r = it == info.end() ? RunInfo{} : it->second;
    if (v->type.isScalar()) r.shape = RunShape::Uniform;
    return r;
  };
  auto vecOf = [&](const ir::Value* v) { return int64_t(Layout::of(v->type, threads, maxVec).vec); };
  ir::walk(k.body.block, [&](const ir::Op& op) {
    if (op.results.size() != 1) return;
    const ir::Value* r = op.result();
    RunInfo out;
    auto a = [&](size_t i) { return of(op.operands[i]); };
    auto shapes = [&](RunShape x, RunShape y) { return a(0).shape == x && a(1).shape == y; };
    bool allUniform = !op.operands.empty();
    for (const ir::Value* v : op.operands) allUniform = allUniform && of(v).shape == RunShape::Uniform;
    switch (op.code) {
      case Opcode::Constant:
        out.shape = RunShape::Uniform;
        if (const int64_t* c = op.intAttr("value"); c && !r->type.isFloat()) out.divisor = powerOfTwoIn(*c);
        break;
      case Opcode::Splat: out = {RunShape::Uniform, a(0).divisor}; break;
      case Opcode::ProgramId:
      case Opcode::NumPrograms: out.shape = RunShape::Uniform; break;
      case Opcode::Arange:
        out = {RunShape::Contiguous, std::min(powerOfTwoIn(*op.intAttr("start")), vecOf(r))};
        flat.insert(r);
        break;
      case Opcode::AddI:
      case Opcode::AddPtr: {  // contiguous when either side is and the other uniform
        int64_t scale = op.code == Opcode::AddPtr ? elementBytes(r->type.elem().pointee) : 1;
        out.divisor = std::min(a(0).divisor, std::min(kMaxDivisor, a(1).divisor * scale));
        if (allUniform) out.shape = RunShape::Uniform;
        else if (shapes(RunShape::Contiguous, RunShape::Uniform) || shapes(RunShape::Uniform, RunShape::Contiguous))
          out.shape = RunShape::Contiguous;
        if (out.shape == RunShape::Contiguous && (flat.count(op.operands[0]) || flat.count(op.operands[1]))) flat.insert(r);
        break;
      }
      case Opcode::SubI:
        out.divisor = std::min(a(0).divisor, a(1).divisor);
        if (allUniform) out.shape = RunShape::Uniform;
        else if (shapes(RunShape::Contiguous, RunShape::Uniform)) out.shape = RunShape::Contiguous;
        if (out.shape == RunShape::Contiguous && flat.count(op.operands[0])) flat.insert(r);
        break;
      case Opcode::MulI:  // divisibility of run starts multiplies; contiguity is lost
        out.divisor = std::min(kMaxDivisor, a(0).divisor * a(1).divisor);
        if (allUniform) out.shape = RunShape::Uniform;
        break;
      case Opcode::ExtSI:
      case Opcode::ExtUI:
      case Opcode::ExpandDims:
      case Opcode::Reshape:  // the same elements in the same flat order
        out = a(0);
        if (flat.count(op.operands[0])) flat.insert(r);
        break;
      case Opcode::Broadcast: {
        const ir::Type& st = op.operands[0]->type;
        const ir::Type& rt = r->type;
        unsigned last = rt.rank() - 1;
        int64_t vr = vecOf(r), vs = vecOf(op.operands[0]);
        RunInfo s = a(0);
        if (rt.dim(last) % vr != 0) break;  // a run may cross rows
        if (st.dim(last) == 1) {
          // Along the last dim every run is one source element: uniform; divisible when every
          // source element is (runs of one, or uniform runs).
          out.shape = RunShape::Uniform;
          out.divisor = (vs == 1 || s.shape == RunShape::Uniform) ? s.divisor : 1;
        } else if ((s.shape == RunShape::Contiguous || s.shape == RunShape::Uniform) &&
                   (vr <= vs || (s.shape == RunShape::Contiguous && flat.count(op.operands[0])))) {
          // A run is vr consecutive source elements starting at a multiple of vr: inside one
          // source run, or anywhere in a flat-contiguous source.
          out.shape = s.shape;
          out.divisor = vr <= vs ? std::min(s.divisor, vr) : s.divisor;
        }
        break;
      }
      case Opcode::CmpI: {
        const std::string* pred = op.strAttr("pred");
        bool ordered = pred && *pred != "eq" && *pred != "ne";
        int64_t vec = vecOf(r);
        if (allUniform) {
          out.shape = RunShape::Uniform;
        } else if (ordered && (shapes(RunShape::Contiguous, RunShape::Uniform) || shapes(RunShape::Uniform, RunShape::Contiguous))) {
          out.shape = RunShape::Monotone;
          // Both sides multiples of the run length: `contiguous < bound` (or >=) cannot change
          // inside a run (Triton's constancy of masks like `cols < N`).
          bool contiguousLeft = a(0).shape == RunShape::Contiguous;
          bool strict = contiguousLeft ? (*pred == "slt" || *pred == "sge" || *pred == "ult" || *pred == "uge")
                                       : (*pred == "sgt" || *pred == "sle" || *pred == "ugt" || *pred == "ule");
          if (strict && a(0).divisor >= vec && a(1).divisor >= vec) out.shape = RunShape::Uniform;
        }
        break;
      }
      case Opcode::AndI:
      case Opcode::OrI:
        // A uniform mask combined with a monotone one leaves it monotone (all or nothing).
        if (allUniform) out.shape = RunShape::Uniform;
        else if (shapes(RunShape::Monotone, RunShape::Uniform) || shapes(RunShape::Uniform, RunShape::Monotone))
          out.shape = RunShape::Monotone;
        break;
      default:
        if (!op.operands.empty() && op.regions.empty() && ir::hasTrait(op.code, ir::Pure) && allUniform) out.shape = RunShape::Uniform;
        break;
    }
    if (out.shape != RunShape::Unknown || out.divisor > 1) info[r] = out;
  });
  return info;
}

}  // namespace tilevm::codegen

// Views.cpp - the view rules of splat, broadcast and expand_dims, and reading views densely.
#include "interpreter/Views.h"

namespace tilevm::interp {

using ir::Opcode;

namespace {

void startView(Tile& out, const Tile& src, const ir::Type& type) {
  out = Tile{};
  out.type = type;
  out.view = true;
  out.data = src.data;
  out.provenance = src.provenance;
}

}  // namespace

bool hasViewRule(Opcode code) { return code == Opcode::Splat || code == Opcode::Broadcast || code == Opcode::ExpandDims; }

bool tryView(const Instr& ins, const std::vector<const Tile*>& in, Tile& out) {
  const ir::Type& type = ins.op->result()->type;
  const Tile& a = *in[0];
  if (!type.isFloat() || a.symbolic || a.poison) return false;
  switch (ins.op->code) {
    case Opcode::Splat:  // every element is the scalar
      startView(out, a, type);
      return true;
    case Opcode::Broadcast: {
      // Dims of size 1 repeat (stride 0); the others keep the operand's stride.
      const auto stride = elementStrides(a);
      startView(out, a, type);
      for (unsigned d = 0; d < type.rank(); ++d) out.affine.stride[d] = a.type.dim(d) == 1 ? 0 : stride[d];
      return true;
    }
    case Opcode::ExpandDims: {  // of a view (a dense operand is shared as it is, OpsShape.cpp)
      if (!a.view) return false;
      auto axis = unsigned(*ins.op->intAttr("axis"));
      startView(out, a, type);
      for (unsigned d = 0, s = 0; d < type.rank(); ++d) out.affine.stride[d] = d == axis ? 0 : a.affine.stride[s++];
      return true;
    }
    default:
      return false;
  }
}

std::array<int64_t, ir::kMaxRank> elementStrides(const Tile& t) {
  if (t.view) return t.affine.stride;
  std::array<int64_t, ir::kMaxRank> s{};
  int64_t dense = 1;
  for (unsigned d = t.type.rank(); d-- > 0;) {
    s[d] = dense;
    dense *= t.type.dim(d);
  }
  return s;
}

void copyViewElements(const Tile& t, uint8_t* dst) {
  gatherStrided(t.data, dst, storageBytes(t.type.elem().kind), t.type.shape(),
                std::span<const int64_t>(t.affine.stride.data(), t.type.rank()));
}

}  // namespace tilevm::interp

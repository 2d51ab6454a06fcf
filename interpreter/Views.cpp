// Views.cpp - the view rules of splat, broadcast and expand_dims, and reading views densely.
#include "interpreter/Views.h"

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

bool floatKind(ScalarKind k) { return k == ScalarKind::F32 || k == ScalarKind::F64 || k == ScalarKind::F16 || k == ScalarKind::BF16; }

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
  if (!floatKind(type.elem().kind) || a.symbolic || a.poison) return false;
  switch (ins.op->code) {
    case Opcode::Splat:  // every element is the scalar
      startView(out, a, type);
      return true;
    case Opcode::Broadcast: {
      // Dims of size 1 repeat (stride 0); the others keep the operand's stride.
      int64_t dense = 1;
      std::array<int64_t, ir::kMaxRank> stride{};
      for (unsigned d = a.type.rank(); d-- > 0;) {
        stride[d] = a.view ? a.affine.stride[d] : dense;
        dense *= a.type.dim(d);
      }
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

namespace {
template <typename T>
void copyRows(const Tile& t, T* dst) {
  const unsigned rank = t.type.rank();
  const int64_t len = rank ? t.type.dim(rank - 1) : 1, step = rank ? t.affine.stride[rank - 1] : 0;
  const int64_t outer = t.size() / len;
  const T* src = t.as<T>();
  std::array<int64_t, ir::kMaxRank> idx{};
  for (int64_t r = 0; r < outer; ++r) {
    int64_t off = 0;
    for (unsigned d = 0; d + 1 < rank; ++d) off += idx[d] * t.affine.stride[d];
    T* o = dst + r * len;
    if (step == 0) std::fill_n(o, len, src[off]);
    else for (int64_t j = 0; j < len; ++j) o[j] = src[off + j * step];
    for (unsigned d = rank - 1; d-- > 0;) {
      if (++idx[d] < t.type.dim(d)) break;
      idx[d] = 0;
    }
  }
}
}  // namespace

void copyViewElements(const Tile& t, uint8_t* dst) {
  switch (storageBytes(t.type.elem().kind)) {
    case 2: copyRows(t, reinterpret_cast<uint16_t*>(dst)); break;
    case 4: copyRows(t, reinterpret_cast<uint32_t*>(dst)); break;
    default: copyRows(t, reinterpret_cast<uint64_t*>(dst)); break;
  }
}

}  // namespace tilevm::interp

// OpsShape.cpp - ops that create or move elements: constant, splat, arange, broadcast,
// expand_dims, reshape, permute, flip, cat, join, split (the shape family), select, and the casts. Data movement is
// written once over element bytes, so poison masks (1 byte per lane) move the same way.
#include <algorithm>
#include <cmath>

#include "interpreter/Exec.h"
#include "interpreter/FastMath.h"

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// n copies of one element of eb bytes (typed, so the loop is a plain store).
void fillElement(uint8_t* dst, const uint8_t* src, unsigned eb, int64_t n) {
  switch (eb) {
    case 1: std::memset(dst, *src, size_t(n)); return;
    case 2: { uint16_t v; std::memcpy(&v, src, 2); std::fill_n(reinterpret_cast<uint16_t*>(dst), n, v); return; }
    case 4: { uint32_t v; std::memcpy(&v, src, 4); std::fill_n(reinterpret_cast<uint32_t*>(dst), n, v); return; }
    default: { uint64_t v; std::memcpy(&v, src, 8); std::fill_n(reinterpret_cast<uint64_t*>(dst), n, v); return; }
  }
}

std::vector<int64_t> rowMajorStrides(std::span<const int64_t> shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// Applies one data movement to the values and (if any) the poison mask.
template <typename Move>
void moveWithPoison(Program& p, const Tile& src, Tile& out, Move&& move) {
  out.provenance = src.provenance;
  move(src.data, out.data, storageBytes(src.type.elem().kind));
  if (src.poison) {
    out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(out.size())));
    move(src.poison, out.poison, 1u);
  }
}

}  // namespace

void gatherStrided(const uint8_t* src, uint8_t* dst, unsigned eb, std::span<const int64_t> shape,
                   std::span<const int64_t> srcStride) {
  size_t rank = shape.size();
  if (rank == 0) {
    std::memcpy(dst, src, eb);
    return;
  }
  int64_t inner = shape[rank - 1], innerStride = srcStride[rank - 1];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= shape[d];
  std::vector<int64_t> idx(rank, 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t base = 0;
    for (size_t d = 0; d + 1 < rank; ++d) base += idx[d] * srcStride[d];
    uint8_t* o = dst + size_t(r * inner) * eb;
    const uint8_t* s = src + size_t(base) * eb;
    if (innerStride == 1) {
      std::memcpy(o, s, size_t(inner) * eb);
    } else if (innerStride == 0) {
      fillElement(o, s, eb, inner);
    } else {
      for (int64_t j = 0; j < inner; ++j) std::memcpy(o + size_t(j) * eb, s + size_t(j * innerStride) * eb, eb);
    }
    for (size_t d = rank - 1; d-- > 0;) {  // advance the outer index
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

void fillConstant(Tile& t, const ir::AttrValue& v) {
  int64_t n = t.size();
  if (const double* d = std::get_if<double>(&v)) {
    switch (t.type.elem().kind) {
      case ScalarKind::F32: std::fill_n(t.as<float>(), n, float(*d)); return;
      case ScalarKind::F64: std::fill_n(t.as<double>(), n, *d); return;
      case ScalarKind::F16: std::fill_n(t.as<uint16_t>(), n, floatToHalf(float(*d))); return;
      case ScalarKind::BF16: std::fill_n(t.as<uint16_t>(), n, floatToBf16(float(*d))); return;
      default:
        if (t.type.isFp8()) {
          std::fill_n(t.as<uint8_t>(), n, ir::fp8FromDouble(*d, t.type.elem().kind));
          return;
        }
        break;
    }
  }
  int64_t i = std::get<int64_t>(v);
  storeInt(t, 0, i);
  unsigned eb = storageBytes(t.type.elem().kind);
  if (n > 1) fillElement(t.data + eb, t.data, eb, n - 1);
}

namespace {

// double -> float rounding toward zero or to odd, for exact double -> half conversions.
float toFloatTowardZero(double d) {
  float f = float(d);
  if (std::isfinite(d) && std::fabs(double(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
  return f;
}
float toFloatRoundToOdd(double d) {
  float f = toFloatTowardZero(d);
  if (double(f) != d && std::isfinite(d)) {
    uint32_t b = floatToBits(f) | 1u;
    f = bitsToFloat(b);
  }
  return f;
}

void truncFloat(const Tile& in, Tile& out, bool rtz) {
  ScalarKind to = out.type.elem().kind, from = in.type.elem().kind;
  int64_t n = out.size();
  for (int64_t i = 0; i < n; ++i) {
    double v = elementAsDouble(in, i);
    float f = from == ScalarKind::F64 ? (rtz ? toFloatTowardZero(v) : (to == ScalarKind::F32 ? float(v) : toFloatRoundToOdd(v)))
                                      : float(v);
    switch (to) {
      case ScalarKind::F32: out.as<float>()[i] = f; break;
      case ScalarKind::F16: out.as<uint16_t>()[i] = rtz ? floatToHalfRtz(f) : floatToHalf(f); break;
      case ScalarKind::BF16: out.as<uint16_t>()[i] = rtz ? floatToBf16Rtz(f) : floatToBf16(f); break;
      default:  // fp8: one rounding from the operand's value; rtz (e5m2 only, the verifier's rule)
                // keeps the top byte of the f16 rounded toward zero, as Triton's conversion does
        if (out.type.isFp8())
          out.as<uint8_t>()[i] = rtz && !std::isnan(v) ? uint8_t(floatToHalfRtz(f) >> 8) : ir::fp8FromDouble(v, to);
        break;
    }
  }
}

template <typename I>
void floatToInt(const Tile& in, Tile& out) {
  I* o = out.as<I>();
  for (int64_t i = 0, n = out.size(); i < n; ++i) o[i] = saturatingCast<I>(elementAsDouble(in, i));
}

// The provenance of pointers made from integers: the region holding every lane's address (a
// buffer of the launch, or an allocation the resolver maps: AddressResolver), so arithmetic
// from there is bounds-checked against it as for an argument's pointer. Null when lanes lie in
// different regions, outside every one, or in an allocation of several overlapping buffers
// (any of which may hold a later access); such pointers find their region per access.
const MemRegion* addressProvenance(Program& p, const uint64_t* a, int64_t n) {
  MemRegion* home = nullptr;
  for (int64_t i = 0; i < n; ++i) {
    if (home && a[i] >= home->base && a[i] < home->end) continue;
    MemRegion* r = p.launch.memory.lookup(a[i], a[i] + 1);
    if (!r || (home && r != home)) return nullptr;
    home = r;
  }
  if (!home) return nullptr;
  for (const MemRegion& r : p.launch.memory.regions())
    if (&r != home && r.alloc == home->alloc) return nullptr;
  return home;
}

}  // namespace

void execCast(Program& p, const Instr& ins, const Tile& in, Tile& out) {
  const ir::Op& op = *ins.op;
  out = allocTile(p.arena, op.result()->type);
  int64_t n = out.size();
  ScalarKind from = in.type.elem().kind, to = out.type.elem().kind;
  switch (op.code) {
    case Opcode::PtrToInt:
    case Opcode::IntToPtr:
    case Opcode::Bitcast:
      if (op.code == Opcode::Bitcast) out.provenance = in.provenance;
      std::memcpy(out.data, in.data, size_t(n) * storageBytes(to));
      if (op.code == Opcode::IntToPtr) out.provenance = addressProvenance(p, out.as<uint64_t>(), n);
      break;
    case Opcode::ExtSI:
      for (int64_t i = 0; i < n; ++i) storeInt(out, i, from == ScalarKind::I1 ? -elementAsInt(in, i) : elementAsInt(in, i));
      break;
    case Opcode::ExtUI: {
      unsigned bits = ir::bitWidth(from);
      uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
      for (int64_t i = 0; i < n; ++i) storeInt(out, i, int64_t(uint64_t(elementAsInt(in, i)) & mask));
      break;
    }
    case Opcode::TruncI:
      for (int64_t i = 0; i < n; ++i) storeInt(out, i, elementAsInt(in, i));
      break;
    case Opcode::ExtF:
      // The common widenings in vectorized loops (FastMath.h), the rest element by element.
      if (from == ScalarKind::F16 && to == ScalarKind::F32) halfToFloats(in.as<uint16_t>(), out.as<float>(), n);
      else if (from == ScalarKind::BF16 && to == ScalarKind::F32) bf16ToFloats(in.as<uint16_t>(), out.as<float>(), n);
      else
        for (int64_t i = 0; i < n; ++i) storeDouble(out, i, elementAsDouble(in, i));
      break;
    case Opcode::TruncF: {
      const std::string* r = op.strAttr("rounding");
      bool rtz = r && *r == "rtz";
      if (!rtz && from == ScalarKind::F32 && to == ScalarKind::F16) floatsToHalf(in.as<float>(), out.as<uint16_t>(), n);
      else if (!rtz && from == ScalarKind::F32 && to == ScalarKind::BF16) floatsToBf16(in.as<float>(), out.as<uint16_t>(), n);
      else truncFloat(in, out, rtz);
      break;
    }
    case Opcode::SIToFP:
    case Opcode::UIToFP: {
      unsigned bits = ir::bitWidth(from);
      for (int64_t i = 0; i < n; ++i) {
        int64_t v = elementAsInt(in, i);
        if (op.code == Opcode::UIToFP && bits < 64) v &= int64_t((uint64_t(1) << bits) - 1);
        if (op.code == Opcode::UIToFP && bits == 64) {
          uint64_t u = uint64_t(v);
          if (to == ScalarKind::F64) out.as<double>()[i] = double(u);
          else storeDouble(out, i, double(float(u)));
          continue;
        }
        if (to == ScalarKind::F32) out.as<float>()[i] = float(v);
        else if (to == ScalarKind::F64) out.as<double>()[i] = double(v);
        else storeDouble(out, i, double(float(v)));
      }
      break;
    }
    case Opcode::FPToSI:
      switch (to) {
        case ScalarKind::I1: for (int64_t i = 0; i < n; ++i) out.as<uint8_t>()[i] = elementAsDouble(in, i) != 0; break;
        case ScalarKind::I8: floatToInt<int8_t>(in, out); break;
        case ScalarKind::I16: floatToInt<int16_t>(in, out); break;
        case ScalarKind::I32: floatToInt<int32_t>(in, out); break;
        default: floatToInt<int64_t>(in, out); break;
      }
      break;
    case Opcode::FPToUI:
      switch (to) {
        case ScalarKind::I1: for (int64_t i = 0; i < n; ++i) out.as<uint8_t>()[i] = elementAsDouble(in, i) != 0; break;
        case ScalarKind::I8: floatToInt<uint8_t>(in, out); break;
        case ScalarKind::I16: floatToInt<uint16_t>(in, out); break;
        case ScalarKind::I32: floatToInt<uint32_t>(in, out); break;
        default: floatToInt<uint64_t>(in, out); break;
      }
      break;
#define TILEVM_CASES_NOT_OF Cast
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execCast", op.code);
  }
  propagatePoison(p, {&in}, out);
}

void execShape(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& outs) {
  const ir::Op& op = *ins.op;
  Tile& out = *outs[0];
  if (op.code == Opcode::ExpandDims || op.code == Opcode::Reshape) {
    // The same elements in the same order: the result shares the operand's memory (tiles are
    // never written after the op that made them).
    out = *in[0];
    out.type = op.result()->type;
    return;
  }
  out = allocTile(p.arena, op.result()->type);
  int64_t n = out.size();
  std::span<const int64_t> shape = out.type.shape();
  switch (op.code) {
    case Opcode::Constant:
      fillConstant(out, *op.attr("value"));
      break;
    case Opcode::Arange: {
      int32_t start = int32_t(*op.intAttr("start"));
      int32_t* o = out.as<int32_t>();
      for (int64_t i = 0; i < n; ++i) o[i] = start + int32_t(i);
      break;
    }
    case Opcode::Splat:
      moveWithPoison(p, *in[0], out, [&](const uint8_t* s, uint8_t* d, unsigned eb) { fillElement(d, s, eb, n); });
      break;
    case Opcode::Broadcast: {
      std::vector<int64_t> srcStride = rowMajorStrides(in[0]->type.shape());
      for (size_t d = 0; d < shape.size(); ++d)
        if (in[0]->type.dim(unsigned(d)) == 1 && shape[d] != 1) srcStride[d] = 0;
      moveWithPoison(p, *in[0], out, [&](const uint8_t* s, uint8_t* d, unsigned eb) { gatherStrided(s, d, eb, shape, srcStride); });
      break;
    }
    case Opcode::ExpandDims:
    case Opcode::Reshape:
      break;  // above
    case Opcode::Permute: {
      const auto& order = *op.intsAttr("order");
      std::vector<int64_t> inStride = rowMajorStrides(in[0]->type.shape()), srcStride;
      for (int64_t d : order) srcStride.push_back(inStride[size_t(d)]);
      moveWithPoison(p, *in[0], out, [&](const uint8_t* s, uint8_t* d, unsigned eb) { gatherStrided(s, d, eb, shape, srcStride); });
      break;
    }
    case Opcode::Flip: {
      // Rows of `inner` elements, in `outer` blocks of `size` rows: row j of a block is row
      // size - 1 - j of the operand's block.
      size_t dim = size_t(*op.intAttr("dim"));
      int64_t outer = 1, size = shape[dim], inner = 1;
      for (size_t d = 0; d < dim; ++d) outer *= shape[d];
      for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
      moveWithPoison(p, *in[0], out, [&](const uint8_t* s, uint8_t* d, unsigned eb) {
        size_t row = size_t(inner) * eb;
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t j = 0; j < size; ++j)
            std::memcpy(d + size_t(o * size + j) * row, s + size_t(o * size + size - 1 - j) * row, row);
      });
      break;
    }
    case Opcode::Cat: {
      out.provenance = in[0]->provenance == in[1]->provenance ? in[0]->provenance : nullptr;
      unsigned eb = storageBytes(out.type.elem().kind);
      size_t half = size_t(in[0]->size()) * eb;
      std::memcpy(out.data, in[0]->data, half);
      std::memcpy(out.data + half, in[1]->data, half);
      if (in[0]->poison || in[1]->poison) {
        out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
        for (int k = 0; k < 2; ++k) {
          uint8_t* dst = out.poison + k * in[0]->size();
          if (in[k]->poison) std::memcpy(dst, in[k]->poison, size_t(in[0]->size()));
          else std::memset(dst, 0, size_t(in[0]->size()));
        }
      }
      break;
    }
    case Opcode::Join: {
      out.provenance = in[0]->provenance == in[1]->provenance ? in[0]->provenance : nullptr;
      unsigned eb = storageBytes(out.type.elem().kind);
      int64_t m = in[0]->size();
      for (int64_t i = 0; i < m; ++i) {
        std::memcpy(out.data + size_t(2 * i) * eb, in[0]->data + size_t(i) * eb, eb);
        std::memcpy(out.data + size_t(2 * i + 1) * eb, in[1]->data + size_t(i) * eb, eb);
      }
      if (in[0]->poison || in[1]->poison) {
        out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
        for (int64_t i = 0; i < m; ++i) {
          out.poison[2 * i] = in[0]->poison ? in[0]->poison[i] : 0;
          out.poison[2 * i + 1] = in[1]->poison ? in[1]->poison[i] : 0;
        }
      }
      break;
    }
    case Opcode::Split: {
      *outs[1] = allocTile(p.arena, op.result(1)->type);
      unsigned eb = storageBytes(out.type.elem().kind);
      for (int k = 0; k < 2; ++k) {
        Tile& o = *outs[size_t(k)];
        o.provenance = in[0]->provenance;
        for (int64_t i = 0; i < n; ++i) std::memcpy(o.data + size_t(i) * eb, in[0]->data + size_t(2 * i + k) * eb, eb);
        if (in[0]->poison) {
          o.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
          for (int64_t i = 0; i < n; ++i) o.poison[i] = in[0]->poison[2 * i + k];
        }
      }
      break;
    }
#define TILEVM_CASES_NOT_OF Shape
#include "ir/FamilyCases.inc"
      ir::opNotInFamily("interp::execShape", op.code);
  }
}

void execSelect(Program& p, const std::vector<const Tile*>& in, Tile& out, const ir::Type& type) {
  out = allocTile(p.arena, type);
  int64_t n = out.size();
  out.provenance = in[1]->provenance == in[2]->provenance ? in[1]->provenance : nullptr;
  unsigned eb = storageBytes(out.type.elem().kind);
  const uint8_t* c = in[0]->data;
  // Typed loops (they vectorize): element i from in[1] where c[i], else from in[2].
  auto choose = [&](auto tag) {
    using T = decltype(tag);
    const T* a = in[1]->as<T>();
    const T* b = in[2]->as<T>();
    T* o = out.as<T>();
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
  };
  switch (eb) {
    case 1: choose(uint8_t{}); break;
    case 2: choose(uint16_t{}); break;
    case 4: choose(uint32_t{}); break;
    default: choose(uint64_t{}); break;
  }
  if (in[0]->poison || in[1]->poison || in[2]->poison) {
    out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
    for (int64_t i = 0; i < n; ++i) {
      const Tile* chosen = c[i] ? in[1] : in[2];
      out.poison[i] = uint8_t((in[0]->poison && in[0]->poison[i]) || (chosen->poison && chosen->poison[i]));
    }
  }
}

}  // namespace tilevm::interp

// Affine.cpp - the symbolic rules (one per op that keeps index tiles affine), range checks
// that keep values exact, materialization, and the layout of symbolic pointer tiles.
#include "interpreter/Affine.h"
#include "interpreter/FastMath.h"
#include "interpreter/Views.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

using i128 = __int128;

bool isUniform(const Tile& t) {
  for (unsigned d = 0; d < t.type.rank(); ++d)
    if (t.affine.stride[d] != 0 && t.type.dim(d) != 1) return false;
  return true;
}

// Do all values of the form fit the element kind (and int64 storage), and every partial sum
// of it (so materializing never overflows)?
bool fits(const Tile& t) {
  for (unsigned d = 0; d < t.type.rank(); ++d) {
    i128 span = i128(t.affine.stride[d]) * (t.type.dim(d) - 1);
    if (span > INT64_MAX || span < -i128(INT64_MAX)) return false;
  }
  AffineRange r = affineRange(t);
  switch (t.type.elem().kind) {
    case ScalarKind::I32: return r.lo >= INT32_MIN && r.hi <= INT32_MAX;
    case ScalarKind::I64: return r.lo >= INT64_MIN && r.hi <= INT64_MAX;
    case ScalarKind::Ptr: return r.lo >= 0 && r.hi <= INT64_MAX;
    default: return false;
  }
}

bool toInt64(i128 v, int64_t& out) {
  if (v < INT64_MIN || v > INT64_MAX) return false;
  out = int64_t(v);
  return true;
}

// out = a + scale * b, element by element (scale: 1, -1 or a pointee size); false on overflow.
bool combine(const Tile& a, const Tile& b, i128 scale, Tile& out) {
  if (!toInt64(i128(a.affine.base) + scale * b.affine.base, out.affine.base)) return false;
  for (unsigned d = 0; d < out.type.rank(); ++d)
    if (!toInt64(i128(a.affine.stride[d]) + scale * b.affine.stride[d], out.affine.stride[d])) return false;
  return true;
}

bool scaleBy(const Tile& a, i128 c, Tile& out) {
  if (!toInt64(c * a.affine.base, out.affine.base)) return false;
  for (unsigned d = 0; d < out.type.rank(); ++d)
    if (!toInt64(c * a.affine.stride[d], out.affine.stride[d])) return false;
  return true;
}

void startSymbolic(Tile& out, const ir::Type& type) {
  out = Tile{};
  out.type = type;
  out.symbolic = true;
}

// Calls f with the test of `rel` (eq ne lt le gt ge) on a difference against 0, chosen once, for
// any integer type (i128 ends, int64 lanes).
template <typename F>
void withRelation(std::string_view rel, F&& f) {
  if (rel == "eq") f([](auto v) { return v == 0; });
  else if (rel == "ne") f([](auto v) { return v != 0; });
  else if (rel == "lt") f([](auto v) { return v < 0; });
  else if (rel == "le") f([](auto v) { return v <= 0; });
  else if (rel == "gt") f([](auto v) { return v > 0; });
  else f([](auto v) { return v >= 0; });
}

// A comparison of two symbolic tiles: the sign of their exact difference decides each lane.
bool compare(const std::string& pred, const Tile& a, const Tile& b, Arena& arena, Tile& out, const ir::Type& type) {
  AffineRange ra = affineRange(a), rb = affineRange(b);
  bool isUnsigned = pred[0] == 'u';
  if (isUnsigned && (ra.lo < 0 || rb.lo < 0)) return false;  // unsigned order = signed order only for values >= 0
  Tile diff;
  diff.type = ir::Type::tile(ScalarKind::I64, a.type.shape());
  if (!combine(a, b, -1, diff) || !fits(diff)) return false;
  // The predicate as a relation of the difference to 0 (unsigned ones, on values >= 0, as signed).
  const std::string_view rel = pred == "eq" || pred == "ne" ? std::string_view(pred) : std::string_view(pred).substr(1);
  const bool ordered = rel != "eq" && rel != "ne";
  const AffineRange r = affineRange(diff);
  withRelation(rel, [&](auto holds) {
    const uint8_t atLo = holds(r.lo), atHi = holds(r.hi);
    // One difference for all lanes, or an order predicate (monotone) equal at both ends.
    if (r.lo == r.hi || (atLo == atHi && ordered)) {
      // One value for every lane: a uniform symbolic mask (loads and stores read it as such).
      startSymbolic(out, type);
      out.affine.base = atLo;
      return;
    }
    // Lane by lane, with the relation chosen once (a row's tail mask, `cols < n`, on every row).
    out = allocTile(arena, type);
    const int64_t n = out.size();
    if (diff.type.rank() == 1) {  // lane i: base + i stride, no materialized difference
      const int64_t base = int64_t(diff.affine.base), stride = diff.affine.stride[0];
      auto at = [&](int64_t i) { return uint8_t(holds(base + i * stride)); };
      if (ordered && n > 1) {
        // Monotone in i, and not uniform (that returned above): one change, found by bisection;
        // the lanes before it hold lane 0's value, the rest the other (a tail mask is a prefix).
        const uint8_t first = at(0);
        int64_t lo = 0, hi = n - 1;  // at(lo) == first, at(hi) != first
        while (hi - lo > 1) {
          const int64_t mid = lo + (hi - lo) / 2;
          (at(mid) == first ? lo : hi) = mid;
        }
        std::memset(out.data, first, size_t(hi));
        std::memset(out.data + hi, !first, size_t(n - hi));
        return;
      }
      for (int64_t i = 0; i < n; ++i) out.data[i] = at(i);
      return;
    }
    Tile values = materialize(arena, diff);
    const int64_t* v = values.as<int64_t>();
    for (int64_t i = 0; i < n; ++i) out.data[i] = uint8_t(holds(v[i]));
  });
  return true;
}

}  // namespace

AffineRange affineRange(const Tile& t) {
  i128 lo = t.affine.base, hi = t.affine.base;
  for (unsigned d = 0; d < t.type.rank(); ++d) {
    i128 span = i128(t.affine.stride[d]) * (t.type.dim(d) - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

bool symbolicKind(ScalarKind k) { return k == ScalarKind::I32 || k == ScalarKind::I64 || k == ScalarKind::Ptr; }

bool hasAffineRule(Opcode code) {
  switch (code) {
    case Opcode::Arange: case Opcode::Splat: case Opcode::Broadcast: case Opcode::ExpandDims: case Opcode::Reshape:
    case Opcode::Permute: case Opcode::AddI: case Opcode::SubI: case Opcode::MulI: case Opcode::AddPtr:
    case Opcode::ExtSI: case Opcode::ExtUI: case Opcode::TruncI: case Opcode::RemSI: case Opcode::RemUI:
    case Opcode::DivSI: case Opcode::DivUI: case Opcode::CmpI:
      return true;
    default:
      return false;
  }
}

bool tryAffine(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out) {
  const ir::Op& op = *ins.op;
  const ir::Type& type = op.result()->type;
  if (op.code == Opcode::CmpI)
    return in[0]->symbolic && in[1]->symbolic && compare(*op.strAttr("pred"), *in[0], *in[1], p.arena, out, type);
  // Symbolic i1 tiles are uniform masks: only shape ops keep them symbolic.
  const bool shapeOp = op.code == Opcode::Broadcast || op.code == Opcode::ExpandDims || op.code == Opcode::Reshape ||
                       op.code == Opcode::Permute;
  if (type.isScalar() || !(symbolicKind(type.elem().kind) || (shapeOp && type.elem().kind == ScalarKind::I1))) return false;
  for (const Tile* t : in)
    if (t->symbolic && t->type.elem().kind == ScalarKind::I1 && !shapeOp) return false;
  switch (op.code) {
    case Opcode::Arange:
      startSymbolic(out, type);
      out.affine.base = *op.intAttr("start");
      out.affine.stride[0] = 1;
      return fits(out);
    case Opcode::Splat: {
      const Tile& s = *in[0];
      if (s.poison || s.symbolic) return false;
      startSymbolic(out, type);
      out.affine.base = elementAsInt(s, 0);
      out.provenance = s.provenance;
      return fits(out);
    }
    default:
      break;
  }
  for (const Tile* t : in)
    if (!t->symbolic) return false;
  const Tile& a = *in[0];
  startSymbolic(out, type);
  out.provenance = a.provenance;
  switch (op.code) {
    case Opcode::Broadcast:
      for (unsigned d = 0; d < type.rank(); ++d) out.affine.stride[d] = a.type.dim(d) == 1 ? 0 : a.affine.stride[d];
      out.affine.base = a.affine.base;
      return true;
    case Opcode::ExpandDims: {
      auto axis = unsigned(*op.intAttr("axis"));
      out.affine.base = a.affine.base;
      for (unsigned d = 0, s = 0; d < type.rank(); ++d) out.affine.stride[d] = d == axis ? 0 : a.affine.stride[s++];
      return true;
    }
    case Opcode::Reshape: {
      // Only reshapes that add or drop size-1 dims keep the form.
      std::vector<int64_t> dims, strides;
      for (unsigned d = 0; d < a.type.rank(); ++d)
        if (a.type.dim(d) != 1) dims.push_back(a.type.dim(d)), strides.push_back(a.affine.stride[d]);
      size_t k = 0;
      for (unsigned d = 0; d < type.rank(); ++d) {
        if (type.dim(d) == 1) continue;
        if (k >= dims.size() || dims[k] != type.dim(d)) return false;
        out.affine.stride[d] = strides[k++];
      }
      out.affine.base = a.affine.base;
      return k == dims.size();
    }
    case Opcode::Permute: {
      const auto& order = *op.intsAttr("order");
      out.affine.base = a.affine.base;
      for (unsigned d = 0; d < type.rank(); ++d) out.affine.stride[d] = a.affine.stride[size_t(order[d])];
      return true;
    }
    case Opcode::AddI:
    case Opcode::SubI:
      return combine(a, *in[1], op.code == Opcode::AddI ? 1 : -1, out) && fits(out);
    case Opcode::MulI:
      if (isUniform(*in[1])) return scaleBy(a, in[1]->affine.base, out) && fits(out);
      if (isUniform(a)) return scaleBy(*in[1], a.affine.base, out) && fits(out);
      return false;
    case Opcode::AddPtr:
      return combine(a, *in[1], storageBytes(a.type.elem().pointee), out) && fits(out);
    case Opcode::ExtSI:
    case Opcode::TruncI:
      out.affine = a.affine;
      return fits(out);
    case Opcode::ExtUI:
      out.affine = a.affine;
      return affineRange(a).lo >= 0 && fits(out);
    case Opcode::RemSI:
    case Opcode::RemUI: {
      // x % c with every x in [0, c): x itself.
      if (!isUniform(*in[1]) || in[1]->affine.base <= 0) return false;
      AffineRange r = affineRange(a);
      out.affine = a.affine;
      return r.lo >= 0 && r.hi < in[1]->affine.base;
    }
    case Opcode::DivSI:
    case Opcode::DivUI: {
      // x / c with x >= 0 and every stride a multiple of c: floor division distributes.
      if (!isUniform(*in[1]) || in[1]->affine.base <= 0) return false;
      int64_t c = in[1]->affine.base;
      AffineRange r = affineRange(a);
      if (r.lo < 0) return false;
      if (r.lo / c == r.hi / c) {  // every lane in one bucket: a uniform result
        out.affine.base = int64_t(r.lo / c);
        return true;
      }
      // The base is a lane's value, so >= 0: (base + m * c) / c = base / c + m.
      out.affine.base = a.affine.base / c;
      for (unsigned d = 0; d < type.rank(); ++d) {
        if (a.affine.stride[d] % c != 0) return false;
        out.affine.stride[d] = a.affine.stride[d] / c;
      }
      return true;
    }
    default:
      return false;
  }
}

Tile materialize(Arena& arena, const Tile& t) {
  Tile out = allocTile(arena, t.type);
  out.provenance = t.provenance;
  if (t.view) {
    copyViewElements(t, out.data);
    return out;
  }
  const unsigned rank = t.type.rank();
  const int64_t n = out.size(), len = rank ? t.type.dim(rank - 1) : 1, step = rank ? t.affine.stride[rank - 1] : 0;
  if (rank == 0) {
    storeInt(out, 0, t.affine.base);
    return out;
  }
  std::array<int64_t, ir::kMaxRank> idx{};
  for (int64_t r = 0; r < n; r += len) {
    int64_t v = t.affine.base;
    for (unsigned d = 0; d + 1 < rank; ++d) v += idx[d] * t.affine.stride[d];
    if (t.type.elem().kind == ScalarKind::I1) {  // uniform masks only
      std::memset(out.data + r, int(v & 1), size_t(len));
    } else if (t.type.elem().kind == ScalarKind::I32) {
      int32_t* o = out.as<int32_t>() + r;
      for (int64_t j = 0; j < len; ++j) o[j] = int32_t(v + j * step);
    } else {
      int64_t* o = out.as<int64_t>() + r;
      for (int64_t j = 0; j < len; ++j) o[j] = v + j * step;
    }
    for (unsigned d = rank - 1; d-- > 0;) {  // advance the outer index
      if (++idx[d] < t.type.dim(d)) break;
      idx[d] = 0;
    }
  }
  return out;
}

AffineLayout affineLayout(const Tile& ptrs, unsigned eb) {
  AffineLayout l;
  const unsigned rank = ptrs.type.rank();
  l.misaligned = uint64_t(ptrs.affine.base);
  int64_t expected = eb;
  l.contiguous = true;
  for (unsigned d = rank; d-- > 0;) {
    if (ptrs.type.dim(d) == 1) continue;
    l.misaligned |= uint64_t(ptrs.affine.stride[d]);
    l.contiguous = l.contiguous && ptrs.affine.stride[d] == expected;
    expected *= ptrs.type.dim(d);
  }
  l.rowsContiguous = rank == 0 || ptrs.type.dim(rank - 1) == 1 || ptrs.affine.stride[rank - 1] == int64_t(eb);
  // A permutation of a contiguous block (a transposed load): strides, sorted, are dense.
  std::array<std::pair<int64_t, int64_t>, ir::kMaxRank> dims{};  // (stride, size) of non-unit dims
  unsigned count = 0;
  for (unsigned d = 0; d < rank; ++d)
    if (ptrs.type.dim(d) != 1) dims[count++] = {ptrs.affine.stride[d], ptrs.type.dim(d)};
  for (unsigned a = 1; a < count; ++a)  // insertion sort: at most kMaxRank entries
    for (unsigned b = a; b > 0 && dims[b] < dims[b - 1]; --b) std::swap(dims[b], dims[b - 1]);
  int64_t next = eb;
  l.denseSet = true;
  for (unsigned k = 0; k < count; ++k) {
    l.denseSet = l.denseSet && dims[k].first == next;
    next *= dims[k].second;
  }
  return l;
}

namespace {

// A rank-2 tile of 4-byte elements whose rows are transposed in memory (consecutive rows are
// consecutive elements, as for tl.load(p + j[None, :] * ld + i[:, None])): blocked transpose.
bool gatherTransposed(const Tile& ptrs, uint32_t* out) {
  if (ptrs.type.rank() != 2 || ptrs.affine.stride[0] != 4) return false;
  const int64_t rows = ptrs.type.dim(0), len = ptrs.type.dim(1), step = ptrs.affine.stride[1];
  // The source: `len` rows (the tile's columns) `step` bytes apart, `rows` contiguous elements each.
  transpose32(reinterpret_cast<const uint8_t*>(ptrs.affine.base), step, len, rows, out);
  return true;
}

template <typename T>
void gatherRows(const Tile& ptrs, T* out) {
  const unsigned rank = ptrs.type.rank();
  const int64_t len = ptrs.type.dim(rank - 1), step = ptrs.affine.stride[rank - 1];
  const int64_t rows = ptrs.size() / len;
  if constexpr (sizeof(T) == 4)
    if (gatherTransposed(ptrs, out)) return;
  std::array<int64_t, ir::kMaxRank> idx{};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t base = ptrs.affine.base;
    for (unsigned d = 0; d + 1 < rank; ++d) base += idx[d] * ptrs.affine.stride[d];
    const uint8_t* src = reinterpret_cast<const uint8_t*>(base);
    for (int64_t j = 0; j < len; ++j) std::memcpy(out + r * len + j, src + j * step, sizeof(T));
    for (unsigned d = rank - 1; d-- > 0;) {
      if (++idx[d] < ptrs.type.dim(d)) break;
      idx[d] = 0;
    }
  }
}
}  // namespace

void gatherAffine(const Tile& ptrs, unsigned eb, uint8_t* out) {
  if (ptrs.type.rank() == 0) {
    std::memcpy(out, reinterpret_cast<const void*>(ptrs.affine.base), eb);
    return;
  }
  switch (eb) {
    case 1: gatherRows(ptrs, out); break;
    case 2: gatherRows(ptrs, reinterpret_cast<uint16_t*>(out)); break;
    case 4: gatherRows(ptrs, reinterpret_cast<uint32_t*>(out)); break;
    default: gatherRows(ptrs, reinterpret_cast<uint64_t*>(out)); break;
  }
}

void affineRowStarts(const Tile& ptrs, uint64_t* rows) {
  const unsigned rank = ptrs.type.rank();
  if (rank == 0) {
    rows[0] = uint64_t(ptrs.affine.base);
    return;
  }
  int64_t outer = 1;
  for (unsigned d = 0; d + 1 < rank; ++d) outer *= ptrs.type.dim(d);
  std::array<int64_t, ir::kMaxRank> idx{};
  for (int64_t r = 0; r < outer; ++r) {
    int64_t v = ptrs.affine.base;
    for (unsigned d = 0; d + 1 < rank; ++d) v += idx[d] * ptrs.affine.stride[d];
    rows[r] = uint64_t(v);
    for (unsigned d = rank - 1; d-- > 0;) {
      if (++idx[d] < ptrs.type.dim(d)) break;
      idx[d] = 0;
    }
  }
}

}  // namespace tilevm::interp

// OpsReduce.cpp - reduce, scan, histogram and dot. Reductions use one fixed order, the same on every path:
// a halving tree along the axis (while m > 1: h = ceil(m/2); x[k] = f(x[k], x[k+h]) for
// k < m-h; m = h), so results never depend on threads or on which path ran. Combiners that are
// a single known op run as typed loops; any other combiner runs its region per pair. Scans are
// sequential along the axis. dot accumulates over k in ascending order into the accumulator
// (an f16 one in steps of K, ir::accumulatesInHalf).
#include <algorithm>
#include <cmath>

#include <immintrin.h>

#include "interpreter/Exec.h"
#include "interpreter/FastMath.h"

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

struct AxisShape {
  int64_t outer = 1, len = 1, inner = 1;
};

AxisShape splitAt(const ir::Type& t, int64_t axis) {
  AxisShape s;
  for (unsigned d = 0; d < t.rank(); ++d) {
    if (int64_t(d) < axis) s.outer *= t.dim(d);
    else if (int64_t(d) == axis) s.len = t.dim(d);
    else s.inner *= t.dim(d);
  }
  return s;
}

// The combiner's single op, if the region is `r = OP(a0, b0); yield r` over one input.
const ir::Op* simpleCombiner(const ir::Op& op) {
  const ir::Block& b = op.regions[0]->block;
  if (b.args.size() != 2 || b.ops.size() != 2) return nullptr;
  const ir::Op& f = *b.ops[0];
  const ir::Op& y = *b.ops[1];
  if (y.operands.size() != 1 || y.operands[0] != f.result()) return nullptr;
  if (f.operands.size() != 2) return nullptr;
  bool direct = f.operands[0] == b.args[0].get() && f.operands[1] == b.args[1].get();
  bool swapped = f.operands[0] == b.args[1].get() && f.operands[1] == b.args[0].get();
  if (!direct && !(swapped && hasTrait(f.code, ir::Commutative))) return nullptr;
  switch (f.code) {
    case Opcode::AddF: case Opcode::MulF: case Opcode::MaxNumF: case Opcode::MinNumF: case Opcode::MaximumF:
    case Opcode::MinimumF: case Opcode::AddI: case Opcode::MulI: case Opcode::MaxSI: case Opcode::MinSI:
    case Opcode::MaxUI: case Opcode::MinUI: case Opcode::AndI: case Opcode::OrI: case Opcode::XorI:
      return &f;
    default:
      return nullptr;
  }
}

template <typename T>
auto binaryFn(Opcode code) {
  using S = std::conditional_t<std::is_same_v<T, uint8_t>, int8_t, T>;
  return [code](T x, T y) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      switch (code) {
        case Opcode::AddF: return x + y;
        case Opcode::MulF: return x * y;
        case Opcode::MaxNumF: return maxNum(x, y);
        case Opcode::MinNumF: return minNum(x, y);
        case Opcode::MaximumF: return (std::isnan(x) || std::isnan(y)) ? std::numeric_limits<T>::quiet_NaN() : (x == y ? (std::signbit(x) ? y : x) : (x > y ? x : y));
        case Opcode::MinimumF: return (std::isnan(x) || std::isnan(y)) ? std::numeric_limits<T>::quiet_NaN() : (x == y ? (std::signbit(x) ? x : y) : (x < y ? x : y));
        default: return x;
      }
    } else {
      using U = std::make_unsigned_t<S>;
      T r = x;
      switch (code) {
        case Opcode::AddI: r = T(U(x) + U(y)); break;
        case Opcode::MulI: r = T(uint64_t(U(x)) * U(y)); break;  // no promotion to int
        case Opcode::MaxSI: r = S(x) > S(y) ? x : y; break;
        case Opcode::MinSI: r = S(x) < S(y) ? x : y; break;
        case Opcode::MaxUI: r = U(x) > U(y) ? x : y; break;
        case Opcode::MinUI: r = U(x) < U(y) ? x : y; break;
        case Opcode::AndI: r = T(x & y); break;
        case Opcode::OrI: r = T(x | y); break;
        case Opcode::XorI: r = T(x ^ y); break;
        default: break;
      }
      if constexpr (std::is_same_v<T, uint8_t>) r &= 1;
      return r;
    }
  };
}

// The halving tree over `w` (outer x len x inner, rows keep stride len*inner).
template <typename Combine>
void halvingTree(const AxisShape& s, Combine&& combine) {
  for (int64_t m = s.len; m > 1;) {
    int64_t h = (m + 1) / 2;
    for (int64_t o = 0; o < s.outer; ++o) combine((o * s.len) * s.inner, (o * s.len + h) * s.inner, (m - h) * s.inner);
    m = h;
  }
}

// One reduction with the combiner fixed at compile time (so the loops vectorize).
template <typename T, Opcode C>
void reduceWith(const Tile& in, Tile& out, const AxisShape& s, Arena& arena) {
  T* w = static_cast<T*>(arena.allocate(size_t(in.size()) * sizeof(T)));
  auto f = [](T x, T y) { return binaryFn<T>(C)(x, y); };
  if (s.inner == 1 && s.outer >= 8) {
    // Reducing the last axis of many rows: transpose so each tree step combines whole columns
    // of rows (long contiguous loops instead of short ones per row); the combine order per row
    // is the same tree.
    const T* x = in.as<T>();
    if constexpr (sizeof(T) == 4) {
      transpose32(in.data, s.len * 4, s.outer, s.len, reinterpret_cast<uint32_t*>(w));
    } else {
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t k = 0; k < s.len; ++k) w[k * s.outer + o] = x[o * s.len + k];
    }
    for (int64_t m = s.len; m > 1;) {
      int64_t h = (m + 1) / 2;
      for (int64_t k = 0; k < m - h; ++k) {
        T* a = w + k * s.outer;
        const T* b = w + (k + h) * s.outer;
        for (int64_t o = 0; o < s.outer; ++o) a[o] = f(a[o], b[o]);
      }
      m = h;
    }
    std::memcpy(out.data, w, size_t(s.outer) * sizeof(T));
    return;
  }
  // The tree's first step reads the input and writes its h = ceil(len/2) results per row into
  // w; the later steps run in w.
  const T* x = in.as<T>();
  const int64_t h = (s.len + 1) / 2, pairs = (s.len - h) * s.inner, half = h * s.inner;
  for (int64_t r = 0; r < s.outer; ++r) {
    const T* xr = x + r * s.len * s.inner;
    T* wr = w + r * half;
    for (int64_t j = 0; j < pairs; ++j) wr[j] = f(xr[j], xr[half + j]);
    std::memcpy(wr + pairs, xr + pairs, size_t(half - pairs) * sizeof(T));  // the middle row when len is odd
  }
  AxisShape rest = s;
  rest.len = h;
  halvingTree(rest, [&](int64_t a, int64_t b, int64_t count) {
    T* xa = w + a;
    const T* yb = w + b;
    for (int64_t j = 0; j < count; ++j) xa[j] = f(xa[j], yb[j]);
  });
  T* o = out.as<T>();
  for (int64_t r = 0; r < s.outer; ++r) std::memcpy(o + r * s.inner, w + r * h * s.inner, size_t(s.inner) * sizeof(T));
}

// A reduction whose combiner is one known op, as typed loops.
template <typename T>
bool fastReduce(const Tile& in, Tile& out, const AxisShape& s, Opcode code, Arena& arena) {
  switch (code) {
#define TILEVM_REDUCE_CASE(OP) \
  case Opcode::OP: reduceWith<T, Opcode::OP>(in, out, s, arena); return true;
    TILEVM_REDUCE_CASE(AddF) TILEVM_REDUCE_CASE(MulF) TILEVM_REDUCE_CASE(MaxNumF) TILEVM_REDUCE_CASE(MinNumF)
    TILEVM_REDUCE_CASE(MaximumF) TILEVM_REDUCE_CASE(MinimumF) TILEVM_REDUCE_CASE(AddI) TILEVM_REDUCE_CASE(MulI)
    TILEVM_REDUCE_CASE(MaxSI) TILEVM_REDUCE_CASE(MinSI) TILEVM_REDUCE_CASE(MaxUI) TILEVM_REDUCE_CASE(MinUI)
    TILEVM_REDUCE_CASE(AndI) TILEVM_REDUCE_CASE(OrI) TILEVM_REDUCE_CASE(XorI)
#undef TILEVM_REDUCE_CASE
    default: return false;
  }
}

// Runs a combiner region on elements (i of lhs, j of rhs), writing results into lhs[i].
void combineByRegion(Program& p, const Instr& ins, std::vector<Tile>& work, int64_t i, int64_t j) {
  const CBlock& region = ins.regions[0];
  size_t n = work.size();
  Arena::Mark mark = p.arena.mark();
  for (size_t k = 0; k < n; ++k) {
    unsigned eb = storageBytes(work[k].type.elem().kind);
    for (int side = 0; side < 2; ++side) {
      Tile t = allocTile(p.arena, ir::Type(work[k].type.elem()));
      std::memcpy(t.data, work[k].data + size_t(side ? j : i) * eb, eb);
      p.slots[region.args[side * n + k]] = t;
    }
  }
  execBlock(p, region);
  const Instr& y = region.instrs.back();
  for (size_t k = 0; k < n; ++k) {
    unsigned eb = storageBytes(work[k].type.elem().kind);
    std::memcpy(work[k].data + size_t(i) * eb, p.slots[y.in[k]].data, eb);
  }
  p.arena.release(mark);
}

void poisonAlongAxis(Program& p, const std::vector<const Tile*>& in, std::vector<Tile*>& outs, const AxisShape& s, bool scan) {
  bool any = false;
  for (const Tile* t : in) any = any || t->poison;
  if (!any) return;
  int64_t n = scan ? in[0]->size() : s.outer * s.inner;
  uint8_t* mask = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
  std::memset(mask, 0, size_t(n));
  for (const Tile* t : in) {
    if (!t->poison) continue;
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t k = 0; k < s.len; ++k)
        for (int64_t i = 0; i < s.inner; ++i)
          if (t->poison[(o * s.len + k) * s.inner + i]) mask[scan ? (o * s.len + k) * s.inner + i : o * s.inner + i] = 1;
  }
  for (Tile* t : outs) t->poison = mask;
}

}  // namespace

void execReduce(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& outs) {
  const ir::Op& op = *ins.op;
  int64_t axis = *op.intAttr("axis");
  AxisShape s = splitAt(in[0]->type, axis);
  for (size_t k = 0; k < outs.size(); ++k) *outs[k] = allocTile(p.arena, op.result(unsigned(k))->type);
  bool done = false;
  if (in.size() == 1) {
    if (const ir::Op* f = simpleCombiner(op)) {
      switch (in[0]->type.elem().kind) {
        case ScalarKind::I1: done = fastReduce<uint8_t>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::I8: done = fastReduce<int8_t>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::I16: done = fastReduce<int16_t>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::I32: done = fastReduce<int32_t>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::I64: done = fastReduce<int64_t>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::F32: done = fastReduce<float>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::F64: done = fastReduce<double>(*in[0], *outs[0], s, f->code, p.arena); break;
        case ScalarKind::F16:
        case ScalarKind::BF16:
        case ScalarKind::Ptr:
        case ScalarKind::F8E5:
        case ScalarKind::F8E4NV:
        case ScalarKind::F8E4B15:
        case ScalarKind::F8E5B16:
        case ScalarKind::F8E4B8: break;
      }
    }
  }
  if (!done) {
    // Working copies (allocated before the per-pair arena marks), then the same tree.
    std::vector<Tile> work;
    for (const Tile* t : in) {
      Tile w = allocTile(p.arena, t->type);
      std::memcpy(w.data, t->data, size_t(t->size()) * storageBytes(t->type.elem().kind));
      work.push_back(w);
    }
    halvingTree(s, [&](int64_t a, int64_t b, int64_t count) {
      for (int64_t j = 0; j < count; ++j) combineByRegion(p, ins, work, a + j, b + j);
    });
    for (size_t k = 0; k < outs.size(); ++k) {
      unsigned eb = storageBytes(work[k].type.elem().kind);
      for (int64_t r = 0; r < s.outer; ++r)
        std::memcpy(outs[k]->data + size_t(r * s.inner) * eb, work[k].data + size_t(r * s.len * s.inner) * eb, size_t(s.inner) * eb);
    }
  }
  poisonAlongAxis(p, in, outs, s, false);
}

void execScan(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& outs) {
  const ir::Op& op = *ins.op;
  int64_t axis = *op.intAttr("axis");
  bool reverse = op.intAttr("reverse") && *op.intAttr("reverse");
  AxisShape s = splitAt(in[0]->type, axis);
  std::vector<Tile> work;
  for (size_t k = 0; k < in.size(); ++k) {
    *outs[k] = allocTile(p.arena, op.result(unsigned(k))->type);
    std::memcpy(outs[k]->data, in[k]->data, size_t(in[k]->size()) * storageBytes(in[k]->type.elem().kind));
    work.push_back(*outs[k]);
  }
  const ir::Op* f = in.size() == 1 ? simpleCombiner(op) : nullptr;
  ScalarKind kind = in[0]->type.elem().kind;
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i)
      for (int64_t step = 1; step < s.len; ++step) {
        int64_t k = reverse ? s.len - 1 - step : step, prev = reverse ? k + 1 : k - 1;
        int64_t cur = (o * s.len + k) * s.inner + i, before = (o * s.len + prev) * s.inner + i;
        // result[k] = combine(result[k-1], x[k])
        if (f && kind == ScalarKind::F32) {
          float* x = work[0].as<float>();
          x[cur] = binaryFn<float>(f->code)(x[before], x[cur]);
        } else if (f && kind == ScalarKind::I32) {
          int32_t* x = work[0].as<int32_t>();
          x[cur] = binaryFn<int32_t>(f->code)(x[before], x[cur]);
        } else {
          // combine(prev, cur) with the region: copy prev into a scratch pair.
          std::vector<Tile> pair;
          Arena::Mark mark = p.arena.mark();
          for (Tile& w : work) {
            Tile t = allocTile(p.arena, ir::Type(w.type.elem(), std::vector<int64_t>{2}));
            unsigned eb = storageBytes(w.type.elem().kind);
            std::memcpy(t.data, w.data + size_t(before) * eb, eb);
            std::memcpy(t.data + eb, w.data + size_t(cur) * eb, eb);
            pair.push_back(t);
          }
          combineByRegion(p, ins, pair, 0, 1);
          for (size_t q = 0; q < work.size(); ++q) {
            unsigned eb = storageBytes(work[q].type.elem().kind);
            std::memcpy(work[q].data + size_t(cur) * eb, pair[q].data, eb);
          }
          p.arena.release(mark);
        }
      }
  poisonAlongAxis(p, in, outs, s, true);
}

namespace {

// Converts a tile of dot inputs to float into v (f16/bf16 exactly; f32 rounded to tf32 if
// asked). Returns whether every product of two such values is exact in f32: f16 always (11
// significant bits, products within the normal range); tf32 when every value is 0 or within
// [2^-63, 2^63) (FastMath.h); otherwise false.
bool toFloats(const Tile& t, bool tf32, float* v) {
  size_t n = size_t(t.size());
  switch (t.type.elem().kind) {
    case ScalarKind::F32:
      if (tf32) return roundToTf32Floats(t.as<float>(), v, int64_t(n));
      std::memcpy(v, t.data, n * 4);
      return false;
    case ScalarKind::F16: for (size_t i = 0; i < n; ++i) v[i] = halfToFloat(t.as<uint16_t>()[i]); return true;
    case ScalarKind::BF16: for (size_t i = 0; i < n; ++i) v[i] = bf16ToFloat(t.as<uint16_t>()[i]); return false;
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8:  // at most 4 significant bits, products far inside f32's normal range
      for (size_t i = 0; i < n; ++i) v[i] = float(ir::fp8ToDouble(t.as<uint8_t>()[i], t.type.elem().kind));
      return true;
    default: for (size_t i = 0; i < n; ++i) v[i] = float(elementAsDouble(t, int64_t(i))); return false;
  }
}

std::vector<float> asFloats(const Tile& t, bool tf32 = false) {
  std::vector<float> v(size_t(t.size()));
  (void)toFloats(t, tf32, v.data());
  return v;
}

// f32 matrix product, the interpreter's hottest loop. Every (i, j) sums over k in ascending
// order starting from c, one multiply then one add per term (no FMA), so the AVX2 kernel and
// the portable one give the same bits.
void gemmF32Portable(const float* a, const float* b, float* c, int64_t M, int64_t N, int64_t K, int64_t i0, int64_t j0) {
  // Rows from i0 (all columns) and, for rows below i0, columns from j0.
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = (i < i0 ? j0 : 0); j < N; ++j) {
      float sum = c[i * N + j];
      for (int64_t k = 0; k < K; ++k) sum += a[i * K + k] * b[k * N + j];
      c[i * N + j] = sum;
    }
}

// One step of a term: fused (one FMA; used only when every product is exact in f32, so it
// rounds exactly what the separate add rounds) or multiply then add.
template <bool Fused>
__attribute__((target("avx2,fma"))) inline __m256 mulAdd(__m256 acc, __m256 x, __m256 y) {
  if constexpr (Fused) return _mm256_fmadd_ps(x, y, acc);
  else return _mm256_add_ps(acc, _mm256_mul_ps(x, y));
}
template <bool Fused>
__attribute__((target("avx512f"))) inline __m512 mulAdd(__m512 acc, __m512 x, __m512 y) {
  if constexpr (Fused) return _mm512_fmadd_ps(x, y, acc);
  else return _mm512_add_ps(acc, _mm512_mul_ps(x, y));
}

// R rows by 32 columns of C in 4R AVX2 registers across the k loop; b's four vectors serve
// every row. Returns the column where the blocked part stopped (rows below M - M % R are left).
template <bool Fused, int R>
__attribute__((target("avx2,fma"))) int64_t gemmF32Avx2(const float* a, const float* b, float* c, int64_t M, int64_t N,
                                                         int64_t K) {
  int64_t jEnd = N - N % 32;
  for (int64_t i = 0; i + R <= M; i += R)
    for (int64_t j0 = 0; j0 < jEnd; j0 += 32) {
      __m256 x[R][4];
      for (int r = 0; r < R; ++r)
        for (int v = 0; v < 4; ++v) x[r][v] = _mm256_loadu_ps(c + (i + r) * N + j0 + 8 * v);
      for (int64_t k = 0; k < K; ++k) {
        const float* br = b + k * N + j0;
        __m256 bv[4] = {_mm256_loadu_ps(br), _mm256_loadu_ps(br + 8), _mm256_loadu_ps(br + 16), _mm256_loadu_ps(br + 24)};
        for (auto& v : bv) asm("" : "+x"(v));  // keep b in registers: one load serves every row
        for (int r = 0; r < R; ++r) {
          __m256 s = _mm256_set1_ps(a[(i + r) * K + k]);
          for (int v = 0; v < 4; ++v) x[r][v] = mulAdd<Fused>(x[r][v], s, bv[v]);
        }
      }
      for (int r = 0; r < R; ++r)
        for (int v = 0; v < 4; ++v) _mm256_storeu_ps(c + (i + r) * N + j0 + 8 * v, x[r][v]);
    }
  return jEnd;
}

// The same with AVX-512: R rows by 64 columns. Same operations per element, same bits.
template <bool Fused, int R>
__attribute__((target("avx512f"))) int64_t gemmF32Avx512(const float* a, const float* b, float* c, int64_t M, int64_t N,
                                                         int64_t K) {
  int64_t jEnd = N - N % 64;
  for (int64_t i = 0; i + R <= M; i += R)
    for (int64_t j0 = 0; j0 < jEnd; j0 += 64) {
      __m512 x[R][4];
      for (int r = 0; r < R; ++r)
        for (int v = 0; v < 4; ++v) x[r][v] = _mm512_loadu_ps(c + (i + r) * N + j0 + 16 * v);
      for (int64_t k = 0; k < K; ++k) {
        const float* br = b + k * N + j0;
        __m512 bv[4] = {_mm512_loadu_ps(br), _mm512_loadu_ps(br + 16), _mm512_loadu_ps(br + 32), _mm512_loadu_ps(br + 48)};
        for (auto& v : bv) asm("" : "+v"(v));  // keep b in registers: one load serves every row
        for (int r = 0; r < R; ++r) {
          __m512 s = _mm512_set1_ps(a[(i + r) * K + k]);
          for (int v = 0; v < 4; ++v) x[r][v] = mulAdd<Fused>(x[r][v], s, bv[v]);
        }
      }
      for (int r = 0; r < R; ++r)
        for (int v = 0; v < 4; ++v) _mm512_storeu_ps(c + (i + r) * N + j0 + 16 * v, x[r][v]);
    }
  return jEnd;
}

// c += a @ b in f32. `exact`: every product a[i,k] * b[k,j] is exact in f32 (then the FMA
// kernels give the multiply-then-add bits, in half the floating-point operations; with
// AVX-512, four rows of accumulators keep the FMA latency hidden).
void gemmF32(const float* a, const float* b, float* c, int64_t M, int64_t N, int64_t K, bool exact) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx512 && N >= 64 && N % 64 == 0 && M >= 2) {
    const int rows = exact && M >= 4 ? 4 : 2;
    if (rows == 4) gemmF32Avx512<true, 4>(a, b, c, M, N, K);
    else gemmF32Avx512<false, 2>(a, b, c, M, N, K);
    gemmF32Portable(a, b, c, M, N, K, M - M % rows, N);  // the rows the blocks left
  } else if (avx2 && N >= 32 && M >= 2) {
    // Two rows (eight accumulators): four would not fit AVX2's sixteen registers.
    int64_t jEnd = exact ? gemmF32Avx2<true, 2>(a, b, c, M, N, K) : gemmF32Avx2<false, 2>(a, b, c, M, N, K);
    // What the blocked kernel left: the last row if M is odd, the columns past jEnd.
    gemmF32Portable(a, b, c, M, N, K, M - M % 2, jEnd);
  } else {
    gemmF32Portable(a, b, c, M, N, K, 0, 0);
  }
}

/// c += a @ b (row-major); `exact`: f32 inputs whose products are all exact in f32.
template <typename A, typename C>
void gemm(const A* a, const A* b, C* c, int64_t M, int64_t N, int64_t K, bool exact = false) {
  if constexpr (std::is_same_v<A, float> && std::is_same_v<C, float>) {
    gemmF32(a, b, c, M, N, K, exact);
    return;
  }
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k) {
      C aik = C(a[i * K + k]);
      C* crow = c + i * N;
      const A* brow = b + k * N;
      for (int64_t j = 0; j < N; ++j) crow[j] += aik * C(brow[j]);
    }
}

}  // namespace

namespace {

// One matrix product out = a @ b + acc (rank 2); `inPlace`: out's data is acc's.
void dotMatrix(Program& p, const ir::Op& op, const Tile& a, const Tile& b, const Tile& acc, Tile& out, bool inPlace) {
  int64_t M = a.type.dim(0), K = a.type.dim(1), N = b.type.dim(1);
  ScalarKind ak = a.type.elem().kind, ck = acc.type.elem().kind;
  const std::string* prec = op.strAttr("input_precision");
  if (ak == ScalarKind::I8) {
    std::memcpy(out.data, acc.data, size_t(M * N) * 4);
    std::vector<int32_t> av(size_t(M * K)), bv(size_t(K * N));
    for (int64_t i = 0; i < M * K; ++i) av[size_t(i)] = a.as<int8_t>()[i];
    for (int64_t i = 0; i < K * N; ++i) bv[size_t(i)] = b.as<int8_t>()[i];
    gemm(av.data(), bv.data(), out.as<int32_t>(), M, N, K);
  } else if (ak == ScalarKind::F64) {
    std::memcpy(out.data, acc.data, size_t(M * N) * 8);
    gemm(a.as<double>(), b.as<double>(), out.as<double>(), M, N, K);
  } else if (ak == ScalarKind::F32 && prec && *prec == "tf32x3") {
    // Triton's 3xTF32, the same terms in the same order as the three tf32 dots the frontend
    // writes for it (so the same bits): small(a) big(b) then big(a) small(b) from zero, their
    // NaNs zeroed, then big(a) big(b), then the accumulator (f32, as the verifier requires).
    std::vector<float> ah = asFloats(a, true), bh = asFloats(b, true), al(ah.size()), bl(bh.size());
    for (size_t i = 0; i < ah.size(); ++i) al[i] = roundToTf32(a.as<float>()[i] - ah[i]);
    for (size_t i = 0; i < bh.size(); ++i) bl[i] = roundToTf32(b.as<float>()[i] - bh[i]);
    std::vector<float> r(size_t(M * N), 0.0f);
    gemm(al.data(), bh.data(), r.data(), M, N, K);
    gemm(ah.data(), bl.data(), r.data(), M, N, K);
    for (float& x : r)
      if (std::isnan(x)) x = 0.0f;
    gemm(ah.data(), bh.data(), r.data(), M, N, K);
    for (int64_t i = 0; i < M * N; ++i) out.as<float>()[i] = r[size_t(i)] + acc.as<float>()[i];
  } else {
    std::string mode = ak == ScalarKind::F32 ? (prec ? *prec : "tf32") : "ieee";
    std::vector<float> c = ck == ScalarKind::F32 ? std::vector<float>() : asFloats(acc);
    // Inputs as f32 in the arena (or in place; tf32 rounds them), the accumulator copied into
    // the result and updated there, without heap traffic.
    bool exact = true;  // every product exact in f32: the FMA kernels may run
    auto inputs = [&](const Tile& t) -> const float* {
      if (t.type.elem().kind == ScalarKind::F32 && mode != "tf32") {
        exact = false;
        return t.as<float>();
      }
      float* f = static_cast<float*>(p.arena.allocate(size_t(t.size()) * 4));
      exact = toFloats(t, mode == "tf32", f) && exact;
      return f;
    };
    const float* av = inputs(a);
    const float* bv = inputs(b);
    if (ck == ScalarKind::F32) {
      if (!inPlace) std::memcpy(out.data, acc.data, size_t(M * N) * 4);
      gemm(av, bv, out.as<float>(), M, N, K, exact);
    } else if (ir::accumulatesInHalf(ak, ck)) {
      // In f16 as the tensor cores: each step of K summed from zero, added, rounded to f16.
      const int64_t step = ir::kHalfAccumulationStep;
      std::vector<float> aStep(size_t(M * step)), s(size_t(M * N));
      for (int64_t k0 = 0; k0 < K; k0 += step) {
        int64_t kc = std::min(step, K - k0);
        for (int64_t i = 0; i < M; ++i) std::memcpy(&aStep[size_t(i * kc)], av + i * K + k0, size_t(kc) * 4);
        std::fill(s.begin(), s.end(), 0.0f);
        gemm(aStep.data(), bv + k0 * N, s.data(), M, N, kc, exact);
        for (int64_t i = 0; i < M * N; ++i) c[size_t(i)] = halfToFloat(floatToHalf(c[size_t(i)] + s[size_t(i)]));
      }
      for (int64_t i = 0; i < M * N; ++i) out.as<uint16_t>()[i] = floatToHalf(c[size_t(i)]);
    } else {
      gemm(av, bv, c.data(), M, N, K, exact);
      for (int64_t i = 0; i < M * N; ++i) storeDouble(out, i, c[size_t(i)]);
    }
  }
  if (a.poison || b.poison || acc.poison) {
    out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(M * N)));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        bool bad = acc.poison && acc.poison[i * N + j];
        for (int64_t k = 0; k < K && !bad; ++k) bad = (a.poison && a.poison[i * K + k]) || (b.poison && b.poison[k * N + j]);
        out.poison[i * N + j] = bad;
      }
  }
}

// Matrix `i` of a rank-3 tile as a rank-2 tile over the same storage (poison included).
Tile matrixOf(const Tile& t, int64_t i) {
  ir::Type m(t.type.elem(), std::vector<int64_t>{t.type.dim(1), t.type.dim(2)});
  int64_t n = t.type.dim(1) * t.type.dim(2);
  Tile x = tileAt(m, t.data + size_t(i * n) * storageBytes(t.type.elem().kind));
  if (t.poison) x.poison = t.poison + i * n;
  return x;
}

}  // namespace

void execHistogram(Program& p, const Instr& ins, const std::vector<const Tile*>& in, std::vector<Tile*>& outs) {
  const Tile& x = *in[0];
  const Tile* mask = in.size() > 1 ? in[1] : nullptr;
  Tile& out = *outs[0];
  out = allocTile(p.arena, ins.op->result()->type);
  const int64_t bins = out.size();
  int32_t* counts = out.as<int32_t>();
  std::fill(counts, counts + bins, 0);
  // An uninitialized element that would be counted (its mask lane true or itself uninitialized)
  // leaves every count uncertain: all of them carry poison.
  bool poisoned = false;
  for (int64_t i = 0; i < x.size(); ++i) {
    if (mask) {
      if (mask->poison && mask->poison[i]) {
        poisoned = true;
        continue;
      }
      if (!elementAsInt(*mask, i)) continue;
    }
    if (x.poison && x.poison[i]) {
      poisoned = true;
      continue;
    }
    const int64_t v = elementAsInt(x, i);
    if (v >= 0 && v < bins) ++counts[v];
  }
  if (poisoned) {
    out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(bins)));
    std::memset(out.poison, 1, size_t(bins));
  }
}

void execDot(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out) {
  const ir::Op& op = *ins.op;
  const Tile &a = *in[0], &b = *in[1], &acc = *in[2];
  ScalarKind ak = a.type.elem().kind, ck = acc.type.elem().kind;
  // An f32 accumulator at its last use (Reuse.cpp) is updated where it is, without a copy.
  const bool inPlace = ins.reuseOperand == 2 && !acc.lazy() && !acc.poison && ck == ScalarKind::F32 &&
                       ak != ScalarKind::I8 && ak != ScalarKind::F64;
  out = inPlace ? tileAt(op.result()->type, acc.data) : allocTile(p.arena, op.result()->type);
  if (a.type.rank() == 2) {
    dotMatrix(p, op, a, b, acc, out, inPlace);
    return;
  }
  // A batched (rank-3) dot: one matrix product per leading index, in ascending order.
  const bool poisoned = a.poison || b.poison || acc.poison;
  if (poisoned) out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(out.size())));
  for (int64_t i = 0; i < a.type.dim(0); ++i) {
    Tile o = matrixOf(out, i);
    Tile ai = matrixOf(a, i), bi = matrixOf(b, i), ci = matrixOf(acc, i);
    dotMatrix(p, op, ai, bi, ci, o, inPlace);
    if (poisoned) std::memcpy(out.poison + i * o.size(), o.poison, size_t(o.size()));
  }
}

}  // namespace tilevm::interp

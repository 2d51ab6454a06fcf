// OpsMemory.cpp - load and store, and the lane checks atomics share (MemoryLanes.h): masks, the
// bounds check (one range test per tile when every active lane falls in one buffer), alignment,
// uninitialized reads, poison stores, conflicting lanes within a store, and the race shadow.
// Faulting lanes never touch memory.
// Shadows are the allocation's, indexed in granules of its bytes (Memory.h), whatever the
// pointee type; messages count elements of the pointer's type.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "interpreter/Affine.h"
#include "interpreter/MemoryLanes.h"
#include "interpreter/Races.h"

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// Copies one element of eb bytes (typed: the per-lane loops stay free of memcpy calls).
inline void copyElement(void* dst, const void* src, unsigned eb) {
  switch (eb) {
    case 1: *static_cast<uint8_t*>(dst) = *static_cast<const uint8_t*>(src); return;
    case 2: *static_cast<uint16_t*>(dst) = *static_cast<const uint16_t*>(src); return;
    case 4: *static_cast<uint32_t*>(dst) = *static_cast<const uint32_t*>(src); return;
    default: *static_cast<uint64_t*>(dst) = *static_cast<const uint64_t*>(src); return;
  }
}

// Bits in which a[i] differs from base + i * step, OR-ed over the lanes (0: exactly strided).
uint64_t strideGaps(const uint64_t* a, int64_t n, uint64_t base, uint64_t step) {
  uint64_t gaps = 0, expected = base;
  for (int64_t i = 0; i < n; ++i, expected += step) gaps |= a[i] ^ expected;
  return gaps;
}

const char* opName(const ir::Op& op) {
  switch (op.code) {
    case Opcode::Load: return "load";
    case Opcode::Store: return "store";
    default: return "atomic";
  }
}

// The first lane's address of each row (rowsContiguous).
void setRowAddrs(Program& p, Lanes& l, int64_t n) {
  auto* rows = static_cast<uint64_t*>(p.arena.allocate(size_t(n / l.rowLen) * 8));
  if (l.ptrs->symbolic) affineRowStarts(*l.ptrs, rows);
  else
    for (int64_t r = 0, k = 0; r < n; r += l.rowLen) rows[k++] = l.addr[r];
  l.rowAddr = rows;
}

// The region holding bytes [lo, end): the pointers' own buffer when their provenance is known
// (an overrun of x that lands inside y is still an overrun), else whichever buffer holds them,
// or memory the launch's resolver maps (AddressResolver: a pointer table's target).
MemRegion* regionFor(Program& p, MemRegion* home, uint64_t lo, uint64_t end) {
  if (home) return lo >= home->base && end <= home->end ? home : nullptr;
  return p.launch.memory.lookup(lo, end);
}

// Hexadecimal text of an address.
std::string hexAddress(uint64_t a) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(a));
  return text;
}

Lanes checkLanesUnrecorded(Program& p, const Instr& ins, const Tile& ptrs, const Tile* mask, unsigned eb);

// Decimal digits of an exact 128-bit integer.
std::string wideString(__int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return std::to_string(int64_t(v));
  const bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  std::string d;
  for (; u; u /= 10) d.insert(d.begin(), char('0' + int(u % 10)));
  return neg ? "-" + d : d;
}

// The first and the last nonzero byte of m[0, n), or -1: eight lanes of a mask at a time
// (little-endian: byte k of a word is bits 8k..8k+7).
int64_t firstSet(const uint8_t* m, int64_t n) {
  int64_t i = 0;
  for (uint64_t w; i + 8 <= n; i += 8)
    if (std::memcpy(&w, m + i, 8), w) return i + std::countr_zero(w) / 8;
  for (; i < n; ++i)
    if (m[i]) return i;
  return -1;
}

// The end of the run of lanes that share lane i's mask state: the first j > i whose state
// differs, or n (memchr for the first off lane of an on run, a word scan for the first on lane).
int64_t runEnd(const uint8_t* m, int64_t i, int64_t n) {
  if (i + 1 >= n) return n;
  if (m[i]) {
    const void* off = std::memchr(m + i + 1, 0, size_t(n - i - 1));
    return off ? static_cast<const uint8_t*>(off) - m : n;
  }
  const int64_t on = firstSet(m + i + 1, n - i - 1);
  return on < 0 ? n : i + 1 + on;
}

int64_t lastSet(const uint8_t* m, int64_t n) {
  int64_t i = n;
  for (uint64_t w; i >= 8; i -= 8)
    if (std::memcpy(&w, m + i - 8, 8), w) return i - 8 + (63 - std::countl_zero(w)) / 8;
  for (; i > 0; --i)
    if (m[i - 1]) return i - 1;
  return -1;
}

// What a memory op's lanes did, for `tilevm viz` (Profile.h): only when the launch asks.
void recordLanes(Program& p, const Instr& ins, Lanes& l, int64_t n, unsigned eb) {
  const LaunchOptions& o = p.launch.options;
  int64_t active = 0;
  if (l.any) {
    if (!l.mask) active = n;
    else if (l.maskIsScalar) active = l.mask[0] ? n : 0;
    else
      for (int64_t i = 0; i < n; ++i) active += l.mask[i] != 0;
  }
  if (o.profile) {
    OpProfile::Counters& c = o.profile->ops.at(ins.op);
    c.lanes.fetch_add(uint64_t(n), std::memory_order_relaxed);
    c.activeLanes.fetch_add(uint64_t(active), std::memory_order_relaxed);
    c.bytes.fetch_add(uint64_t(active) * eb, std::memory_order_relaxed);
  }
  if (o.access && active) {
    AccessMap& m = *o.access;
    const uint64_t* a = laneAddrs(p, l);
    uint64_t end = m.base + uint64_t(m.numel) * m.elemBytes;
    bool write = ins.op->code != Opcode::Load, read = ins.op->code != Opcode::Store;
    for (int64_t i = 0; i < n; ++i) {
      if (!l.active(i) || a[i] < m.base || a[i] >= end) continue;
      int64_t e = int64_t((a[i] - m.base) / m.elemBytes);
      if (read) m.record(e, p.linear, false, ins.memId);
      if (write) m.record(e, p.linear, true, ins.memId);
    }
  }
}


// The lanes of a memory op: addresses, mask, the region they lie in, with bounds checked.
Lanes checkLanesUnrecorded(Program& p, const Instr& ins, const Tile& ptrs, const Tile* mask, unsigned eb) {
  Lanes l;
  l.ptrs = &ptrs;
  int64_t n = ptrs.size();
  l.rowLen = ptrs.type.isScalar() ? 1 : ptrs.type.dim(ptrs.type.rank() - 1);
  static const uint8_t kOff = 0;
  if (mask && mask->symbolic) {  // uniform: every lane on (no mask) or every lane off
    l.mask = mask->affine.base ? nullptr : &kOff;
    l.maskIsScalar = true;
  } else if (mask) {
    l.mask = mask->data;
    l.maskIsScalar = mask->size() != n;
    // A mask with every lane on is no mask (the common case of tail masks): take the fast path.
    if (!std::memchr(mask->data, 0, size_t(mask->size()))) l.mask = nullptr;
  }
  MemRegion* home = const_cast<MemRegion*>(ptrs.provenance);
  if (ptrs.symbolic && !l.mask) {
    // Symbolic pointers: range, alignment and layout from the form, in O(rank).
    AffineLayout lay = affineLayout(ptrs, eb);
    AffineRange range = affineRange(ptrs);
    uint64_t lo = uint64_t(range.lo), hi = uint64_t(range.hi);
    l.any = n > 0;
    MemRegion* r = regionFor(p, home, lo, hi + eb);
    if ((lay.misaligned & (eb - 1)) == 0 && r) {
      // In bounds and aligned: lanes are read from the form (rows, or a strided gather).
      l.single = r;
      l.contiguous = lay.contiguous;
      l.rowsContiguous = lay.rowsContiguous;
      l.denseSet = lay.denseSet;
      l.denseLo = lo;
      if (l.rowsContiguous) setRowAddrs(p, l, n);
      return l;
    }
  }
  if (ptrs.symbolic && l.mask && !l.maskIsScalar) {
    // A masked contiguous tile (the tail of a row): lane i at lo + i eb, so only the span of the
    // active lanes must lie in one buffer, and no lane needs an address of its own.
    AffineLayout lay = affineLayout(ptrs, eb);
    if (lay.contiguous && (lay.misaligned & (eb - 1)) == 0) {
      const int64_t first = firstSet(l.mask, n), last = lastSet(l.mask, n);
      if (first < 0) return l;  // every lane off
      uint64_t lo = uint64_t(affineRange(ptrs).lo);
      if (MemRegion* r = regionFor(p, home, lo + uint64_t(first) * eb, lo + uint64_t(last + 1) * eb)) {
        l.any = true;
        l.single = r;
        l.maskedContiguous = true;
        l.denseLo = lo;
        return l;
      }
    }
  }
  const uint64_t* a = laneAddrs(p, l);
  uint64_t lo = UINT64_MAX, hi = 0, misaligned = 0;
  bool allActive = true, contiguous = true;
  if (!l.mask) {
    // Common case: no mask. First the layout (XOR/OR chains the compiler vectorizes): whole
    // tile contiguous, or each row contiguous; the range then follows from the row starts.
    uint64_t gaps = strideGaps(a, n, a[0], eb), rowGaps = 0;
    for (int64_t r = 0; gaps && r < n && !rowGaps; r += l.rowLen) rowGaps |= strideGaps(a + r, l.rowLen, a[r], eb);
    contiguous = gaps == 0;
    l.rowsContiguous = rowGaps == 0;
    if (l.rowsContiguous) {
      const uint64_t rowSpan = uint64_t(l.rowLen - 1) * eb;
      for (int64_t r = 0; r < n; r += l.rowLen) {
        lo = std::min(lo, a[r]);
        hi = std::max(hi, a[r] + rowSpan);
        misaligned |= a[r];
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        lo = std::min(lo, a[i]);
        hi = std::max(hi, a[i]);
        misaligned |= a[i];
      }
    }
    l.any = n > 0;
  } else {
    for (int64_t i = 0; i < n; ++i) {
      if (!l.active(i)) {
        allActive = false;
        continue;
      }
      l.any = true;
      lo = std::min(lo, a[i]);
      hi = std::max(hi, a[i]);
      misaligned |= a[i];
      contiguous &= a[i] == a[0] + uint64_t(i) * eb;
    }
  }
  if (!l.any) return l;
  l.contiguous = allActive && contiguous;
  // With provenance, lanes must stay inside the buffer the pointers came from.
  if ((misaligned & (eb - 1)) == 0) {
    if (MemRegion* r = regionFor(p, home, lo, hi + eb)) {
      l.single = r;
      if (l.rowsContiguous) setRowAddrs(p, l, n);
      if (l.contiguous) l.denseSet = true, l.denseLo = lo;
      return l;
    }
  }
  // Slow path: find each lane's region; report faulting lanes once per op.
  l.region.assign(size_t(n), nullptr);
  int64_t oob = 0, firstOob = -1, unaligned = 0, firstUnaligned = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (!l.active(i)) continue;
    if (a[i] % eb) {
      if (firstUnaligned < 0) firstUnaligned = i;
      ++unaligned;
      continue;
    }
    MemRegion* r = regionFor(p, home, a[i], a[i] + eb);
    if (!r) {
      if (firstOob < 0) firstOob = i;
      ++oob;
      continue;
    }
    l.region[size_t(i)] = r;
  }
  if (oob && p.launch.options.checks.bounds) {
    // The true address: a wild lane's (past the 64-bit address space) is kept in p.wild.
    const uint64_t addr = a[firstOob];
    const __int128 at = trueAddress(p.wild, addr);
    const bool unknown = isWild(addr) && at == __int128(addr);  // a wild lane whose address was not kept
    const uint64_t clamped = at < 0 ? 0 : at >= (__int128(1) << 64) ? ~uint64_t(0) : uint64_t(at);
    const MemRegion* near = unknown ? nullptr : home ? home : p.launch.memory.nearest(clamped);
    // A pointer of unknown provenance (int_to_ptr, loaded from memory) far from every buffer
    // (farther than the nearest one's size) is named by its address, not as an index of a
    // buffer it has nothing to do with.
    const std::string why = unknown || home ? std::string() : p.launch.memory.unmappedReason(clamped);
    if (near && !home && !why.empty()) near = nullptr;  // the resolver said why (a refusal, or no memory holds it)
    if (near && !home) {
      const uint64_t size = near->end - near->base;
      const uint64_t dist = clamped < near->base ? near->base - clamped : clamped >= near->end ? clamped - near->end + 1 : 0;
      if (dist > size) near = nullptr;
    }
    Finding f;
    f.kind = Finding::Kind::OutOfBounds;
    f.loc = p.loc(ins);
    f.count = oob;
    if (near) {
      f.buffer = near->buffer->name;
      // Element indices in the pointer's element type (eb), exact.
      const __int128 elem = (at - __int128(near->base)) / eb;
      const int64_t numel = int64_t((near->end - near->base) / eb);
      const __int128 past = elem >= numel ? elem - numel + 1 : -elem;
      f.element = elem > INT64_MAX ? INT64_MAX : elem < INT64_MIN ? INT64_MIN : int64_t(elem);
      std::string size = std::to_string(numel) + " elements";
      if (eb != near->elemBytes)  // a pointer of another element type than the buffer's
        size += " of " + std::to_string(eb) + (eb == 1 ? " byte; " : " bytes; ") + f.buffer + " holds " +
                std::to_string(near->buffer->numel()) + " " + std::string(ir::scalarName(near->buffer->elem));
      f.detail = std::string(opName(*ins.op)) + " of " + f.buffer + "[" + wideString(elem) + "] is " + wideString(past) +
                 (past == 1 ? " element " : " elements ") + (elem >= numel ? "past the end" : "before the start") + " of " +
                 f.buffer + " (" + size + "); lane " + std::to_string(firstOob) + ", " + std::to_string(oob) +
                 (oob == 1 ? " lane" : " lanes") + " out of bounds";
    } else if (!unknown && !home) {
      f.detail = std::string(opName(*ins.op)) + " at address " + hexAddress(clamped) +
                 ", which no buffer of the launch holds" + (why.empty() ? "" : ": " + why) + "; lane " +
                 std::to_string(firstOob) + ", " + std::to_string(oob) + (oob == 1 ? " lane" : " lanes") + " out of bounds";
    } else {
      f.detail = std::string(opName(*ins.op)) + " at an address outside every buffer";
    }
    p.report(std::move(f));
  }
  if (unaligned && p.launch.options.checks.bounds) {
    Finding f;
    f.kind = Finding::Kind::Misaligned;
    f.loc = p.loc(ins);
    f.count = unaligned;
    f.detail = std::string(opName(*ins.op)) + " of " + std::to_string(eb) + "-byte elements at a misaligned address (lane " +
               std::to_string(firstUnaligned) + ")";
    p.report(std::move(f));
  }
  return l;
}


// The granules of r's allocation that `bytes` bytes at address `at` cover (the planted bug of
// LaunchOptions::testPlantShadowBug: indexed in elements of eb bytes instead).
struct Granules {
  int64_t lo, hi;
};
inline Granules granulesOf(const Program& p, const MemRegion& r, uint64_t at, uint64_t bytes, unsigned eb) {
  const Allocation& a = *r.alloc;
  if (p.launch.options.testPlantShadowBug) [[unlikely]] {
    const int64_t lo = int64_t((at - a.gbase) / eb);
    return {lo, lo + int64_t(bytes / eb)};
  }
  return {a.granuleOf(at), a.granuleOf(at + bytes)};
}

// Calls f(region, granules, address, bytes, lane) for ranges that together are exactly the bytes the
// active in-bounds lanes access, in granules of the region's allocation: one range for a
// contiguous (or permuted contiguous) tile, one per row for contiguous rows, one per run of
// active lanes of a masked row, else one per lane. `lane` is the first lane of the range when
// lanes [lane, lane + size) lie in memory order in it, else -1 (a permuted tile).
template <typename F>
void forEachRange(Program& p, Lanes& l, int64_t n, unsigned eb, F&& f) {
  if (l.single && l.denseSet) {
    f(*l.single, granulesOf(p, *l.single, l.denseLo, uint64_t(n) * eb, eb), l.denseLo, uint64_t(n) * eb, l.contiguous ? 0 : -1);
    return;
  }
  if (l.single && l.rowAddr) {
    for (int64_t k = 0; k < n / l.rowLen; ++k)
      f(*l.single, granulesOf(p, *l.single, l.rowAddr[k], uint64_t(l.rowLen) * eb, eb), l.rowAddr[k], uint64_t(l.rowLen) * eb,
        k * l.rowLen);
    return;
  }
  if (l.single && l.maskedContiguous) {  // a row's tail: each run of active lanes is one range
    for (int64_t i = firstSet(l.mask, n); i >= 0 && i < n;) {
      const int64_t j = runEnd(l.mask, i, n);
      const uint64_t at = l.denseLo + uint64_t(i) * eb;
      f(*l.single, granulesOf(p, *l.single, at, uint64_t(j - i) * eb, eb), at, uint64_t(j - i) * eb, i);
      i = runEnd(l.mask, j, n);  // past the off run that follows
    }
    return;
  }
  const uint64_t* a = laneAddrs(p, l);
  for (int64_t i = 0; i < n; ++i) {
    if (!l.active(i)) continue;
    if (MemRegion* r = laneRegion(l, i)) f(*r, granulesOf(p, *r, a[i], eb, eb), a[i], uint64_t(eb), i);
  }
}

// Calls f(lane, region, address) for each active in-bounds lane, in lane order (row by row
// when the rows are contiguous in one buffer: no per-lane address needed).
template <typename F>
void forEachElement(Program& p, Lanes& l, int64_t n, unsigned eb, F&& f) {
  if (l.single && l.rowAddr) {
    MemRegion& r = *l.single;
    for (int64_t i = 0, k = 0; i < n; ++k)
      for (int64_t j = 0; j < l.rowLen; ++j, ++i) f(i, r, l.rowAddr[k] + uint64_t(j) * eb);
    return;
  }
  const uint64_t* a = laneAddrs(p, l);
  for (int64_t i = 0; i < n; ++i) {
    if (!l.active(i)) continue;
    if (MemRegion* r = laneRegion(l, i)) f(i, *r, a[i]);
  }
}

// Is every granule of s[lo, hi) kDefined? (Words of eight at a time: the common case is all.)
bool allDefined(const uint8_t* s, int64_t lo, int64_t hi) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  const uint8_t* q = s + lo;
  int64_t n = hi - lo, i = 0;
  for (; i + 64 <= n; i += 64) {
    uint64_t diff = 0;
    for (int k = 0; k < 64; k += 8) {
      uint64_t w;
      std::memcpy(&w, q + i + k, 8);
      diff |= w ^ kOnes;
    }
    if (diff) return false;
  }
  for (; i < n; ++i)
    if (q[i] != kDefined) return false;
  return true;
}

void reportOnce(Program& p, const Instr& ins, Finding::Kind kind, const MemRegion& r, int64_t elem, int64_t lane,
                int64_t count, const std::string& what, Finding::Severity severity = Finding::Severity::Error) {
  Finding f;
  f.kind = kind;
  f.severity = severity;
  f.loc = p.loc(ins);
  f.buffer = r.buffer->name;
  f.element = elem;
  f.count = count;
  f.detail = what + " " + f.buffer + "[" + std::to_string(elem) + "] (lane " + std::to_string(lane) + ")";
  p.report(std::move(f));
}

}  // namespace

// The address of every lane (materializing a symbolic pointer tile on first use).
const uint64_t* laneAddrs(Program& p, Lanes& l) {
  if (!l.addr) l.addr = l.ptrs->symbolic ? materialize(p.arena, *l.ptrs).as<uint64_t>() : l.ptrs->as<uint64_t>();
  return l.addr;
}

Lanes checkLanes(Program& p, const Instr& ins, const Tile& ptrs, const Tile* mask, unsigned eb) {
  Lanes l = checkLanesUnrecorded(p, ins, ptrs, mask, eb);
  if (p.launch.options.profile || p.launch.options.access) recordLanes(p, ins, l, ptrs.size(), eb);
  return l;
}

MemRegion* laneRegion(const Lanes& l, int64_t i) { return l.single ? l.single : l.region[size_t(i)]; }

void execLoad(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out) {
  const Tile& ptrs = *in[0];
  const Tile* mask = in.size() > 1 ? in[1] : nullptr;
  // `other` may be lazy (a splat view, say): materialized only if some lane needs it.
  const Tile* other = in.size() > 2 ? in[2] : nullptr;
  Tile denseOther;
  const ir::Type& type = ins.op->result()->type;
  unsigned eb = storageBytes(type.elem().kind);
  int64_t n = type.numElements();
  const Checks& checks = p.launch.options.checks;
  Lanes l = checkLanes(p, ins, ptrs, mask, eb);
  bool needPoison = false;
  // Nothing writes a read-only buffer during the launch: a contiguous tile of it is the
  // buffer's memory itself. Every other load copies into the arena.
  const bool inPlace = l.contiguous && l.single && l.single->readOnly;
  out = inPlace ? tileAt(type, reinterpret_cast<uint8_t*>(l.rowAddr[0])) : allocTile(p.arena, type);
  if (inPlace) {
    // nothing to copy
  } else if (l.contiguous && l.single) {
    std::memcpy(out.data, reinterpret_cast<const void*>(l.rowAddr[0]), size_t(n) * eb);
  } else if (l.rowsContiguous && l.single) {
    for (int64_t r = 0, k = 0; r < n; r += l.rowLen, ++k)
      std::memcpy(out.data + size_t(r) * eb, reinterpret_cast<const void*>(l.rowAddr[k]), size_t(l.rowLen) * eb);
  } else if (l.single && !l.mask && ptrs.symbolic) {
    gatherAffine(ptrs, eb, out.data);  // e.g. a transposed tile: no per-lane addresses needed
  } else if (l.maskedContiguous) {
    // Runs of active lanes copied whole; masked-off runs from `other` (or 0, poison).
    if (other && other->lazy()) other = &(denseOther = materialize(p.arena, *other));
    const uint8_t* src = reinterpret_cast<const uint8_t*>(l.denseLo);
    for (int64_t i = 0, j; i < n; i = j) {
      const bool on = l.mask[i] != 0;
      j = runEnd(l.mask, i, n);
      size_t at = size_t(i) * eb, bytes = size_t(j - i) * eb;
      if (on) std::memcpy(out.data + at, src + at, bytes);
      else if (other) std::memcpy(out.data + at, other->data + at, bytes);
      else {
        std::memset(out.data + at, 0, bytes);
        needPoison = true;
      }
    }
  } else if (l.single && (other || !checks.uninit)) {
    // Every active lane is in bounds: a typed gather, masked-off lanes from `other` (or 0).
    if (other && other->lazy()) other = &(denseOther = materialize(p.arena, *other));
    const uint64_t* a = laneAddrs(p, l);
    auto gather = [&](auto tag) {
      using T = decltype(tag);
      T* o = out.as<T>();
      const T* oth = other ? other->as<T>() : nullptr;
      for (int64_t i = 0; i < n; ++i)
        o[i] = l.active(i) ? *reinterpret_cast<const T*>(a[i]) : (oth ? oth[i] : T(0));
    };
    switch (eb) {
      case 1: gather(uint8_t{}); break;
      case 2: gather(uint16_t{}); break;
      case 4: gather(uint32_t{}); break;
      default: gather(uint64_t{}); break;
    }
  } else {
    if (other && other->lazy()) other = &(denseOther = materialize(p.arena, *other));
    const uint64_t* a = laneAddrs(p, l);
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* dst = out.data + size_t(i) * eb;
      if (l.active(i) && laneRegion(l, i)) {
        copyElement(dst, reinterpret_cast<const void*>(a[i]), eb);
      } else if (other) {
        copyElement(dst, other->data + size_t(i) * eb, eb);
      } else {
        std::memset(dst, 0, eb);
        needPoison = needPoison || !l.active(i);
      }
    }
  }
  // Lanes a masked load leaves undefined (no `other`) are poison under the uninit check.
  if (needPoison && checks.uninit) {
    out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
    for (int64_t i = 0; i < n; ++i) out.poison[i] = !l.active(i);
  } else if (other && other->poison) {
    out.poison = static_cast<uint8_t*>(p.arena.allocate(size_t(n)));
    for (int64_t i = 0; i < n; ++i) out.poison[i] = !l.active(i) && other->poison[i];
  }
  if (!l.any || !(checks.uninit || checks.races)) return;
  bool uninitSeen = false;
  forEachRange(p, l, n, eb, [&](MemRegion& r, Granules g, uint64_t, uint64_t, int64_t) {
    if (checks.uninit)
      if (const uint8_t* s = r.alloc->init.load(std::memory_order_acquire); s && !allDefined(s, g.lo, g.hi)) uninitSeen = true;
    if (checks.races && r.alloc->race.words) raceRead(p, ins, r, eb, g.lo, g.hi);
  });
  if (!uninitSeen) return;
  // Rare: name the first lane of each kind (never written; undefined, from a poison store) and
  // count them.
  struct Seen {
    int64_t count = 0, lane = -1, elem = 0;
    MemRegion* region = nullptr;
  } never, undefined;
  forEachElement(p, l, n, eb, [&](int64_t i, MemRegion& r, uint64_t at) {
    const uint8_t* s = r.alloc->init.load(std::memory_order_acquire);
    if (!s) return;
    const Granules g = granulesOf(p, r, at, eb, eb);
    bool isNever = false, isUndefined = false;
    for (int64_t k = g.lo; k < g.hi; ++k) {
      const uint8_t v = std::atomic_ref<const uint8_t>(s[k]).load(std::memory_order_relaxed);
      isNever = isNever || v == kNeverWritten;
      isUndefined = isUndefined || v == kUndefined;
    }
    Seen& seen = isUndefined ? undefined : never;
    if (!isNever && !isUndefined) return;
    if (seen.lane < 0) seen.lane = i, seen.elem = int64_t(at - r.base) / int64_t(eb), seen.region = &r;
    ++seen.count;
  });
  if (never.count)
    reportOnce(p, ins, Finding::Kind::Uninitialized, *never.region, never.elem, never.lane, never.count,
               "load reads never-written element");
  if (undefined.count)
    reportOnce(p, ins, Finding::Kind::Uninitialized, *undefined.region, undefined.elem, undefined.lane, undefined.count,
               "load reads undefined element");
}

// Writes a store's active in-bounds lanes to memory (without the race shadow).
void writeLanes(Program& p, Lanes& l, int64_t n, unsigned eb, const Tile& val) {
  if (l.contiguous && l.single) {
    std::memcpy(reinterpret_cast<void*>(l.rowAddr[0]), val.data, size_t(n) * eb);
  } else if (l.rowsContiguous && l.single && val.size() == n) {
    for (int64_t r = 0, k = 0; r < n; r += l.rowLen, ++k)
      std::memcpy(reinterpret_cast<void*>(l.rowAddr[k]), val.data + size_t(r) * eb, size_t(l.rowLen) * eb);
  } else if (l.maskedContiguous && val.size() == n) {
    uint8_t* dst = reinterpret_cast<uint8_t*>(l.denseLo);
    for (int64_t i = 0, j; i < n; i = j) {  // runs of active lanes, copied whole
      const bool on = l.mask[i] != 0;
      j = runEnd(l.mask, i, n);
      if (on) std::memcpy(dst + size_t(i) * eb, val.data + size_t(i) * eb, size_t(j - i) * eb);
    }
  } else {
    const uint64_t* a = laneAddrs(p, l);
    for (int64_t i = 0; i < n; ++i)
      if (l.active(i) && laneRegion(l, i))
        copyElement(reinterpret_cast<void*>(a[i]), val.data + size_t(val.size() == n ? i : 0) * eb, eb);
  }
}

void execStore(Program& p, const Instr& ins, const std::vector<const Tile*>& in) {
  const Tile& ptrs = *in[0];
  const Tile& val = *in[1];
  const Tile* mask = in.size() > 2 ? in[2] : nullptr;
  unsigned eb = storageBytes(val.type.elem().kind);
  int64_t n = val.size();
  const Checks& checks = p.launch.options.checks;
  Lanes l = checkLanes(p, ins, ptrs, mask, eb);
  if (!l.any) return;
  // Poison reaching memory: a value from a masked-off load lane without `other`. A warning:
  // the elements become undefined (below), and reading them is the error.
  const bool poisonStore = val.poison && checks.uninit;
  if (poisonStore) {
    int64_t count = 0, lane = -1, elem0 = 0;
    MemRegion* region = nullptr;
    forEachElement(p, l, n, eb, [&](int64_t i, MemRegion& r, uint64_t at) {
      if (!val.poison[val.size() == n ? i : 0]) return;
      if (lane < 0) lane = i, elem0 = int64_t(at - r.base) / int64_t(eb), region = &r;
      ++count;
    });
    if (count)
      reportOnce(p, ins, Finding::Kind::Poison, *region, elem0, lane, count,
                 "store writes an undefined value (from a masked load without `other`) to", Finding::Severity::Warning);
  }
  // Lanes of one store hitting one address with different values.
  bool rowsDisjoint = l.rowsContiguous && l.rowAddr;
  for (int64_t k = 1; rowsDisjoint && k < n / l.rowLen; ++k)
    rowsDisjoint = l.rowAddr[k] >= l.rowAddr[k - 1] + uint64_t(l.rowLen) * eb;
  if (checks.races && !l.contiguous && !l.denseSet && !l.maskedContiguous && !rowsDisjoint && n > 1) {
    const uint64_t* a = laneAddrs(p, l);
    std::vector<std::pair<uint64_t, int64_t>> byAddr;
    for (int64_t i = 0; i < n; ++i)
      if (l.active(i) && laneRegion(l, i)) byAddr.emplace_back(a[i], i);
    std::sort(byAddr.begin(), byAddr.end());
    for (size_t k = 1; k < byAddr.size(); ++k) {
      if (byAddr[k].first != byAddr[k - 1].first) continue;
      int64_t i = byAddr[k - 1].second, j = byAddr[k].second;
      if (std::memcmp(val.data + size_t(i) * eb, val.data + size_t(j) * eb, eb) != 0) {
        MemRegion* r = laneRegion(l, i);
        Finding f;
        f.kind = Finding::Kind::StoreConflict;
        f.loc = p.loc(ins);
        f.buffer = r->buffer->name;
        f.element = int64_t(a[i] - r->base) / eb;
        f.detail = "lanes " + std::to_string(i) + " and " + std::to_string(j);
        p.report(std::move(f));
        break;
      }
    }
  }
  if (checks.races) {
    // Memory is written range by range with the race shadow (Races.h: a write meeting another
    // program's sees exactly that program's bits).
    const uint8_t* image = nullptr;  // a permuted dense tile's values in memory order
    forEachRange(p, l, n, eb, [&](MemRegion& r, Granules g, uint64_t at, uint64_t bytes, int64_t lane) {
      if (uint8_t* s = r.alloc->init.load(std::memory_order_acquire)) std::memset(s + g.lo, kDefined, size_t(g.hi - g.lo));
      if (lane < 0 && !image) {
        auto* m = static_cast<uint8_t*>(p.arena.allocate(size_t(n) * eb));
        const uint64_t* a = laneAddrs(p, l);
        for (int64_t i = 0; i < n; ++i) std::memcpy(m + (a[i] - l.denseLo), val.data + size_t(i) * eb, eb);
        image = m;
      }
      const uint8_t* src = lane >= 0 ? val.data + size_t(lane) * eb : image;
      if (r.alloc->race.words) raceWrite(p, ins, r, eb, g.lo, g.hi, at, src, bytes);
      else std::memcpy(reinterpret_cast<void*>(at), src, size_t(bytes));
    });
  } else {
    writeLanes(p, l, n, eb, val);
    if (checks.uninit)
      forEachRange(p, l, n, eb, [&](MemRegion& r, Granules g, uint64_t, uint64_t, int64_t) {
        if (uint8_t* s = r.alloc->init.load(std::memory_order_acquire)) std::memset(s + g.lo, kDefined, size_t(g.hi - g.lo));
      });
  }
  // Poison lanes leave their elements undefined: reading them later is the error.
  if (poisonStore)
    forEachElement(p, l, n, eb, [&](int64_t i, MemRegion& r, uint64_t at) {
      if (!val.poison[val.size() == n ? i : 0]) return;
      const Granules g = granulesOf(p, r, at, eb, eb);
      uint8_t* s = r.alloc->initShadow();
      for (int64_t k = g.lo; k < g.hi; ++k) std::atomic_ref<uint8_t>(s[k]).store(kUndefined, std::memory_order_relaxed);
    });
}

}  // namespace tilevm::interp

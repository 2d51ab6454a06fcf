// Races.cpp - 32-bit shadow words (one per granule of an allocation, Memory.h) updated with
// compare-and-swap:
//   bits 12..31  pid+1 of the program that last accessed the granule (0: never accessed)
//   bits  3..11  the op (index into the kernel's ops; saturates)
//   bit   2      the access's epoch is > 1 and kept in LaunchState::lateEpochs
//   bits  0..1   state: 0 none, 1 read by one program, 2 written, 3 read by several programs
// (Below, "element" is a granule.) An access by program P conflicts with the recorded one when the programs differ, one side is
// a write (or the element has several readers and P writes), and the recorded access is not
// ordered before P by a release -> acquire chain (its epoch <= P's clock entry for it). Only
// programs that synchronize have clocks; for all others detection is exact and independent of
// the schedule. Accesses before a program's first release have epoch 1 and need no side entry.
//
// Chunks: a chunk word holds the word every element of its chunk has, as long as each access
// covered the whole chunk (the common case of contiguous tiles: one CAS per 64 elements). The
// first access that covers a chunk partly splits it: the chunk word is locked, copied into the
// chunk's element words, and set to kSplit; from then on the element words are the state.
//
// A write that finds another program's unordered write is benign when both stored identical
// bits. Plain writes update memory and shadow one chunk at a time under the chunk's lock
// (LaunchState::writeLocks): while it is held no other plain write can touch the chunk's bytes
// or words, so when the shadow shows another program's write there, the bytes in memory are
// exactly that program's, and are kept before they are overwritten. (Reads do not lock: they
// change no bytes. Atomics are serialized among themselves and race with any plain write.)
#include "interpreter/Races.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include <tbb/parallel_for.h>

namespace tilevm::interp {

namespace {

enum State : uint32_t { None = 0, ReadOne = 1, Written = 2, ReadMany = 3 };

// Chunk words no packed word can equal (pid+1 never reaches 2^20 - 1).
constexpr uint32_t kSplit = 0xFFFFF000u, kLocked = 0xFFFFF001u;
static_assert((kSplit & 3u) != ReadMany && (kLocked & 3u) != ReadMany, "raceRange's read fast path");

struct Word {
  uint32_t pidPlus1, op;
  bool late;
  State state;
};

uint32_t pack(const Word& w) {
  return (w.pidPlus1 << 12) | (std::min<uint32_t>(w.op, 511) << 3) | (uint32_t(w.late) << 2) | w.state;
}
Word unpack(uint32_t v) { return Word{v >> 12, (v >> 3) & 511, bool((v >> 2) & 1), State(v & 3)}; }

std::array<int64_t, 3> pidOf(const Program& p, uint32_t linear) {
  const auto& g = p.launch.grid;
  return {int64_t(linear) % g[0], (int64_t(linear) / g[0]) % g[1], int64_t(linear) / (g[0] * g[1])};
}

// Where a late epoch of a shadow word is kept: granules by (allocation, granule), chunks by
// (shadow, chunk).
using EpochKey = std::pair<const void*, int64_t>;
EpochKey elementKey(const Allocation& a, int64_t elem) { return {&a, elem}; }
EpochKey chunkKey(const Allocation& a, int64_t chunk) { return {&a.race, chunk}; }

// What a plain write stored, and (when the shadow showed another program's write there) the
// bytes it overwrote, for telling a benign race from a harmful one.
struct WriteBits {
  const uint8_t* mine = nullptr;  // the bytes stored, from the range's first granule
  const uint8_t* old = nullptr;   // the bytes overwritten in granules [oldLo, oldHi) (null: none kept)
  int64_t oldLo = 0, oldHi = 0;
};

// One access being recorded: through which buffer, in which element size, and (writes) the
// bits it stored.
struct Access {
  Program& p;
  const Instr& ins;
  const MemRegion& r;
  Allocation& a;
  unsigned eb;
  int64_t lo;    // first granule of the range
  uint64_t bpg;  // bytes per granule in the range
  const WriteBits* bits;
};

// Did this write store the same bits as the earlier one it conflicts with, over the elements
// (of x.eb bytes) that granules [g, g + count) belong to (as far as this chunk holds them)?
bool identicalBits(const Access& x, int64_t g, int64_t count) {
  if (!x.bits || !x.bits->old) return false;
  const WriteBits& b = *x.bits;
  // Byte offsets from the range's start (an element boundary), rounded out to whole elements
  // and clipped to the bytes that were kept.
  const uint64_t eb = x.eb;
  uint64_t from = uint64_t(g - x.lo) * x.bpg / eb * eb, to = (uint64_t(g + count - x.lo) * x.bpg + eb - 1) / eb * eb;
  from = std::max(from, uint64_t(b.oldLo - x.lo) * x.bpg);
  to = std::min(to, uint64_t(b.oldHi - x.lo) * x.bpg);
  if (to <= from) return false;
  return std::memcmp(b.old + (from - uint64_t(b.oldLo - x.lo) * x.bpg), b.mine + from, size_t(to - from)) == 0;
}

uint32_t epochOf(Program& p, EpochKey key, const Word& w) {
  if (!w.late) return 1;
  std::lock_guard<std::mutex> lock(p.launch.epochMutex);
  auto it = p.launch.lateEpochs.find(key);
  return it == p.launch.lateEpochs.end() ? 1 : it->second;
}

// Is the recorded access ordered before the current point of p?
bool ordered(Program& p, EpochKey key, const Word& w) {
  if (w.pidPlus1 == 0 || w.pidPlus1 == p.linear + 1) return true;
  if (p.clock.entries.empty()) return false;  // p never acquired anything
  return p.clock.get(w.pidPlus1 - 1) >= epochOf(p, key, w);
}

// Reports granules [g, g + count) of the access's allocation, in elements of its buffer.
void reportRace(const Access& x, int64_t g, int64_t count, const char* access, const Word& other, const char* otherAccess,
                bool benign) {
  Program& p = x.p;
  Finding f;
  f.kind = Finding::Kind::Race;
  f.loc = p.loc(x.ins);
  f.buffer = x.r.buffer->name;
  const uint64_t at = x.a.gbase + (uint64_t(g) << x.a.gshift);
  f.element = (int64_t(at) - int64_t(x.r.base)) / int64_t(x.eb);
  // Elements whose first granule is in the range (a granule word stands for part of an
  // element when the access is wider than the granule: its other granules count nothing).
  const int64_t per = std::max<int64_t>(1, int64_t(x.eb >> x.a.gshift));
  auto starts = [&](int64_t k) { return (k - x.lo + per - 1) / per; };
  f.count = starts(g + count) - starts(g);
  if (benign) {
    f.severity = p.launch.options.checks.strict ? Finding::Severity::Error : Finding::Severity::Note;
    f.detail = "both programs wrote identical bits";
  }
  f.access = access;
  f.hasOther = true;
  f.otherPid = pidOf(p, other.pidPlus1 - 1);
  f.otherLoc = other.op < p.launch.code.opLocs.size() ? p.launch.code.opLocs[other.op] : "<op beyond the 512th>";
  f.otherAccess = otherAccess;
  p.report(std::move(f));
}

// One access applied to one shadow word (an element's, or a whole chunk's standing for
// elements [elem, elem + count)). Returns false, touching nothing, if the word is a chunk word
// that was split or locked meanwhile.
bool accessWord(const Access& x, uint32_t& word, EpochKey key, int64_t elem, int64_t count, bool write, bool chunk) {
  Program& p = x.p;
  const Instr& ins = x.ins;
  std::atomic_ref<uint32_t> slot(word);
  const uint32_t me = p.linear + 1;
  const bool late = p.epoch > 1;
  uint32_t cur = slot.load(std::memory_order_acquire);
  for (;;) {
    if (chunk && (cur == kSplit || cur == kLocked)) return false;
    Word w = unpack(cur);
    // Repeated access by the same program in the same way, or one more reader of an element
    // with several: nothing changes.
    if (w.pidPlus1 == me && !late && w.op == std::min<uint32_t>(ins.memId, 511) &&
        (w.state == Written || (!write && w.state == ReadOne)))
      return true;
    if (!write && w.state == ReadMany && !late) return true;
    Word next{me, ins.memId, late, write ? Written : ReadOne};
    const char* conflict = nullptr;
    switch (w.state) {
      case None: break;
      case ReadOne:
        if (write) {
          if (!ordered(p, key, w)) conflict = "read";
        } else if (!ordered(p, key, w)) {
          next = w;  // keep the other reader for reports
          next.state = ReadMany;
        }
        break;
      case ReadMany:
        if (write) {
          if (w.pidPlus1 != me ? !ordered(p, key, w) : true) conflict = "read";
        } else {
          next = w;
        }
        break;
      case Written:
        if (!ordered(p, key, w)) conflict = "write";
        break;
    }
    if (slot.compare_exchange_weak(cur, pack(next), std::memory_order_acq_rel)) {
      if (late && (next.pidPlus1 == me)) {
        std::lock_guard<std::mutex> lock(p.launch.epochMutex);
        p.launch.lateEpochs[key] = p.epoch;
      }
      if (conflict)
        reportRace(x, elem, count, write ? "write" : "read", w, conflict,
                   write && w.state == Written && identicalBits(x, elem, count));
      return true;
    }
  }
}

// Makes chunk c's element words the state (copying the chunk word into them once).
void splitChunk(Program& p, Allocation& r, int64_t c) {
  std::atomic_ref<uint32_t> cw(r.race.chunks[size_t(c)]);
  uint32_t cur = cw.load(std::memory_order_acquire);
  for (;;) {
    if (cur == kSplit) return;
    if (cur == kLocked) {  // another program is splitting it: a few stores away
      std::this_thread::yield();
      cur = cw.load(std::memory_order_acquire);
      continue;
    }
    if (cur == 0) {  // never accessed: the element words (all 0) already say so
      if (cw.compare_exchange_weak(cur, kSplit, std::memory_order_acq_rel)) return;
      continue;
    }
    if (!cw.compare_exchange_weak(cur, kLocked, std::memory_order_acquire)) continue;
    int64_t lo = c * kRaceChunk, hi = std::min(lo + kRaceChunk, r.race.numel);
    for (int64_t e = lo; e < hi; ++e) std::atomic_ref<uint32_t>(r.race.words[size_t(e)]).store(cur, std::memory_order_relaxed);
    if (unpack(cur).late) {
      std::lock_guard<std::mutex> lock(p.launch.epochMutex);
      auto it = p.launch.lateEpochs.find(chunkKey(r, c));
      if (it != p.launch.lateEpochs.end())
        for (int64_t e = lo; e < hi; ++e) p.launch.lateEpochs[elementKey(r, e)] = it->second;
    }
    cw.store(kSplit, std::memory_order_release);
    return;
  }
}

// The word program p's plain access through `ins` leaves when nothing else is recorded
// (0 once p is past its first release: such accesses take the full path).
uint32_t wordFor(const Program& p, const Instr& ins, bool write) {
  if (p.epoch > 1) return 0;
  return pack(Word{p.linear + 1, ins.memId, false, write ? Written : ReadOne});
}

// The common case, inline: the word is fresh or was left the same way by the same program.
bool quick(uint32_t& word, uint32_t mine) {
  if (mine == 0) return false;
  std::atomic_ref<uint32_t> slot(word);
  uint32_t cur = slot.load(std::memory_order_relaxed);
  if (cur == mine) return true;
  return cur == 0 && slot.compare_exchange_strong(cur, mine, std::memory_order_acq_rel);
}

// Records access x to granules [lo, hi) of its allocation.
void recordRange(const Access& x, int64_t lo, int64_t hi, bool write) {
  Program& p = x.p;
  Allocation& r = x.a;
  const uint32_t mine = wordFor(p, x.ins, write);
  // A read of a chunk already read by several programs changes nothing (accessWord's first
  // test, inlined: every program reading a shared weight row takes this path per chunk).
  const bool plainRead = !write && p.epoch <= 1;
  for (int64_t e = lo; e < hi;) {
    const int64_t c = e / kRaceChunk, start = c * kRaceChunk, end = std::min(start + kRaceChunk, r.race.numel);
    if (e == start && hi >= end) {
      // The whole chunk: one word for all of it, unless it was split.
      // (A split or locked chunk word is neither fresh nor ours: quick() declines it, and
      // accessWord() returns false for it; neither has the ReadMany state bits.)
      uint32_t& cw = r.race.chunks[size_t(c)];
      const uint32_t cur = std::atomic_ref<uint32_t>(cw).load(std::memory_order_acquire);
      if (cur == mine || (plainRead && (cur & 3u) == ReadMany)) {
        e = end;
        continue;
      }
      if (quick(cw, mine) || accessWord(x, cw, chunkKey(r, c), start, end - start, write, true)) {
        e = end;
        continue;
      }
    }
    splitChunk(p, r, c);
    for (const int64_t stop = std::min(end, hi); e < stop; ++e) {
      uint32_t& w = r.race.words[size_t(e)];
      if (!quick(w, mine)) accessWord(x, w, elementKey(r, e), e, 1, write, false);
    }
  }
}

// Does a granule of [lo, hi) (within one chunk) hold another program's write?
bool writtenByOthers(const Program& p, const Allocation& a, int64_t lo, int64_t hi) {
  const uint32_t me = p.linear + 1;
  auto other = [&](uint32_t v) { return (v & 3u) == Written && (v >> 12) != me; };
  const int64_t c = lo / kRaceChunk;
  const uint32_t cw = std::atomic_ref<uint32_t>(a.race.chunks[size_t(c)]).load(std::memory_order_acquire);
  if (cw == kLocked) return true;  // being split by a reader: look again after
  if (cw != kSplit) return other(cw);
  for (int64_t e = lo; e < hi; ++e)
    if (other(std::atomic_ref<uint32_t>(a.race.words[size_t(e)]).load(std::memory_order_acquire))) return true;
  return false;
}

// Holds the write lock of chunk c of allocation a.
class ChunkLock {
 public:
  ChunkLock(LaunchState& launch, const Allocation& a, int64_t c) {
    const uint64_t h = (reinterpret_cast<uintptr_t>(&a) >> 6) * 0x9E3779B97F4A7C15ull + uint64_t(c);
    lock_ = &launch.writeLocks[size_t((h ^ (h >> 29)) % launch.writeLocks.size())];
    while (lock_->exchange(1, std::memory_order_acquire))
      while (lock_->load(std::memory_order_relaxed)) std::this_thread::yield();
  }
  ~ChunkLock() { lock_->store(0, std::memory_order_release); }
  ChunkLock(const ChunkLock&) = delete;
  ChunkLock& operator=(const ChunkLock&) = delete;

 private:
  std::atomic<uint8_t>* lock_;
};

}  // namespace

void clearRaceShadow(RaceShadow& s) {
  const int64_t chunks = (s.numel + kRaceChunk - 1) / kRaceChunk;
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, chunks, 4096), [&](const tbb::blocked_range<int64_t>& r) {
    for (int64_t c = r.begin(); c < r.end(); ++c) {
      if (s.chunks[size_t(c)] == kSplit) {
        int64_t lo = c * kRaceChunk;
        std::memset(s.words.get() + lo, 0, size_t(std::min(kRaceChunk, s.numel - lo)) * 4);
      }
      s.chunks[size_t(c)] = 0;
    }
  });
}

void raceRead(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, int64_t lo, int64_t hi) {
  recordRange(Access{p, ins, r, *r.alloc, eb, lo, 0, nullptr}, lo, hi, false);
}

void raceWrite(Program& p, const Instr& ins, const MemRegion& r, unsigned eb, int64_t lo, int64_t hi, uint64_t at,
               const uint8_t* src, uint64_t bytes) {
  if (hi <= lo) {
    std::memcpy(reinterpret_cast<void*>(at), src, size_t(bytes));
    return;
  }
  Allocation& a = *r.alloc;
  const uint64_t bpg = bytes / uint64_t(hi - lo);
  WriteBits bits;
  bits.mine = src;
  const Access x{p, ins, r, a, eb, lo, bpg, &bits};
  for (int64_t e = lo; e < hi;) {
    const int64_t c = e / kRaceChunk, stop = std::min((c + 1) * kRaceChunk, hi);
    const size_t off = size_t(uint64_t(e - lo) * bpg), len = size_t(uint64_t(stop - e) * bpg);
    uint8_t* dst = reinterpret_cast<uint8_t*>(at + off);
    ChunkLock lock(p.launch, a, c);
    bits.old = nullptr;
    if (writtenByOthers(p, a, e, stop)) {
      auto* kept = static_cast<uint8_t*>(p.arena.allocate(len));
      std::memcpy(kept, dst, len);
      bits.old = kept, bits.oldLo = e, bits.oldHi = stop;
    }
    std::memcpy(dst, src + off, len);
    recordRange(x, e, stop, true);
    e = stop;
  }
}

void raceAtomic(Program& p, const Instr& ins, const MemRegion& region, unsigned eb, uint64_t addr) {
  Allocation& r = *region.alloc;
  const int64_t g0 = r.granuleOf(addr), g1 = r.granuleOf(addr + eb);
  for (int64_t elem = g0; elem < g1; ++elem) {
    const int64_t c = elem / kRaceChunk;
    uint32_t cur = std::atomic_ref<uint32_t>(r.race.chunks[size_t(c)]).load(std::memory_order_acquire);
    EpochKey key = chunkKey(r, c);
    if (cur == kSplit || cur == kLocked) {
      splitChunk(p, r, c);
      cur = std::atomic_ref<uint32_t>(r.race.words[size_t(elem)]).load(std::memory_order_acquire);
      key = elementKey(r, elem);
    }
    Word w = unpack(cur);
    if (w.state == Written && !ordered(p, key, w)) {
      reportRace(Access{p, ins, region, r, eb, g0, 0, nullptr}, g0, g1 - g0, "atomic", w, "write", false);
      return;
    }
  }
}

}  // namespace tilevm::interp

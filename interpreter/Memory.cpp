// Memory.cpp - allocations (overlapping buffers merged), region lookup, allocations mapped
// through the address resolver during a launch, shadow allocation, and the tokens of wild
// pointer lanes.
#include "interpreter/Memory.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <mutex>

#include <tbb/parallel_for.h>

namespace tilevm::interp {

int64_t Buffer::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {

// Zeroed shadow memory kept between launches: a warm launch reuses pages the previous one
// touched instead of faulting in fresh ones (and unmapping them again, which interrupts every
// worker thread to flush its TLB). Blocks are matched by exact size; at most kKeepBytes stay.
class ShadowPool {
 public:
  static ShadowPool& get() {
    static ShadowPool pool;
    return pool;
  }
  void* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; i < free_.size(); ++i)
        if (free_[i].second == bytes) {
          void* p = free_[i].first;
          kept_ -= bytes;
          free_.erase(free_.begin() + std::ptrdiff_t(i));
          return p;
        }
    }
    return std::calloc(std::max<size_t>(bytes, 1), 1);
  }
  /// Takes back a block the caller has zeroed.
  void give(void* p, size_t bytes) {
    if (!p) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_ + bytes > kKeepBytes) {
      std::free(p);
      return;
    }
    kept_ += bytes;
    free_.emplace_back(p, bytes);
  }

 private:
  ~ShadowPool() {
    for (auto& [p, n] : free_) std::free(p);
  }
  static constexpr size_t kKeepBytes = size_t(1) << 30;
  std::mutex mutex_;
  std::vector<std::pair<void*, size_t>> free_;
  size_t kept_ = 0;
};

void zeroInParallel(uint8_t* p, size_t bytes) {
  constexpr size_t kBlock = size_t(1) << 18;
  tbb::parallel_for(size_t(0), (bytes + kBlock - 1) / kBlock, [&](size_t b) {
    std::memset(p + b * kBlock, 0, std::min(kBlock, bytes - b * kBlock));
  });
}

}  // namespace

uint8_t* Allocation::initShadow() {
  uint8_t* s = init.load(std::memory_order_acquire);
  if (s) return s;
  std::lock_guard<std::mutex> lock(initMutex);
  s = init.load(std::memory_order_acquire);
  if (s) return s;
  size_t n = std::max<size_t>(size_t(granules), 1);
  s = static_cast<uint8_t*>(ShadowPool::get().take(n));
  if (!s) throw std::bad_alloc();
  std::memset(s, kDefined, n);
  init.store(s, std::memory_order_release);
  return s;
}

Allocation::~Allocation() { std::free(init.load()); }

namespace {

// Returns an allocation's shadows to the pool, cleared.
void releaseShadows(Allocation& a) {
  ShadowPool& pool = ShadowPool::get();
  size_t n = std::max<size_t>(size_t(a.granules), 1);
  if (uint8_t* s = a.init.exchange(nullptr)) {
    zeroInParallel(s, n);
    pool.give(s, n);
  }
  if (a.race.words) {
    clearRaceShadow(a.race);
    pool.give(a.race.words.release(), n * 4);
    pool.give(a.race.chunks.release(), std::max<size_t>((size_t(a.granules) + kRaceChunk - 1) / kRaceChunk, 1) * 4);
  }
}

// The granule fields of `a` for granule g (its base and end set).
void setGranule(Allocation& a, unsigned g) {
  a.granule = g;
  a.gshift = unsigned(std::countr_zero(g));
  a.gbase = a.base & ~uint64_t(g - 1);
  a.granules = int64_t((a.end - a.gbase + g - 1) >> a.gshift);
}

std::string hexAddress(uint64_t a) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(a));
  return text;
}

}  // namespace

AddressSpace::~AddressSpace() {
  for (Allocation& a : allocs_) releaseShadows(a);
  for (Allocation& a : mappedAllocs_) releaseShadows(a);
}

void AddressSpace::makeShadows(Allocation& a, MemRegion* first, MemRegion* last, const Checks& checks) {
  ShadowPool& pool = ShadowPool::get();
  const size_t n = std::max<size_t>(size_t(a.granules), 1);
  bool uninit = false;
  for (MemRegion* r = first; r != last; ++r) uninit = uninit || !r->buffer->initialized;
  // Zeroed memory (calloc'd pages cost nothing until touched; pooled ones were cleared).
  if (checks.uninit && uninit) {
    uint8_t* s = static_cast<uint8_t*>(pool.take(n));
    if (!s) throw std::bad_alloc();
    a.init.store(s);
    for (MemRegion* r = first; r != last; ++r) {  // initialized buffers of the allocation are defined
      if (!r->buffer->initialized) continue;
      const int64_t lo = a.granuleOf(r->base), hi = int64_t((r->end - a.gbase + a.granule - 1) >> a.gshift);
      std::memset(s + lo, kDefined, size_t(hi - lo));
    }
  }
  // What earlier launches left undefined in these bytes.
  for (MemRegion* r = first; r != last && checks.uninit; ++r) {
    for (auto [lo, hi] : r->buffer->undefined) {
      hi = std::min<uint64_t>(hi, r->end - r->base);
      if (lo >= hi) continue;
      uint8_t* s = a.initShadow();
      const int64_t g0 = a.granuleOf(r->base + lo), g1 = int64_t((r->base + hi - a.gbase + a.granule - 1) >> a.gshift);
      std::memset(s + g0, kUndefined, size_t(g1 - g0));
    }
  }
  if (checks.races && !a.readOnly) {
    a.race.numel = a.granules;
    a.race.words.reset(static_cast<uint32_t*>(pool.take(n * 4)));
    a.race.chunks.reset(static_cast<uint32_t*>(pool.take(std::max<size_t>((n + kRaceChunk - 1) / kRaceChunk, 1) * 4)));
    if (!a.race.words || !a.race.chunks) throw std::bad_alloc();
  }
  for (MemRegion* r = first; r != last; ++r) {
    r->alloc = &a;
    r->readOnly = a.readOnly;
  }
}

AddressSpace::AddressSpace(std::vector<Buffer>& buffers, const Checks& checks, const std::vector<bool>& readOnly,
                           const std::vector<unsigned>& accessBytes)
    : checks_(checks) {
  for (Buffer& b : buffers) {
    MemRegion r;
    r.buffer = &b;
    r.readOnly = !readOnly.empty() && readOnly[size_t(&b - buffers.data())];
    r.elemBytes = storageBytes(b.elem);
    r.base = reinterpret_cast<uint64_t>(b.data());
    r.end = r.base + b.byteSize();
    regions_.push_back(r);
  }
  std::sort(regions_.begin(), regions_.end(), [](const MemRegion& a, const MemRegion& b) { return a.base < b.base; });
  // Allocations: maximal runs of regions whose byte ranges overlap (sorted by base, a region
  // joins the current run when it starts before the run's end).
  for (size_t i = 0; i < regions_.size();) {
    Allocation& a = allocs_.emplace_back();
    a.base = regions_[i].base;
    a.end = regions_[i].end;
    a.readOnly = true;
    unsigned granule = 8;
    size_t j = i;
    for (; j < regions_.size() && (j == i || regions_[j].base < a.end); ++j) {
      MemRegion& r = regions_[j];
      a.end = std::max(a.end, r.end);
      a.readOnly = a.readOnly && r.readOnly;
      size_t index = size_t(r.buffer - buffers.data());
      unsigned access = accessBytes.empty() ? r.elemBytes : accessBytes[index];
      granule = std::min(granule, r.elemBytes);
      if (access) granule = std::min(granule, access);
    }
    setGranule(a, granule);
    makeShadows(a, regions_.data() + i, regions_.data() + j, checks);
    i = j;
  }
}

void AddressSpace::setResolver(AddressResolver* r, bool mayStore, unsigned granule) {
  resolver_ = r;
  mayStore_ = mayStore;
  granule_ = granule;
}

MemRegion* AddressSpace::findMapped(uint64_t lo, uint64_t hi) const {
  const size_t n = mappedCount_.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; ++i) {
    MemRegion* r = mapped_[i].load(std::memory_order_relaxed);
    if (lo >= r->base && lo < r->end) return hi <= r->end ? r : nullptr;
  }
  return nullptr;
}

MemRegion* AddressSpace::lookup(uint64_t lo, uint64_t hi) {
  if (hi <= lo) return nullptr;
  if (MemRegion* r = find(lo, hi)) return r;
  if (mappedCount_.load(std::memory_order_relaxed))
    if (MemRegion* r = findMapped(lo, hi)) return r;
  // No page of a process starts at 0: null pointers (and small integers) are never asked about;
  // nor are wild lanes (Memory.h) or addresses inside the launch's own allocations.
  if (!resolver_ || lo < 4096 || isWild(lo)) return nullptr;
  for (const Allocation& a : allocs_)
    if (lo >= a.base && lo < a.end) return nullptr;
  std::lock_guard<std::mutex> lock(mapMutex_);
  for (size_t i = 0, n = mappedCount_.load(); i < n; ++i) {  // mapped by another thread meanwhile
    MemRegion* r = mapped_[i].load();
    if (lo >= r->base && lo < r->end) return hi <= r->end ? r : nullptr;
  }
  if (refused_.count(lo)) return nullptr;
  auto refuse = [&](std::string why) -> MemRegion* {
    if (refused_.size() < kMaxMapped) refused_.emplace(lo, std::move(why));
    return nullptr;
  };
  if (mappedCount_.load() == kMaxMapped)
    return refuse("the launch has mapped " + std::to_string(kMaxMapped) + " arrays through addresses, the most it maps");
  std::string why;
  std::optional<Buffer> found = resolver_->resolve(lo, mayStore_, why);
  if (!found) return refuse(why);
  Buffer& b = mappedBuffers_.emplace_back(std::move(*found));
  const uint64_t base = reinterpret_cast<uint64_t>(b.data()), end = base + b.byteSize();
  std::string clash;
  if (lo < base || lo >= end) clash = "the resolver answered with memory that does not hold it";
  for (const std::deque<Allocation>* list : {&allocs_, &mappedAllocs_})
    for (const Allocation& a : *list)
      if (clash.empty() && base < a.end && a.base < end)
        clash = "it lies in " + b.name + " (" + std::to_string(end - base) + " bytes at " + hexAddress(base) +
                "), which overlaps other memory of the launch only in part; pass that whole array instead";
  if (!clash.empty()) {
    mappedBuffers_.pop_back();
    return refuse(clash);
  }
  MemRegion& r = mappedRegions_.emplace_back();
  r.buffer = &b;
  r.elemBytes = storageBytes(b.elem);
  r.base = base;
  r.end = end;
  Allocation& a = mappedAllocs_.emplace_back();
  a.base = base;
  a.end = end;
  a.readOnly = !mayStore_;
  setGranule(a, granule_ ? std::min(granule_, r.elemBytes) : r.elemBytes);
  makeShadows(a, &r, &r + 1, checks_);
  mapped_[mappedCount_.load()].store(&r, std::memory_order_relaxed);
  mappedCount_.fetch_add(1, std::memory_order_release);
  return hi <= end ? &r : nullptr;
}

std::string AddressSpace::unmappedReason(uint64_t addr) {
  if (!resolver_) return "";
  std::lock_guard<std::mutex> lock(mapMutex_);
  auto it = refused_.find(addr);
  return it == refused_.end() ? "" : it->second;
}

void AddressSpace::finishMapped() {
  if (!resolver_ || mappedBuffers_.empty()) return;
  std::vector<Buffer> out;
  for (Buffer& b : mappedBuffers_) out.push_back(std::move(b));
  mappedBuffers_.clear();
  resolver_->finished(out);
}

void AddressSpace::collectUndefined() {
  std::vector<MemRegion*> all;
  for (MemRegion& r : regions_) all.push_back(&r);
  for (size_t i = 0, n = mappedCount_.load(); i < n; ++i) all.push_back(mapped_[i].load());
  for (MemRegion* rp : all) {
    MemRegion& r = *rp;
    auto& out = r.buffer->undefined;
    out.clear();
    const uint8_t* s = r.alloc->init.load(std::memory_order_acquire);
    if (!s) continue;
    const Allocation& a = *r.alloc;
    const int64_t g1 = int64_t((r.end - a.gbase + a.granule - 1) >> a.gshift);
    for (int64_t g = a.granuleOf(r.base); g < g1;) {
      // Undefined granules are rare: skip to the next one a word at a time (memchr).
      const void* next = std::memchr(s + g, kUndefined, size_t(g1 - g));
      if (!next) break;
      g = static_cast<const uint8_t*>(next) - s;
      int64_t e = g;
      while (e < g1 && s[e] == kUndefined) ++e;
      // Granules in bytes of the buffer, clipped to it.
      const uint64_t lo = std::max(a.gbase + (uint64_t(g) << a.gshift), r.base) - r.base;
      const uint64_t hi = std::min(a.gbase + (uint64_t(e) << a.gshift), r.end) - r.base;
      if (out.size() == kMaxUndefinedRanges) {
        out.clear();
        break;
      }
      out.emplace_back(lo, hi);
      g = e;
    }
  }
}

MemRegion* AddressSpace::find(uint64_t lo, uint64_t hi) {
  if (hi <= lo) return nullptr;
  auto it = std::upper_bound(regions_.begin(), regions_.end(), lo,
                             [](uint64_t a, const MemRegion& r) { return a < r.base; });
  if (it == regions_.begin()) return nullptr;
  // Regions of one allocation may overlap: any of them that starts at or before lo may hold
  // the range (regions of other allocations cannot).
  const Allocation* a = std::prev(it)->alloc;
  if (lo >= a->end) return nullptr;
  for (auto r = it; r != regions_.begin();) {
    --r;
    if (r->alloc != a) break;
    if (hi <= r->end) return &*r;
  }
  return nullptr;
}

const MemRegion* AddressSpace::regionOf(const Buffer& b) const {
  for (const MemRegion& r : regions_)
    if (r.buffer == &b) return &r;
  return nullptr;
}
uint64_t pointerFor(std::vector<__int128>& wild, __int128 addr) {
  if (addr >= 0 && addr < (__int128(1) << 63)) return uint64_t(addr);
  if (wild.size() >= kMaxWild) return kWildUnknown;
  wild.push_back(addr);
  return kWildBase + uint64_t(wild.size() - 1) * 64;
}

__int128 trueAddress(const std::vector<__int128>& wild, uint64_t v) {
  if (v >= kWildBase && (v - kWildBase) % 64 == 0 && (v - kWildBase) / 64 < wild.size()) return wild[(v - kWildBase) / 64];
  return v;
}

const MemRegion* AddressSpace::nearest(uint64_t addr) const {
  const MemRegion* best = nullptr;
  uint64_t bestDist = UINT64_MAX;
  std::vector<const MemRegion*> all;
  for (const MemRegion& r : regions_) all.push_back(&r);
  for (size_t i = 0, n = mappedCount_.load(); i < n; ++i) all.push_back(mapped_[i].load());
  for (const MemRegion* rp : all) {
    const MemRegion& r = *rp;
    uint64_t d = addr < r.base ? r.base - addr : addr >= r.end ? addr - r.end + 1 : 0;
    if (d < bestDist) {
      bestDist = d;
      best = &r;
    }
  }
  return best;
}

}  // namespace tilevm::interp

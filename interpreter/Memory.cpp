// Memory.cpp - region lookup and shadow allocation.
#include "interpreter/Memory.h"

#include <algorithm>
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

AddressSpace::~AddressSpace() {
  ShadowPool& pool = ShadowPool::get();
  for (MemRegion& r : regions_) {
    size_t n = size_t(r.buffer->numel());
    if (r.init) {
      zeroInParallel(r.init.get(), n);
      pool.give(r.init.release(), std::max<size_t>(n, 1));
    }
    if (r.race.words) {
      clearRaceShadow(r.race);
      pool.give(r.race.words.release(), std::max<size_t>(n, 1) * 4);
      pool.give(r.race.chunks.release(), std::max<size_t>((n + kRaceChunk - 1) / kRaceChunk, 1) * 4);
    }
  }
}

AddressSpace::AddressSpace(std::vector<Buffer>& buffers, const Checks& checks, const std::vector<bool>& readOnly) {
  for (Buffer& b : buffers) {
    MemRegion r;
    r.buffer = &b;
    r.readOnly = !readOnly.empty() && readOnly[size_t(&b - buffers.data())];
    r.elemBytes = storageBytes(b.elem);
    r.base = reinterpret_cast<uint64_t>(b.data());
    r.end = r.base + b.byteSize();
    size_t n = size_t(b.numel());
    // Zeroed memory (calloc'd pages cost nothing until touched; pooled ones were cleared).
    ShadowPool& pool = ShadowPool::get();
    if (checks.uninit && !b.initialized) r.init.reset(static_cast<uint8_t*>(pool.take(std::max<size_t>(n, 1))));
    if (checks.races && !r.readOnly) {
      r.race.numel = int64_t(n);
      r.race.words.reset(static_cast<uint32_t*>(pool.take(std::max<size_t>(n, 1) * 4)));
      r.race.chunks.reset(static_cast<uint32_t*>(pool.take(std::max<size_t>((n + kRaceChunk - 1) / kRaceChunk, 1) * 4)));
    }
    if ((checks.uninit && !b.initialized && !r.init) || (checks.races && !r.readOnly && !(r.race.words && r.race.chunks)))
      throw std::bad_alloc();
    regions_.push_back(std::move(r));
  }
  std::sort(regions_.begin(), regions_.end(), [](const MemRegion& a, const MemRegion& b) { return a.base < b.base; });
}

MemRegion* AddressSpace::find(uint64_t lo, uint64_t hi) {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), lo,
                             [](uint64_t a, const MemRegion& r) { return a < r.base; });
  if (it == regions_.begin()) return nullptr;
  --it;
  if (lo >= it->base && hi <= it->end && hi > lo) return &*it;
  return nullptr;
}

const MemRegion* AddressSpace::nearest(uint64_t addr) const {
  const MemRegion* best = nullptr;
  uint64_t bestDist = UINT64_MAX;
  for (const MemRegion& r : regions_) {
    uint64_t d = addr < r.base ? r.base - addr : addr >= r.end ? addr - r.end + 1 : 0;
    if (d < bestDist) {
      bestDist = d;
      best = &r;
    }
  }
  return best;
}

}  // namespace tilevm::interp

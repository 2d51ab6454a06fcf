// Memory.cpp - region lookup and shadow allocation.
#include "interpreter/Memory.h"

#include <algorithm>

namespace tilevm::interp {

int64_t Buffer::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

AddressSpace::AddressSpace(std::vector<Buffer>& buffers, const Checks& checks) {
  for (Buffer& b : buffers) {
    MemRegion r;
    r.buffer = &b;
    r.elemBytes = storageBytes(b.elem);
    r.base = reinterpret_cast<uint64_t>(b.bytes.data());
    r.end = r.base + b.bytes.size();
    size_t n = size_t(b.numel());
    // calloc: zeroed pages come from the OS untouched, so shadows cost nothing until used.
    if (checks.uninit && !b.initialized) r.init.reset(static_cast<uint8_t*>(std::calloc(std::max<size_t>(n, 1), 1)));
    if (checks.races) {
      r.race.numel = int64_t(n);
      r.race.words.reset(static_cast<uint32_t*>(std::calloc(std::max<size_t>(n, 1), 4)));
      r.race.chunks.reset(static_cast<uint32_t*>(std::calloc(std::max<size_t>((n + kRaceChunk - 1) / kRaceChunk, 1), 4)));
    }
    if ((checks.uninit && !b.initialized && !r.init) || (checks.races && !(r.race.words && r.race.chunks))) throw std::bad_alloc();
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

// Tile.h - a runtime value of the interpreter (a scalar or a tile, row-major, in arena memory,
// with an optional poison mask) and the per-worker bump arena that holds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "interpreter/Numeric.h"
#include "ir/Types.h"

namespace tilevm::interp {

/// Bump allocator reused across programs: reset() after each program, mark()/release() around
/// loop iterations, so memory is bounded by the live values of one iteration.
class Arena {
 public:
  explicit Arena(size_t chunkBytes = size_t(1) << 22) : chunkBytes_(chunkBytes) {}
  void* allocate(size_t bytes) {
    bytes = (bytes + 63) & ~size_t(63);
    if (chunk_ >= chunks_.size() || used_ + bytes > chunks_[chunk_].size) nextChunk(bytes);
    void* p = chunks_[chunk_].data.get() + used_;
    used_ += bytes;
    return p;
  }
  struct Mark { size_t chunk, used; };
  Mark mark() const { return {chunk_, used_}; }
  void release(Mark m) { chunk_ = m.chunk; used_ = m.used; }
  void reset() { chunk_ = 0; used_ = 0; }
  /// Bytes reserved (for the memory report).
  size_t reserved() const {
    size_t n = 0;
    for (const auto& c : chunks_) n += c.size;
    return n;
  }

 private:
  struct Chunk { std::unique_ptr<uint8_t[]> data; size_t size; };
  void nextChunk(size_t bytes) {
    if (chunk_ < chunks_.size()) ++chunk_;
    while (chunk_ < chunks_.size() && chunks_[chunk_].size < bytes) ++chunk_;
    if (chunk_ >= chunks_.size()) {
      size_t size = std::max(bytes, chunkBytes_);
      chunks_.push_back(Chunk{std::unique_ptr<uint8_t[]>(new uint8_t[size]), size});
      chunk_ = chunks_.size() - 1;
    }
    used_ = 0;
  }
  size_t chunkBytes_;
  std::vector<Chunk> chunks_;
  size_t chunk_ = 0, used_ = 0;
};

/// The symbolic form of an integer or pointer tile: the element at multi-index idx is exactly
/// base + sum_d idx[d] * stride[d] (pointers in bytes). See Affine.h.
struct Affine {
  int64_t base = 0;
  std::array<int64_t, ir::kMaxRank> stride{};
};

/// A runtime value: `type` describes the shape and element kind; `data` holds numElements()
/// elements in storage format (Numeric.h); `poison`, when set, marks lanes that came from a
/// masked-off load without `other` (one byte per element). A symbolic tile (`symbolic`) has
/// no data: its elements are given by `affine` until an op materializes them. A view (`view`,
/// float tiles made by splat and broadcast, Views.h) reads its element at multi-index idx
/// from data + sum_d idx[d] * affine.stride[d] elements: stride 0 repeats an element.
struct MemRegion;

struct Tile {
  ir::Type type;
  uint8_t* data = nullptr;
  uint8_t* poison = nullptr;
  /// For pointer tiles: the buffer the pointers were derived from (null: unknown). Bounds are
  /// checked against it, so an overrun of x that lands inside y is still reported.
  const MemRegion* provenance = nullptr;
  bool symbolic = false;
  bool view = false;
  Affine affine;

  /// Symbolic or a view: only ops that take such operands see it as it is (Exec.h).
  bool lazy() const { return symbolic || view; }

  int64_t size() const { return type.numElements(); }
  template <typename T> T* as() const { return reinterpret_cast<T*>(data); }
  template <typename T> T scalar() const { return *reinterpret_cast<const T*>(data); }
};

/// A dense tile over existing memory.
inline Tile tileAt(const ir::Type& t, uint8_t* data) {
  Tile x;
  x.type = t;
  x.data = data;
  return x;
}

/// Allocates an uninitialized tile of `t` in `arena`.
inline Tile allocTile(Arena& arena, const ir::Type& t) {
  Tile x;
  x.type = t;
  x.data = static_cast<uint8_t*>(arena.allocate(size_t(t.numElements()) * storageBytes(t.elem().kind)));
  return x;
}

}  // namespace tilevm::interp

// Memory.h - the launch's address space: buffers by address, grouped into allocations (buffers
// whose bytes overlap are one allocation), the bounds check's lookup, and the shadow state of
// the checks, kept per allocation in granules of its bytes.
#pragma once

#include <array>
#include <atomic>
#include <map>
#include <string>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "interpreter/Interpreter.h"
#include "interpreter/Numeric.h"

namespace tilevm::interp {

/// Granules per race-shadow chunk.
inline constexpr int64_t kRaceChunk = 64;

/// Race-detection shadow (layout in Races.cpp): one 32-bit word per chunk of 64 granules that
/// describes the whole chunk while every access covered it entirely, and one word per granule,
/// used only for chunks an access covered partly (calloc: untouched pages cost nothing).
struct RaceShadow {
  std::unique_ptr<uint32_t[], void (*)(void*)> words{nullptr, std::free};   ///< per granule
  std::unique_ptr<uint32_t[], void (*)(void*)> chunks{nullptr, std::free};  ///< per chunk
  int64_t numel = 0;  ///< granules
};

/// Zeroes a race shadow: the chunk words, and the granule words of split chunks (Races.cpp).
void clearRaceShadow(RaceShadow& s);

/// States of an uninitialized-shadow byte (one per granule).
enum InitState : uint8_t {
  kNeverWritten = 0,  ///< an `empty` buffer's bytes before any store
  kDefined = 1,       ///< written (or from an initialized buffer)
  kUndefined = 2,     ///< a store wrote an undefined (poison) lane here
};

/// One allocation: the bytes of one or more buffers of the launch whose ranges overlap (the
/// same array bound to two parameters, overlapping views of one array). Every check's shadow
/// belongs to it and is indexed in granules of its bytes: an access of E bytes at address a
/// covers granules [(a - gbase) / granule, (a - gbase + E) / granule), whatever the pointee type
/// of the pointer. The granule (a power of two) divides every access size of the kernel that
/// can reach the allocation, so the shadow is exact.
struct Allocation {
  uint64_t base = 0, end = 0;  ///< [base, end): the union of its buffers
  uint64_t gbase = 0;          ///< base rounded down to the granule
  unsigned granule = 1, gshift = 0;
  int64_t granules = 0;
  /// No store or atomic of the kernel can reach any buffer of it (WriteSet.h): loads may read
  /// it in place.
  bool readOnly = false;
  /// Per granule, an InitState; null while every byte is defined (made on the first store of a
  /// poison lane into an initialized allocation). Accessed via std::atomic_ref.
  std::atomic<uint8_t*> init{nullptr};
  RaceShadow race;
  std::mutex initMutex;  ///< guards making `init` late
  /// The granule holding byte address a (a within [gbase, end)).
  int64_t granuleOf(uint64_t a) const { return int64_t((a - gbase) >> gshift); }
  /// The init shadow, made (every granule kDefined) if it does not exist yet.
  uint8_t* initShadow();
  ~Allocation();
  Allocation() = default;
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
};

/// A buffer as the interpreter sees it (bounds and messages are per buffer; shadows are its
/// allocation's).
struct MemRegion {
  uint64_t base = 0, end = 0;  ///< [base, end) in bytes
  Buffer* buffer = nullptr;
  unsigned elemBytes = 1;
  Allocation* alloc = nullptr;
  /// alloc->readOnly (copied: the load's fast path reads it).
  bool readOnly = false;
};

/// Pointer lanes whose true address is outside [0, 2^63) (pointer arithmetic past the address
/// space: `x + 2**62` on an f32 pointer) hold a token at or above kWildBase, which no buffer
/// contains; the program's table (Program::wild) keeps the true address for the message.
inline constexpr uint64_t kWildBase = 0xFFF0000000000000ull;
/// The token of a wild lane whose true address was not kept (the table is full).
inline constexpr uint64_t kWildUnknown = kWildBase - 64;
/// The most wild addresses a program keeps.
inline constexpr size_t kMaxWild = size_t(1) << 16;

/// The pointer value for true address `addr`: itself when in [0, 2^63), else a token.
uint64_t pointerFor(std::vector<__int128>& wild, __int128 addr);
/// The true address of pointer value `v` (a token's, or v itself).
__int128 trueAddress(const std::vector<__int128>& wild, uint64_t v);
/// Is `v` a token of a wild lane?
inline bool isWild(uint64_t v) { return v >= kWildUnknown; }

/// The most undefined byte ranges a buffer carries out of a launch (Buffer::undefined). Past
/// it the buffer carries none: a later launch then cannot name what this one left undefined,
/// which can miss a finding but never makes a false one.
inline constexpr size_t kMaxUndefinedRanges = size_t(1) << 16;

/// All regions of a launch, sorted by address, and their allocations.
class AddressSpace {
 public:
  /// `readOnly[i]`: no store or atomic of the kernel can reach buffers[i] (WriteSet.h; empty:
  /// none known); an allocation is read-only when all its buffers are, and then gets no race
  /// shadow (a race needs a write). `accessBytes[i]`: the smallest access (load, store, atomic)
  /// size that can reach buffers[i] (0: none; empty: the buffers' element sizes); the granule of
  /// an allocation is the smallest of these and of its buffers' element sizes.
  AddressSpace(std::vector<Buffer>& buffers, const Checks& checks, const std::vector<bool>& readOnly,
               const std::vector<unsigned>& accessBytes = {});
  /// Clears the shadows and keeps their memory for the next launch (ShadowPool in Memory.cpp).
  ~AddressSpace();
  AddressSpace(const AddressSpace&) = delete;
  AddressSpace& operator=(const AddressSpace&) = delete;
  /// A region of the launch's buffers holding [lo, hi), or null.
  MemRegion* find(uint64_t lo, uint64_t hi);
  /// Memory reached through addresses (AddressResolver): set before the launch runs.
  /// `mayStore`: some store or atomic may write through a pointer of unknown origin (mapped
  /// allocations then get a race shadow); `granule`: the smallest access of the kernel (0: none).
  void setResolver(AddressResolver* r, bool mayStore, unsigned granule);
  /// A region holding [lo, hi) for a pointer of unknown provenance: find(), then the
  /// allocations mapped so far, then the resolver (the allocation it returns is mapped for the
  /// rest of the launch; thread-safe). Null when none holds it.
  MemRegion* lookup(uint64_t lo, uint64_t hi);
  /// What lookup() found about an address no region holds (what the resolver searched, or why
  /// the memory holding it cannot be used), for the out-of-bounds message; "" without a resolver.
  std::string unmappedReason(uint64_t addr);
  /// Hands the mapped buffers to the resolver (AddressResolver::finished), after collectUndefined().
  void finishMapped();
  /// The region nearest to an address (for reporting how far out an access is), mapped ones included.
  const MemRegion* nearest(uint64_t addr) const;
  /// The region of buffers[i].
  const MemRegion* regionOf(const Buffer& b) const;
  std::vector<MemRegion>& regions() { return regions_; }
  /// Sets every buffer's Buffer::undefined to the undefined bytes its allocation's shadow holds
  /// (after the launch; at most kMaxUndefinedRanges ranges per buffer, or none: see there).
  void collectUndefined();
  std::deque<Allocation>& allocations() { return allocs_; }
  /// The most allocations a launch maps through the resolver; past it, addresses stay unmapped.
  static constexpr size_t kMaxMapped = 4096;

 private:
  // Shadows of allocation `a` made of regions [first, last) (granule set).
  void makeShadows(Allocation& a, MemRegion* first, MemRegion* last, const Checks& checks);
  // A mapped region holding [lo, hi), or null (lock-free: published with mappedCount_).
  MemRegion* findMapped(uint64_t lo, uint64_t hi) const;
  std::vector<MemRegion> regions_;
  std::deque<Allocation> allocs_;
  Checks checks_;
  AddressResolver* resolver_ = nullptr;
  bool mayStore_ = false;
  unsigned granule_ = 0;
  std::mutex mapMutex_;                 // guards what follows, and calls to the resolver
  std::deque<Buffer> mappedBuffers_;    // the resolver's buffers (stable addresses)
  std::deque<MemRegion> mappedRegions_;
  std::deque<Allocation> mappedAllocs_;
  std::array<std::atomic<MemRegion*>, kMaxMapped> mapped_{};
  std::atomic<size_t> mappedCount_{0};
  std::map<uint64_t, std::string> refused_;  // address -> why the resolver found nothing (capped)
};

}  // namespace tilevm::interp

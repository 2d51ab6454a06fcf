// UndefinedMemory.h - what interpreter launches left undefined in host arrays (a store of
// masked-off load lanes: interp::Buffer::undefined), carried into later launches on the same
// memory, so that reading it then is the error it is within one launch.
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <vector>

#include "interpreter/Interpreter.h"

namespace tilevm::py_ext {

/// The process's record of undefined bytes, by allocation start. A record holds while its
/// array (the owner: the root of the views, kept by weak reference) lives and its bytes are as
/// the launch left them (a hash of the allocation): a host write since then, or a later array
/// at the same address, drops it. Used with the GIL held.
class UndefinedMemory {
 public:
  static UndefinedMemory& get();
  /// Before a launch: the undefined bytes recorded for `b` (its external memory, whose owner is
  /// `owner`) go into b.undefined.
  void carryIn(interp::Buffer& b, pybind11::handle owner);
  /// After an interpreter launch: records what it left undefined in each buffer (replacing
  /// earlier records of the same memory). `owners[i]` is buffers[i]'s owner (None: a copy).
  void carryOut(const std::vector<interp::Buffer>& buffers, const std::vector<pybind11::object>& owners);
  /// After a launch that does not track undefined bytes (the GPU engine): the buffers' records
  /// are dropped, since it may have written them.
  void forget(const std::vector<interp::Buffer>& buffers);
  /// Records `ranges` (byte ranges [first, second) of the `bytes` at `address`, the memory of
  /// array `owner`) as undefined, as a launch that left them so would: memory a host allocator
  /// handed out that nothing has written (torch.empty), known to the caller.
  void mark(pybind11::handle owner, uintptr_t address, size_t bytes, std::vector<std::pair<uint64_t, uint64_t>> ranges);
  /// The undefined byte ranges recorded at `address` (empty: none).
  std::vector<std::pair<uint64_t, uint64_t>> rangesAt(uintptr_t address) const;
  /// Records held (for tests).
  size_t size() const { return records_.size(); }

 private:
  struct Record {
    pybind11::weakref owner;
    size_t bytes = 0;
    size_t hash = 0;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
  };
  std::map<uintptr_t, Record> records_;
};

/// The module's functions over the record: mark_undefined, undefined_ranges.
void bindUndefinedMemory(pybind11::module_& m);

}  // namespace tilevm::py_ext

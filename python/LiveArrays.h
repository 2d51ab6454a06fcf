// LiveArrays.h - the Python door's address resolver (interp::AddressResolver): an address no
// argument's array holds (a pointer table of `tensor.data_ptr()` values) is looked up among the
// process's live NumPy arrays and torch CPU tensors (python/tilevm/resolver.py), and the one
// whose memory holds it is used in place for the launch; and the GPU engine's check that no
// host array handed to it holds host addresses a kernel could dereference there.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "interpreter/Interpreter.h"

namespace tilevm::py_ext {

/// One launch's resolver: the live arrays are listed once (with the GIL, at the first address
/// no argument holds), then each address is looked up among them. Undefined bytes an earlier
/// launch left in a mapped array are carried in (UndefinedMemory) and, by carryOut(), out.
class LiveArrays : public interp::AddressResolver {
 public:
  std::optional<interp::Buffer> resolve(uint64_t addr, bool mayStore, std::string& why) override;
  void finished(std::vector<interp::Buffer>& mapped) override;
  /// After the launch, with the GIL: records what it left undefined in the mapped arrays.
  void carryOut();
  /// Arrays the launch mapped (for tests and last_launch).
  size_t mappedCount() const { return mapped_.size(); }
  /// Drops the Python references (the GIL must be held).
  ~LiveArrays();

 private:
  struct Entry {
    uint64_t start = 0, bytes = 0;
    std::string dtype, kind;
    bool readOnly = false;
    pybind11::object owner;
  };
  void list();  // fills entries_ (takes the GIL)
  bool listed_ = false;
  std::string listError_;
  std::vector<Entry> entries_;
  std::vector<interp::Buffer> mapped_;
  std::vector<pybind11::object> mappedOwners_;
};

/// For the GPU engine, which copies host arrays to the GPU: when `kernel` makes pointers from
/// integers, a ValueError if an i64/u64 host array among `buffers` (owners[i] its array; CUDA
/// tensors are not looked at) holds the address of a live host array, which the GPU cannot
/// dereference; its message names the argument and the address.
void rejectHostAddressTables(const ir::Kernel& kernel, const std::vector<interp::Buffer>& buffers,
                             const std::vector<pybind11::object>& owners);

}  // namespace tilevm::py_ext

// UndefinedMemory.cpp - the record of undefined bytes across launches (UndefinedMemory.h).
#include "UndefinedMemory.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <functional>
#include <string_view>

namespace py = pybind11;

namespace tilevm::py_ext {

namespace {

size_t hashOf(const void* data, size_t bytes) {
  return std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(data), bytes));
}

size_t hashOf(const interp::Buffer& b) { return hashOf(b.data(), b.byteSize()); }

uintptr_t keyOf(const interp::Buffer& b) { return reinterpret_cast<uintptr_t>(b.data()); }

}  // namespace

UndefinedMemory& UndefinedMemory::get() {
  static UndefinedMemory* m = new UndefinedMemory;  // never destroyed: weakrefs outlive no interpreter
  return *m;
}

void UndefinedMemory::carryIn(interp::Buffer& b, py::handle owner) {
  b.undefined.clear();
  auto it = records_.find(keyOf(b));
  if (it == records_.end() || !b.external) return;
  const Record& r = it->second;
  py::object alive = r.owner();
  if (alive.is_none() || !alive.is(owner) || r.bytes != b.byteSize() || r.hash != hashOf(b)) {
    records_.erase(it);
    return;
  }
  b.undefined = r.ranges;
}

void UndefinedMemory::carryOut(const std::vector<interp::Buffer>& buffers, const std::vector<py::object>& owners) {
  for (size_t i = 0; i < buffers.size(); ++i) {
    const interp::Buffer& b = buffers[i];
    if (!b.external) continue;
    records_.erase(keyOf(b));
    if (b.undefined.empty() || i >= owners.size() || owners[i].is_none()) continue;
    Record r;
    try {
      r.owner = py::weakref(owners[i]);
    } catch (const py::error_already_set&) {  // not weakly referenceable: nothing is carried
      continue;
    }
    r.bytes = b.byteSize();
    r.hash = hashOf(b);
    r.ranges = b.undefined;
    records_.emplace(keyOf(b), std::move(r));
  }
  if (records_.size() > 1024)  // arrays that died since: their records go
    std::erase_if(records_, [](const auto& kv) { return kv.second.owner().is_none(); });
}

void UndefinedMemory::mark(py::handle owner, uintptr_t address, size_t bytes,
                           std::vector<std::pair<uint64_t, uint64_t>> ranges) {
  records_.erase(address);
  std::erase_if(ranges, [&](auto& r) {
    r.second = std::min<uint64_t>(r.second, bytes);
    return r.first >= r.second;
  });
  if (ranges.empty()) return;
  Record r;
  r.owner = py::weakref(owner);  // TypeError for an object without weak references
  r.bytes = bytes;
  r.hash = hashOf(reinterpret_cast<const void*>(address), bytes);
  r.ranges = std::move(ranges);
  records_.emplace(address, std::move(r));
}

std::vector<std::pair<uint64_t, uint64_t>> UndefinedMemory::rangesAt(uintptr_t address) const {
  auto it = records_.find(address);
  return it == records_.end() ? std::vector<std::pair<uint64_t, uint64_t>>{} : it->second.ranges;
}

void UndefinedMemory::forget(const std::vector<interp::Buffer>& buffers) {
  for (const interp::Buffer& b : buffers)
    if (b.external) records_.erase(keyOf(b));
}

void bindUndefinedMemory(py::module_& m) {
  m.def(
      "mark_undefined",
      [](py::handle owner, uintptr_t address, size_t bytes, std::vector<std::pair<uint64_t, uint64_t>> ranges) {
        UndefinedMemory::get().mark(owner, address, bytes, std::move(ranges));
      },
      py::arg("owner"), py::arg("address"), py::arg("bytes"), py::arg("ranges"),
      "Records byte ranges of host memory (the `bytes` at `address`, array `owner`'s) as undefined: the next "
      "interpreter launch reading them reports it, as it does for what an earlier launch left undefined");
  m.def(
      "undefined_ranges", [](uintptr_t address) { return UndefinedMemory::get().rangesAt(address); }, py::arg("address"),
      "The undefined byte ranges [begin, end) recorded for the memory at `address` (an allocation's start)");
}

}  // namespace tilevm::py_ext

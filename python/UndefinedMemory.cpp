// UndefinedMemory.cpp - the record of undefined bytes across launches (UndefinedMemory.h).
#include "UndefinedMemory.h"

#include <functional>
#include <string_view>

namespace py = pybind11;

namespace tilevm::py_ext {

namespace {

size_t hashOf(const interp::Buffer& b) {
  return std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(b.data()), b.byteSize()));
}

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

void UndefinedMemory::forget(const std::vector<interp::Buffer>& buffers) {
  for (const interp::Buffer& b : buffers)
    if (b.external) records_.erase(keyOf(b));
}

}  // namespace tilevm::py_ext

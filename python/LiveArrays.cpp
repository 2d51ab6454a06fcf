// LiveArrays.cpp - the Python door's address resolver and the GPU engine's host-address check
// (LiveArrays.h).
#include "LiveArrays.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "UndefinedMemory.h"
#include "frontend/Value.h"
#include "interpreter/Numeric.h"

namespace py = pybind11;

namespace tilevm::py_ext {

namespace {

std::string hexAddress(uint64_t a) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(a));
  return text;
}

// The scalar kind of a dtype name as python/tilevm/launcher.py spells it (torch and NumPy
// names; unsigned ones as the signed kind of their width, as the launcher types them), or
// nullopt for one the interpreter has no type for (complex, object...).
std::optional<ir::ScalarKind> kindOfName(const std::string& dtype) {
  static const std::pair<const char*, ir::ScalarKind> kKinds[] = {
      {"float16", ir::ScalarKind::F16}, {"bfloat16", ir::ScalarKind::BF16}, {"float32", ir::ScalarKind::F32},
      {"float64", ir::ScalarKind::F64}, {"int8", ir::ScalarKind::I8},       {"uint8", ir::ScalarKind::I8},
      {"int16", ir::ScalarKind::I16},   {"uint16", ir::ScalarKind::I16},    {"int32", ir::ScalarKind::I32},
      {"uint32", ir::ScalarKind::I32},  {"int64", ir::ScalarKind::I64},     {"uint64", ir::ScalarKind::I64},
      {"bool", ir::ScalarKind::I1},     {"float8_e5m2", ir::ScalarKind::F8E5}, {"float8_e4m3fn", ir::ScalarKind::F8E4NV},
      {"float8_e5m2fnuz", ir::ScalarKind::F8E5B16}, {"float8_e4m3fnuz", ir::ScalarKind::F8E4B8}};
  for (const auto& [name, kind] : kKinds)
    if (dtype == name) return kind;
  return std::nullopt;
}

// The live arrays as resolver.py lists them.
py::list liveArrays() { return py::module_::import("tilevm.resolver").attr("live_arrays")().cast<py::list>(); }

}  // namespace

void LiveArrays::list() {
  listed_ = true;
  py::gil_scoped_acquire gil;
  try {
    for (py::handle item : liveArrays()) {
      py::tuple t = item.cast<py::tuple>();
      Entry e;
      e.start = t[0].cast<uint64_t>();
      e.bytes = t[1].cast<uint64_t>();
      e.dtype = t[2].cast<std::string>();
      e.readOnly = t[3].cast<bool>();
      e.owner = py::reinterpret_borrow<py::object>(t[4]);
      e.kind = t[5].cast<std::string>();
      entries_.push_back(std::move(e));
    }
  } catch (const py::error_already_set& e) {
    listError_ = std::string("listing the live arrays failed: ") + e.what();
  }
}

std::optional<interp::Buffer> LiveArrays::resolve(uint64_t addr, bool mayStore, std::string& why) {
  if (!listed_) list();
  if (!listError_.empty()) {
    why = listError_;
    return std::nullopt;
  }
  // The widest allocation holding it (memory two objects share, torch.from_numpy of a view,
  // is taken whole).
  const Entry* best = nullptr;
  for (const Entry& e : entries_)
    if (addr >= e.start && addr - e.start < e.bytes && (!best || e.bytes > best->bytes)) best = &e;
  if (!best) {
    why = "no argument's array, live NumPy array or torch CPU tensor holds it (freed memory, or memory Python does not "
          "see)";
    return std::nullopt;
  }
  const std::string name = best->kind + "@" + hexAddress(best->start);
  if (best->readOnly && mayStore) {
    why = "it lies in " + name + ", which is read-only, and the kernel may store through pointers made from integers "
          "(use a writable array)";
    return std::nullopt;
  }
  interp::Buffer b;
  b.name = name;
  const std::optional<ir::ScalarKind> kind = kindOfName(best->dtype);
  b.elem = kind.value_or(ir::ScalarKind::I8);  // an array of another dtype: its bytes
  b.shape = {int64_t(best->bytes / interp::storageBytes(b.elem))};
  b.external = reinterpret_cast<uint8_t*>(best->start);
  b.externalBytes = size_t(best->bytes);
  {
    py::gil_scoped_acquire gil;
    UndefinedMemory::get().carryIn(b, best->owner);
    mappedOwners_.push_back(best->owner);
  }
  return b;
}

void LiveArrays::finished(std::vector<interp::Buffer>& mapped) { mapped_ = std::move(mapped); }

void LiveArrays::carryOut() {
  if (!mapped_.empty()) UndefinedMemory::get().carryOut(mapped_, mappedOwners_);
}

LiveArrays::~LiveArrays() = default;

void rejectHostAddressTables(const ir::Kernel& kernel, const std::vector<interp::Buffer>& buffers,
                             const std::vector<py::object>& owners) {
  bool makesPointers = false;
  ir::walk(kernel.body.block, [&](const ir::Op& op) { makesPointers = makesPointers || op.code == ir::Opcode::IntToPtr; });
  if (!makesPointers) return;
  std::vector<std::pair<uint64_t, uint64_t>> host;  // [start, end) of live host arrays, listed on demand
  bool listed = false;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const interp::Buffer& b = buffers[i];
    if (b.elem != ir::ScalarKind::I64) continue;  // int64 and uint64 arrays
    if (i < owners.size() && py::bool_(py::getattr(owners[i], "is_cuda", py::bool_(false)))) continue;  // device addresses
    if (!listed) {
      listed = true;
      for (py::handle item : liveArrays()) {
        py::tuple t = item.cast<py::tuple>();
        host.emplace_back(t[0].cast<uint64_t>(), t[0].cast<uint64_t>() + t[1].cast<uint64_t>());
      }
      for (const interp::Buffer& o : buffers) {
        const uint64_t s = reinterpret_cast<uint64_t>(o.data());
        host.emplace_back(s, s + o.byteSize());
      }
      std::sort(host.begin(), host.end());
      for (size_t r = 1; r < host.size(); ++r) host[r].second = std::max(host[r].second, host[r - 1].second);  // running max
    }
    const size_t n = b.byteSize() / 8;
    for (size_t k = 0; k < n; ++k) {
      uint64_t v;
      std::memcpy(&v, b.data() + k * 8, 8);
      // Some range holds v iff the largest end among the ranges starting at or below v passes it.
      auto it = std::upper_bound(host.begin(), host.end(), v, [](uint64_t x, const auto& r) { return x < r.first; });
      if (it != host.begin() && v < std::prev(it)->second)
          throw py::value_error("argument '" + b.name + "': element " + std::to_string(k) + " is " + hexAddress(v) +
                                ", the address of host memory (a NumPy array or torch CPU tensor), and the kernel makes "
                                "pointers from integers: the GPU engine copies host arrays to the GPU, so such a pointer "
                                "cannot be dereferenced there; use torch CUDA tensors and their data_ptr()");
    }
  }
}

}  // namespace tilevm::py_ext

// OpsAtomic.cpp - atomic_rmw and atomic_cas: each active lane's read-modify-write on its checked
// address (MemoryLanes.h), serialized under the launch's lock when races are checked or the type
// is f16/bf16, hardware atomics otherwise; acquire/release join and publish the vector clocks;
// fire-and-forget float adds deferred to the end of the launch, in program order.
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>

#include "interpreter/MemoryLanes.h"
#include "interpreter/Races.h"

namespace tilevm::interp {

using ir::Opcode;
using ir::ScalarKind;

namespace {

// One lane of an atomic, on plain memory (callers serialize) or with hardware atomics.
template <typename T>
T rmwLane(T* addr, T v, const std::string& kind, bool hardware) {
  auto apply = [&](T old) -> T {
    if (kind == "add" || kind == "fadd") {
      if constexpr (std::is_integral_v<T>) return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(v));
      else return old + v;
    }
    if (kind == "max") return std::is_floating_point_v<T> ? T(std::fmax(old, v)) : (old > v ? old : v);
    if (kind == "min") return std::is_floating_point_v<T> ? T(std::fmin(old, v)) : (old < v ? old : v);
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      if (kind == "umax") return U(old) > U(v) ? old : v;
      if (kind == "umin") return U(old) < U(v) ? old : v;
      if (kind == "and") return T(old & v);
      if (kind == "or") return T(old | v);
      if (kind == "xor") return T(old ^ v);
    }
    return v;  // xchg
  };
  if (!hardware) {
    T old = *addr;
    *addr = apply(old);
    return old;
  }
  std::atomic_ref<T> ref(*addr);
  T old = ref.load();
  while (!ref.compare_exchange_weak(old, apply(old))) {
  }
  return old;
}

template <typename T>
T casLane(T* addr, T cmp, T v, bool hardware, bool& swapped) {
  if (!hardware) {
    T old = *addr;
    swapped = std::memcmp(&old, &cmp, sizeof(T)) == 0;
    if (swapped) *addr = v;
    return old;
  }
  std::atomic_ref<T> ref(*addr);
  T expected = cmp;
  swapped = ref.compare_exchange_strong(expected, v);
  return expected;
}

// Runs f with the C++ type of a storage kind (f16/bf16 atomics go through f32 math on bits).
template <typename F>
void withAtomicType(ScalarKind k, F&& f) {
  switch (k) {
    case ScalarKind::I1:
    case ScalarKind::I8: f(int8_t{}); return;
    case ScalarKind::I16: f(int16_t{}); return;
    case ScalarKind::I32: f(int32_t{}); return;
    case ScalarKind::I64:
    case ScalarKind::Ptr: f(int64_t{}); return;
    case ScalarKind::F32: f(float{}); return;
    case ScalarKind::F64: f(double{}); return;
    case ScalarKind::F16:
    case ScalarKind::BF16: f(uint16_t{}); return;
    case ScalarKind::F8E5:
    case ScalarKind::F8E4NV:
    case ScalarKind::F8E4B15:
    case ScalarKind::F8E5B16:
    case ScalarKind::F8E4B8: return;  // no fp8 atomics (the verifier's rule)
  }
}

}  // namespace

void execAtomic(Program& p, const Instr& ins, const std::vector<const Tile*>& in, Tile& out) {
  const ir::Op& op = *ins.op;
  bool cas = op.code == Opcode::AtomicCas;
  const Tile& ptrs = *in[0];
  const Tile* mask = !cas && in.size() > 2 ? in[2] : nullptr;
  out = allocTile(p.arena, op.result()->type);
  ScalarKind k = out.type.elem().kind;
  unsigned eb = storageBytes(k);
  int64_t n = out.size();
  std::memset(out.data, 0, size_t(n) * eb);
  Lanes l = checkLanes(p, ins, ptrs, mask, eb);
  if (!l.any) return;
  const uint64_t* a = laneAddrs(p, l);
  const LaunchOptions& o = p.launch.options;
  std::string kind = cas ? "cas" : *op.strAttr("kind");
  const std::string* semAttr = op.strAttr("sem");
  std::string sem = semAttr ? *semAttr : "acq_rel";
  bool acquire = sem == "acquire" || sem == "acq_rel", release = sem == "release" || sem == "acq_rel";
  bool half = k == ScalarKind::F16 || k == ScalarKind::BF16;
  // Fire-and-forget float adds are applied after the launch, in program order.
  if (!cas && ins.resultUnused && o.deterministicAtomics && kind == "fadd") {
    for (int64_t i = 0; i < n; ++i) {
      MemRegion* r = l.active(i) ? laneRegion(l, i) : nullptr;
      if (!r) continue;
      if (o.checks.races && r->alloc->race.words) raceAtomic(p, ins, *r, eb, a[i]);
      p.deferred.push_back(DeferredAtomic{a[i], k, elementAsDouble(*in[1], i)});
    }
    return;
  }
  bool checked = o.checks.races;
  std::unique_lock<std::mutex> lock(p.launch.atomicMutex, std::defer_lock);
  if (checked || half) lock.lock();
  for (int64_t i = 0; i < n; ++i) {
    MemRegion* r = l.active(i) ? laneRegion(l, i) : nullptr;
    if (!r) continue;
    if (checked && r->alloc->race.words) raceAtomic(p, ins, *r, eb, a[i]);
    bool swapped = true;
    if (half) {
      // f16/bf16: computed in f32 and rounded, under the lock.
      uint16_t* addr = reinterpret_cast<uint16_t*>(a[i]);
      Tile cell = tileAt(ir::Type(out.type.elem()), reinterpret_cast<uint8_t*>(addr));
      double old = elementAsDouble(cell, 0);
      storeDouble(out, i, old);
      if (cas) {
        swapped = *addr == in[1]->as<uint16_t>()[i];
        if (swapped) *addr = in[2]->as<uint16_t>()[i];
      } else {
        double v = elementAsDouble(*in[1], i), nv = v;
        if (kind == "fadd") nv = old + v;
        else if (kind == "max") nv = std::fmax(old, v);
        else if (kind == "min") nv = std::fmin(old, v);
        storeDouble(cell, 0, nv);
      }
    } else {
      withAtomicType(k, [&](auto t) {
        using T = decltype(t);
        T* addr = reinterpret_cast<T*>(a[i]);
        T old = cas ? casLane<T>(addr, in[1]->as<T>()[i], in[2]->as<T>()[i], !checked, swapped)
                    : rmwLane<T>(addr, in[1]->as<T>()[i], kind, !checked);
        std::memcpy(out.data + size_t(i) * eb, &old, eb);
      });
    }
    if (checked) {
      // Synchronization: acquire joins the location's clock, release publishes ours.
      VectorClock& loc = p.launch.syncClocks[a[i]];
      if (acquire) p.clock.join(loc);
      if (release && swapped) {
        p.clock.set(p.linear, p.epoch);
        loc.join(p.clock);
        ++p.epoch;
        p.clock.set(p.linear, p.epoch);
      }
    }
  }
}

}  // namespace tilevm::interp

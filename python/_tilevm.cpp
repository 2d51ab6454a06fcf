// _tilevm.cpp - the Python extension's module: launches a kernel compiled by CompileCache.cpp
// (from a @triton.jit function's live source unit, or a file) on the interpreter over NumPy /
// torch memory in place (no copies), or on the GPU engine (runtime/CudaDevice: buffers copied to
// the GPU and back; CUDA tensors too), its options checked by the CLI's checker
// (runtime/RunOptions.h); DiffBindings.cpp adds `tilevm diff`'s comparison for `python3 -m
// tilevm --diff triton`, UndefinedMemory.cpp the record of undefined memory. The Python side is
// python/tilevm/.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <optional>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <pthread.h>
#include <tuple>

#include "frontend/Compile.h"
#include "interpreter/Interpreter.h"
#include "interpreter/Numeric.h"
#include "interpreter/Profile.h"
#include "interpreter/Report.h"
#include "ir/text/Text.h"
#include "runtime/Device.h"
#include "runtime/Errors.h"
#include "runtime/Launch.h"
#include "runtime/LaunchCache.h"
#include "runtime/RunOptions.h"
#include "LiveArrays.h"
#include "CompileCache.h"
#include "DiffBindings.h"
#include "UndefinedMemory.h"
#ifdef TILEVM_HAVE_GPU
#include "codegen/Codegen.h"
#include "runtime/CudaDevice.h"
#endif

namespace py = pybind11;
using namespace tilevm;
using py_ext::Compiled;
using py_ext::compile;
using py_ext::compileUnit;
using py_ext::kindOf;

namespace {

/// A kernel's direct GPU launcher for one specialization (rt::DirectLaunch), which the Python
/// door keeps per launch key (launcher.py) so a warm launch of CUDA tensors costs what
/// Triton's does. Holds the compiled kernel its launcher was made from.
struct DirectHandle {
  std::shared_ptr<Compiled> compiled;
  std::unique_ptr<rt::DirectLaunch> launcher;
  std::vector<bool> floats;  ///< per parameter: a float (else an address or an integer)
};

// A Python int or float as DirectLaunch's 8-byte slot, or nullopt (a value of another kind, an
// integer past 64 bits): the launch declines.
std::optional<uint64_t> directSlot(PyObject* o, bool isFloat) {
  if (isFloat) {
    if (!PyFloat_Check(o)) return std::nullopt;
    double d = PyFloat_AS_DOUBLE(o);
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof d);
    return bits;
  }
  if (!PyLong_Check(o)) return std::nullopt;  // bool is an int
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow > 0) {  // a u64 past INT64_MAX travels as its bits
    unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred()) return PyErr_Clear(), std::nullopt;
    return uint64_t(u);
  }
  if (overflow < 0 || (v == -1 && PyErr_Occurred())) return PyErr_Clear(), std::nullopt;
  return uint64_t(v);
}

// The interpreter, one for the process: it keeps the kernels it prepared (a hit per later launch).
rt::Device& interpreter() {
  static std::unique_ptr<rt::Device> d = rt::interpreterDevice();
  return *d;
}

// One GPU engine per device, opened on first use (warps and stages are each launch's options).
rt::Device& gpu(int ordinal) {
  static std::map<int, std::unique_ptr<rt::Device>> devices;
  if (auto it = devices.find(ordinal); it != devices.end()) return *it->second;
  auto d = rt::cudaDevice(ordinal, /*coldL2=*/false);
  if (!d) throw std::runtime_error("tilevm: --device cuda: " + d.error().diag.message);
  return *(devices[ordinal] = std::move(*d));
}

// A failed launch as Python's exception: ValueError for a bad kernel, argument or option (with
// the kernel's file:line:col: where the error has one), RuntimeError for the driver or GPU
// (tilevm run's exit 1 and 2).
[[noreturn]] void raise(const rt::LaunchError& e, const char* where) {
  if (e.kind == rt::ErrorKind::Environment) throw std::runtime_error(std::string("tilevm: ") + where + ": " + e.diag.message);
  if (e.diag.line == 0) throw py::value_error(e.diag.message);
  throw py::value_error(e.diag.file + ":" + std::to_string(e.diag.line) + ":" + std::to_string(e.diag.col) + ": " +
                        e.diag.message);
}

// The launch options a Python launch takes (tilevm.options, plus grid, num_warps, num_stages and
// repeat from the launch itself), each read into the text the CLI's checker parses.
constexpr std::pair<const char*, std::string rt::RunOptionTexts::*> kOptions[] = {
    {"grid", &rt::RunOptionTexts::grid},           {"threads", &rt::RunOptionTexts::threads},
    {"schedule", &rt::RunOptionTexts::schedule},   {"check", &rt::RunOptionTexts::check},
    {"timeout", &rt::RunOptionTexts::timeout},     {"fuel", &rt::RunOptionTexts::fuel},
    {"device", &rt::RunOptionTexts::device},       {"num_warps", &rt::RunOptionTexts::numWarps},
    {"num_stages", &rt::RunOptionTexts::numStages}, {"maxnreg", &rt::RunOptionTexts::maxnreg},
    {"repeat", &rt::RunOptionTexts::repeat},
};

// A Python value as the option text a command line would hold: strings as they are, ints in
// decimal, floats by repr, a grid tuple as X,Y,Z. Anything else (True, 1.5 for an integer, a
// list of strings for a schedule) reaches the checker as its str() and is refused there.
std::string optionText(py::handle v) {
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::float_>(v)) return py::repr(v).cast<std::string>();
  if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
    std::string s;
    for (py::handle e : v) s += (s.empty() ? "" : ",") + optionText(e);
    return s;
  }
  return py::str(v).cast<std::string>();
}

// The checked options, or ValueError with the CLI's message.
rt::RunOptions checkedOptions(const py::dict& d) {
  rt::RunOptionTexts t;
  for (auto [key, value] : d) {
    std::string name = py::str(key).cast<std::string>();
    bool known = name == "strict";
    if (known && !py::isinstance<py::bool_>(value))
      throw py::value_error("strict=" + py::repr(value).cast<std::string>() + ": expected True or False");
    if (known) t.strict = value.cast<bool>();
    for (const auto& [option, field] : kOptions)
      if (name == option) t.*field = optionText(value), known = true;
    if (!known) throw py::type_error("tilevm: unknown launch option '" + name + "'");
  }
  auto o = rt::parseRunOptions(t);
  if (!o) throw py::value_error(o.error().message);
  return std::move(*o);
}

// Arguments in the kernel's parameter order: ("buffer", name, allocation start, bytes, dtype,
// numel, pointer, read-only, owner) or ("int"/"float", name, value, type). A read-only array (a
// read-only memory map, np.frombuffer of bytes, setflags(write=False)) is refused where the
// kernel may store through it; where it cannot, the GPU engine gets a private copy (it copies
// every buffer back).
void bindArgs(const Compiled& c, const py::list& args, bool onGpu, std::vector<interp::Buffer>& buffers,
              std::vector<interp::Arg>& launchArgs, std::vector<py::object>& owners) {
  for (const auto& item : args) {
    py::tuple t = item.cast<py::tuple>();
    std::string kind = t[0].cast<std::string>(), name = t[1].cast<std::string>();
    interp::Arg a;
    if (kind == "buffer") {
      size_t param = launchArgs.size();
      bool readOnly = t[7].cast<bool>();
      if (readOnly && (!c.written || param >= c.written->size() || (*c.written)[param]))
        throw py::value_error("argument '" + name + "': the array is read-only and the kernel may store through '" + name +
                              "' (pass a writable copy, e.g. numpy.array(" + name + "))");
      interp::Buffer b;
      b.name = name;
      uint8_t* start = reinterpret_cast<uint8_t*>(t[2].cast<uintptr_t>());
      size_t bytes = t[3].cast<size_t>();
      if (readOnly && onGpu) b.bytes.assign(start, start + bytes);
      else b.external = start, b.externalBytes = bytes;
      if (!onGpu) py_ext::UndefinedMemory::get().carryIn(b, t[8]);
      owners.push_back(b.external ? py::reinterpret_borrow<py::object>(t[8]) : py::none());
      b.elem = kindOf(t[4].cast<std::string>());
      b.shape = {t[5].cast<int64_t>()};
      a.isBuffer = true;
      a.buffer = buffers.size();
      a.byteOffset = t[6].cast<uintptr_t>() - t[2].cast<uintptr_t>();
      buffers.push_back(std::move(b));
    } else if (kind == "int") {
      // u64 scalars past INT64_MAX travel as their bits.
      a.i = t[3].cast<std::string>() == "u64" ? int64_t(t[2].cast<uint64_t>()) : t[2].cast<int64_t>();
      a.f = double(a.i);
    } else {
      a.f = t[2].cast<double>();
    }
    launchArgs.push_back(a);
  }
}

// True on the thread Python runs signal handlers on (only it sees KeyboardInterrupt).
bool onMainThread() {
  static const unsigned long mainIdent =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  return PyThread_get_thread_ident() == mainIdent;
}

// One long-lived thread that runs the main thread's launches (a fresh thread per launch costs
// ~400 us: the thread-local state of TBB and the interpreter is built anew each time).
class LaunchThread {
 public:
  /// Starts `job`; done() turns true when it has returned.
  void start(std::function<void()> job) {
    std::lock_guard<std::mutex> lock(m_);
    job_ = std::move(job);
    done_ = false;
    cv_.notify_all();
  }
  /// Waits up to `ms` for the job to finish; true when it has.
  bool wait(int ms) {
    std::unique_lock<std::mutex> lock(m_);
    return cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return done_; });
  }
  /// The process's launch thread, started on first use. Never destroyed (its thread waits until
  /// exit); a child of fork() starts its own (the parent's thread does not exist there).
  static LaunchThread& get() {
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, [] { instance_ = nullptr; }); });
    if (!instance_) instance_ = new LaunchThread;
    return *instance_;
  }

 private:
  LaunchThread() {
    std::thread([this] {
      std::unique_lock<std::mutex> lock(m_);
      for (;;) {
        cv_.wait(lock, [&] { return bool(job_); });
        std::function<void()> job = std::move(job_);
        job_ = nullptr;
        lock.unlock();
        job();
        lock.lock();
        done_ = true;
        cv_.notify_all();
      }
    }).detach();
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool done_ = true;
  static inline LaunchThread* instance_ = nullptr;  // only the main thread (holding the GIL) uses it
};

// Runs the launch without the GIL. On the main thread it runs on the launch thread while this
// one calls PyErr_CheckSignals every 20 ms; a KeyboardInterrupt (or any exception a signal
// handler raises) sets the launch's cancel flag, and once the launch has stopped (within a loop
// iteration or a program) the exception is raised here.
rt::LaunchResult runInterruptibly(const Compiled& c, rt::BoundArgs& bound, rt::LaunchOptions o) {
  o.repeat = 1;
  auto launch = [&] {
    auto r = interpreter().run(c.loaded, bound, o);
    if (!r) raise(r.error(), "the interpreter");
    return std::move(*r);
  };
  // A launch from a signal handler run by the watch below (re-entrant) runs in place too.
  static bool watching = false;  // main thread only
  if (!onMainThread() || watching) {
    py::gil_scoped_release release;
    return launch();
  }
  struct Watching {
    Watching() { watching = true; }
    ~Watching() { watching = false; }
  } scope;
  std::atomic<bool> cancel{false};
  o.interpreter.cancel = &cancel;
  rt::LaunchResult rep;
  std::exception_ptr failure;
  LaunchThread& worker = LaunchThread::get();
  worker.start([&] {
    try {
      rep = launch();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  bool interrupted = false;
  for (;;) {
    {
      py::gil_scoped_release release;
      if (worker.wait(20)) break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {
      interrupted = true;  // the handler's exception is pending; stop the launch, then raise it
      cancel = true;
    }
  }
  if (interrupted) throw py::error_already_set();
  if (failure) std::rethrow_exception(failure);
  return rep;
}

}  // namespace

PYBIND11_MODULE(_tilevm, m) {
  m.doc() = "tilevm: Triton kernels on a checking CPU interpreter, or on the GPU engine";
  py_ext::bindUndefinedMemory(m);
  py_ext::bindDiff(m);
  m.def(
      "launch",
      [](const std::string& path, const std::string& kernel, const std::string& signature,
         const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes, const py::list& args,
         const py::dict& options, const py::object& unit, int64_t unitKey, uint64_t stream, bool warmup,
         const std::string& access, const std::vector<uint64_t>& programs, bool fpFusion, bool debug) {
        rt::RunOptions o = checkedOptions(options);
        const frontend::LaunchFlags flags{fpFusion, o.launch.gpu.numWarps, debug};
        if (!programs.empty() && o.device.gpu) throw py::value_error("programs=: a sample of programs runs on the interpreter only");
        // On the GPU, as Triton launches: on the caller's stream, queued without waiting when
        // every array is already on the GPU (CUDA tensors); CPU arrays are copied and waited for.
        o.launch.gpu.asynchronous = o.launch.repeat == 1;
        o.launch.gpu.stream = stream;
        o.launch.gpu.compileOnly = warmup;
        // A live function's source unit when given (the Python door's way); else the file.
        auto c = unit.is_none() ? compile(path, kernel, signature, defines, includes, flags)
                                : compileUnit(unitKey, unit, signature, defines, flags);
        std::vector<interp::Buffer> buffers;
        std::vector<interp::Arg> launchArgs;
        std::vector<py::object> owners;
        bindArgs(*c, args, o.device.gpu, buffers, launchArgs, owners);
        rt::LaunchResult result;
        py::object directHandle = py::none();
        py::object writers = py::none();  // with `access`: that buffer's first writers
        py::object writerOps = py::none(), opLocs = py::none();  // ... the ops of those writes
        rt::BoundArgs bound;
        bound.buffers = std::move(buffers);
        bound.args = launchArgs;
        if (!o.device.gpu) {
          // A warmup on the interpreter is the compile above (cached) and the arguments' checks.
          // Addresses no argument's array holds (pointer tables) resolve to live arrays.
          py_ext::LiveArrays live;
          o.launch.interpreter.resolver = &live;
          // `access`: the buffer whose writers to record (the first program to write each element).
          std::optional<interp::AccessMap> accessMap;
          if (!access.empty()) {
            bool known = false;
            for (const auto& b : bound.buffers) known = known || b.name == access;
            if (!known) throw py::value_error("access='" + access + "': no array argument of that name");
            o.launch.interpreter.access = &accessMap.emplace(access);
          }
          // `programs`: run only these (linear ids, ascending): a sample of the grid.
          o.launch.interpreter.programs = programs;
          if (!warmup) result = runInterruptibly(*c, bound, o.launch);
          if (accessMap && accessMap->firstWriter) {
            std::string w(size_t(accessMap->numel) * sizeof(uint32_t), '\0');
            for (int64_t i = 0; i < accessMap->numel; ++i) {
              uint32_t id = accessMap->firstWriter[size_t(i)].load(std::memory_order_relaxed);
              std::memcpy(w.data() + size_t(i) * sizeof id, &id, sizeof id);
            }
            writers = py::bytes(w);
            for (int64_t i = 0; i < accessMap->numel; ++i) {
              uint32_t op = accessMap->firstWriteOp[size_t(i)].load(std::memory_order_relaxed);
              std::memcpy(w.data() + size_t(i) * sizeof op, &op, sizeof op);
            }
            writerOps = py::bytes(w);
            opLocs = py::cast(accessMap->opLocs);
          }
          py_ext::UndefinedMemory::get().carryOut(bound.buffers, owners);
          live.carryOut();
        } else {
          py_ext::rejectHostAddressTables(*c->loaded.kernel, bound.buffers, owners);
          py_ext::UndefinedMemory::get().forget(bound.buffers);
          rt::Device& d = gpu(o.device.ordinal);
          rt::Outcome<rt::LaunchResult> r = [&] {
            py::gil_scoped_release release;
            return d.run(c->loaded, bound, o.launch);
          }();
          if (!r) raise(r.error(), "the GPU engine");
          result = std::move(*r);
          // Queued launches of memory all on this GPU get a direct launcher for the next ones.
          if (o.launch.gpu.asynchronous)
            if (std::unique_ptr<rt::DirectLaunch> direct = d.direct(c->loaded, bound, o.launch.gpu)) {
              auto h = std::make_shared<DirectHandle>();
              h->compiled = c;
              h->launcher = std::move(direct);
              for (const auto& p : c->loaded.kernel->params()) h->floats.push_back(p->type.isFloat());
              directHandle = py::cast(h);
            }
        }
        const interp::Report& rep = result.report;
        py::dict out;
        size_t warnings = 0, notes = 0;
        for (const interp::Finding& f : rep.findings) {
          warnings += f.severity == interp::Finding::Severity::Warning;
          notes += f.severity == interp::Finding::Severity::Note;
        }
        out["findings"] = rep.errors();  // errors: the launch failed (tilevm run's exit 3)
        py::list kinds;  // each finding's kind as reports name it ("out-of-bounds", "timeout", ...)
        for (const interp::Finding& f : rep.findings) kinds.append(interp::kindName(f.kind));
        out["kinds"] = kinds;
        out["warnings"] = warnings;
        out["notes"] = notes;  // benign races (errors under strict)
        out["report"] = rep.text();
        out["printed"] = rep.printed;
        out["seconds"] = rep.seconds;
        out["programs"] = rep.programs;
        out["copied_bytes"] = result.gpu ? result.gpu->copiedBytes : 0;
        if (result.gpu) {  // what the driver's JIT made of the kernel (cuFuncGetAttribute)
          py::dict g;
          g["arch"] = result.gpu->arch;
          g["threads"] = result.gpu->threads;
          g["registers"] = result.gpu->registers;
          g["static_shared"] = result.gpu->staticSharedBytes;
          g["dynamic_shared"] = result.gpu->dynamicSharedBytes;
          g["local_bytes"] = result.gpu->localBytes;
          out["gpu"] = g;
        }
        rt::CacheCounters counts = rt::cacheCounters();  // the process's, after this launch
        out["bytecode_encodes"] = counts.bytecodeEncodes;
        out["prepares"] = counts.prepares;
        out["module_loads"] = counts.moduleLoads;
        out["cache_hits"] = counts.hits;
        out["direct"] = directHandle;
        // With `access`: per element of that buffer's allocation, the linear id + 1 of the first
        // program that wrote it (0: none), as little-endian uint32.
        out["writers"] = writers;
        // ... and the memory op of each first write (an index into "op_locs" + 1; 0: none), with
        // "op_locs": "file:line:col" of each memory op.
        out["writer_ops"] = writerOps;
        out["op_locs"] = opLocs;
        return out;
      },
      py::arg("path"), py::arg("kernel"), py::arg("signature"), py::arg("defines"), py::arg("includes"), py::arg("args"),
      py::arg("options"), py::arg("unit") = py::none(), py::arg("unit_key") = 0, py::arg("stream") = 0,
      py::arg("warmup") = false, py::arg("access") = "", py::arg("programs") = std::vector<uint64_t>{},
      py::arg("fp_fusion") = false, py::arg("debug") = false);
  py::class_<DirectHandle, std::shared_ptr<DirectHandle>>(m, "DirectLaunch",
                                                           "A kernel loaded on the GPU for one specialization of its arguments")
      .def(
          "launch",
          [](DirectHandle& h, const py::tuple& grid, const py::tuple& args, uint64_t stream) {
            // grid: 1 to 3 ints; args: one int (address, integer) or float per parameter.
            std::array<int64_t, 3> g{1, 1, 1};
            if (grid.size() < 1 || grid.size() > 3 || args.size() != h.floats.size()) return false;
            for (size_t i = 0; i < grid.size(); ++i) {
              std::optional<uint64_t> v = directSlot(grid[i].ptr(), false);
              if (!v) return false;
              g[i] = int64_t(*v);
            }
            std::vector<uint64_t> slots(args.size());
            for (size_t i = 0; i < args.size(); ++i) {
              std::optional<uint64_t> v = directSlot(args[i].ptr(), h.floats[i]);
              if (!v) return false;
              slots[i] = *v;
            }
            rt::Outcome<bool> r = [&] {
              py::gil_scoped_release release;
              return h.launcher->launch(g, slots, stream);
            }();
            if (!r) raise(r.error(), "the GPU engine");
            return *r;
          },
          "Queues the kernel without waiting; False (nothing launched) when the arguments are not those it was "
          "specialized for, or its module was unloaded");
  m.def(
      "compile_unit",
      [](const py::object& unit, int64_t unitKey, const std::string& signature, const std::map<std::string, std::string>& defines,
         bool fpFusion, unsigned numWarps, bool debug) {
        // A live function's kernel compiled, not launched (triton.compile): its tile IR as text.
        auto c = compileUnit(unitKey, unit, signature, defines, {fpFusion, numWarps, debug});
        return py::make_tuple(c->loaded.kernel->name, ir::print(*c->loaded.module));
      },
      py::arg("unit"), py::arg("unit_key"), py::arg("signature"), py::arg("defines"), py::arg("fp_fusion") = false,
      py::arg("num_warps") = 4, py::arg("debug") = false,
      "(kernel name, tile IR text) of a source unit compiled with this signature and constexprs; CompilationError if not");
  m.def("cache_counters", [] {
    rt::CacheCounters c = rt::cacheCounters();
    return py::make_tuple(c.bytecodeEncodes, c.prepares, c.moduleLoads, c.hits);
  }, "The process's launch-cache counters: (bytecode_encodes, prepares, module_loads, cache_hits)");
#ifdef TILEVM_HAVE_GPU
  m.def(
      "ptx",
      [](const std::string& path, const std::string& kernel, const std::string& signature,
         const std::map<std::string, std::string>& defines, const py::list& args, const std::string& arch, unsigned numWarps,
         unsigned numStages, const py::object& unit, int64_t unitKey, unsigned maxnreg, bool fpFusion, bool debug,
         bool withLlvmIr) {
        // The PTX the GPU engine would build for `arch` with these arguments (specialized on
        // them as a launch is), without a GPU: what `ptxas -v` can size.
        auto c = unit.is_none() ? compile(path, kernel, signature, defines, {}, {fpFusion, numWarps, debug})
                                : compileUnit(unitKey, unit, signature, defines, {fpFusion, numWarps, debug});
        std::vector<interp::Buffer> buffers;
        std::vector<interp::Arg> launchArgs;
        std::vector<py::object> owners;
        bindArgs(*c, args, true, buffers, launchArgs, owners);
        codegen::Options copts;
        copts.arch = arch;
        copts.numWarps = numWarps;
        copts.numStages = numStages;
        auto registers = rt::parseMaxnreg(std::to_string(maxnreg));
        if (!registers) throw py::value_error(registers.error().message);
        copts.maxRegisters = *registers;
        rt::specialize(*c->loaded.kernel, launchArgs, copts);  // as a launch on the GPU engine is
        auto ptx = codegen::emitPtx(*c->loaded.module, *c->loaded.kernel, copts);
        if (!ptx) throw py::value_error(ptx.error().message);
        py::dict out;
        out["ptx"] = ptx->ptx;
        if (withLlvmIr) {  // Triton's asm["llir"]: the LLVM IR after O3, as `tilevm llvm-ir` prints it
          auto llir = codegen::emitLlvmIr(*c->loaded.module, *c->loaded.kernel, copts);
          if (!llir) throw py::value_error(llir.error().message);
          out["llir"] = *llir;
        }
        out["entry"] = ptx->launch.kernel;
        out["arch"] = ptx->launch.arch;
        out["threads"] = ptx->launch.threads;
        out["dynamic_shared"] = ptx->launch.dynamicSharedBytes;
        return out;
      },
      py::arg("path"), py::arg("kernel"), py::arg("signature"), py::arg("defines"), py::arg("args"), py::arg("arch"),
      py::arg("num_warps"), py::arg("num_stages"), py::arg("unit") = py::none(), py::arg("unit_key") = 0, py::arg("maxnreg") = 0,
      py::arg("fp_fusion") = false, py::arg("debug") = false, py::arg("llir") = false);
#endif
  m.def(
      "check_options", [](const py::dict& options) { checkedOptions(options); }, py::arg("options"),
      "Checks launch options as a launch would: ValueError with tilevm's message for a bad one");
  py::list names;
  for (const auto& [option, field] : kOptions) names.append(option);
  names.append("strict");
  m.attr("LAUNCH_OPTIONS") = py::tuple(names);
#ifdef TILEVM_HAVE_GPU
  rt::setCudaFactory(&rt::openCuda);
#endif
  m.def(
      "probe_device",
      [](const std::string& spec) {
        auto d = rt::parseDevice(spec);  // the CLI's parser and message
        if (!d) throw py::value_error(d.error().message);
        if (!d->gpu) return py::make_tuple(true, std::string("cpu interpreter"));
        rt::CudaProbe p = rt::probeCuda(d->ordinal);
        return py::make_tuple(p.usable, p.usable ? p.name : p.reason);
      },
      py::arg("spec"), "(usable, name or why not) of a --device spec: cpu, cuda or cuda:N");
  m.def("has_gpu_engine", [] {
#ifdef TILEVM_HAVE_GPU
    return true;
#else
    return false;
#endif
  });
  m.def("version", [] { return std::string(TILEVM_VERSION); });
  m.def("files_parsed", [] { return frontend::filesParsed(); }, "Python sources the frontend has parsed in this process");
}

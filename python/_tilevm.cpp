// _tilevm.cpp - the Python extension: compiles a @triton.jit function's file with tilevm's
// frontend (cached per kernel, signature and constexprs) and launches it on the interpreter
// over NumPy / torch memory in place (no copies), or on the GPU engine (runtime/CudaDevice:
// buffers copied to the GPU and back; CUDA tensors too). The Python side is python/tilevm/.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "frontend/Compile.h"
#include "frontend/Value.h"
#include "interpreter/Interpreter.h"
#include "runtime/Device.h"
#include "runtime/Files.h"
#include "runtime/Launch.h"
#ifdef TILEVM_HAVE_GPU
#include "runtime/CudaDevice.h"
#endif

namespace py = pybind11;
using namespace tilevm;

namespace {

struct Compiled {
  rt::LoadedKernel loaded;  ///< the module and its kernel
  interp::PreparedKernel prepared;
};

// One GPU engine per (ordinal, warps, stages), opened on first use.
rt::Device& gpu(int ordinal, unsigned numWarps, unsigned numStages) {
  static std::map<std::tuple<int, unsigned, unsigned>, std::unique_ptr<rt::Device>> devices;
  auto key = std::make_tuple(ordinal, numWarps, numStages);
  if (auto it = devices.find(key); it != devices.end()) return *it->second;
  rt::GpuOptions options;
  options.numWarps = numWarps;
  options.numStages = numStages;
  options.coldL2 = false;
  auto d = rt::cudaDevice(ordinal, options);
  if (!d) throw std::runtime_error("tilevm: --device cuda: " + d.error().message);
  return *(devices[key] = std::move(*d));
}

using CacheKey = std::tuple<std::string, std::string, std::string, std::map<std::string, std::string>, std::vector<std::string>>;

std::map<CacheKey, std::shared_ptr<Compiled>>& cache() {
  static std::map<CacheKey, std::shared_ptr<Compiled>> c;
  return c;
}

[[noreturn]] void compileError(const Diagnostic& d, const SourceManager& sources) {
  throw py::value_error(render(d, &sources));
}

std::shared_ptr<Compiled> compile(const std::string& path, const std::string& kernel, const std::string& signature,
                                  const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes) {
  CacheKey key{path, kernel, signature, defines, includes};
  if (auto it = cache().find(key); it != cache().end()) return it->second;
  SourceManager sources;
  auto text = rt::readFile(path);
  if (!text) compileError(text.error(), sources);
  sources.add(path, *text);
  frontend::CompileOptions o;
  o.kernel = kernel;
  o.signature = signature;
  o.defines = defines;
  o.includeDirs = includes;
  o.sources = &sources;
  auto m = frontend::compileKernel(*text, path, o);
  if (!m) compileError(m.error(), sources);
  auto c = std::make_shared<Compiled>();
  c->loaded.module = std::move(*m);
  c->loaded.kernel = c->loaded.module->findKernel(kernel);
  c->prepared = interp::prepare(*c->loaded.module, *c->loaded.kernel, true);
  cache()[key] = c;
  return c;
}

ir::ScalarKind kindOf(const std::string& dtype) {
  frontend::DType d;
  if (!frontend::parseDTypeName(dtype, d) || d.isPtr()) throw py::value_error("unsupported dtype " + dtype);
  return d.kind;
}

}  // namespace

PYBIND11_MODULE(_tilevm, m) {
  m.doc() = "tilevm: Triton kernels on a checking CPU interpreter, or on the GPU engine";
  m.def(
      "launch",
      [](const std::string& path, const std::string& kernel, const std::string& signature,
         const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes, const py::list& args,
         std::array<int64_t, 3> grid, const std::string& check, unsigned threads, const std::string& schedule,
         double timeout, const std::string& device, unsigned numWarps, unsigned numStages, unsigned repeat) {
        auto c = compile(path, kernel, signature, defines, includes);
        // Arguments in the kernel's parameter order: ("buffer", name, allocation start, bytes,
        // dtype, numel, pointer) or ("int"/"float", name, value).
        std::vector<interp::Buffer> buffers;
        std::vector<interp::Arg> launchArgs;
        for (const auto& item : args) {
          py::tuple t = item.cast<py::tuple>();
          std::string kind = t[0].cast<std::string>();
          interp::Arg a;
          if (kind == "buffer") {
            interp::Buffer b;
            b.name = t[1].cast<std::string>();
            b.external = reinterpret_cast<uint8_t*>(t[2].cast<uintptr_t>());
            b.externalBytes = t[3].cast<size_t>();
            b.elem = kindOf(t[4].cast<std::string>());
            b.shape = {t[5].cast<int64_t>()};
            a.isBuffer = true;
            a.buffer = buffers.size();
            a.byteOffset = t[6].cast<uintptr_t>() - t[2].cast<uintptr_t>();
            buffers.push_back(std::move(b));
          } else if (kind == "int") {
            a.i = t[2].cast<int64_t>();
            a.f = double(a.i);
          } else {
            a.f = t[2].cast<double>();
          }
          launchArgs.push_back(a);
        }
        interp::LaunchOptions o;
        o.grid = grid;
        o.threads = threads;
        o.timeoutSeconds = timeout;
        o.checks = check == "none" ? interp::Checks{false, false, false} : interp::Checks{true, true, true};
        if (schedule == "serial") o.schedule = interp::Schedule::Serial;
        else if (schedule == "reverse") o.schedule = interp::Schedule::Reverse;
        else if (schedule.rfind("random:", 0) == 0) {
          o.schedule = interp::Schedule::Random;
          o.scheduleSeed = std::stoull(schedule.substr(7));
        }
        interp::Report rep;
        int ordinal = 0;
        if (device != "cpu" && !rt::parseCudaDevice(device, ordinal)) throw py::value_error("device must be cpu, cuda or cuda:N");
        if (device == "cpu") {
          py::gil_scoped_release release;
          rep = interp::run(c->prepared, buffers, launchArgs, o);
        } else {
          rt::Device& d = gpu(ordinal, numWarps, numStages);
          rt::BoundArgs bound;
          bound.buffers = std::move(buffers);
          bound.args = launchArgs;
          Result<interp::Report> r = [&] {
            py::gil_scoped_release release;
            return d.run(c->loaded, bound, o, std::max(1u, repeat));
          }();
          if (!r) throw std::runtime_error("tilevm: the GPU engine: " + r.error().message);
          rep = std::move(*r);
        }
        py::dict out;
        out["findings"] = rep.findings.size();
        out["report"] = rep.text();
        out["printed"] = rep.printed;
        out["seconds"] = rep.seconds;
        out["programs"] = rep.programs;
        out["copied_bytes"] = rep.copiedBytes;
        return out;
      },
      py::arg("path"), py::arg("kernel"), py::arg("signature"), py::arg("defines"), py::arg("includes"), py::arg("args"),
      py::arg("grid"), py::arg("check") = "all", py::arg("threads") = 0, py::arg("schedule") = "parallel",
      py::arg("timeout") = 300.0, py::arg("device") = "cpu", py::arg("num_warps") = 4, py::arg("num_stages") = 1, py::arg("repeat") = 1);
#ifdef TILEVM_HAVE_GPU
  rt::setCudaFactory(&rt::openCuda);
#endif
  m.def(
      "probe_cuda",
      [](int ordinal) {
        rt::CudaProbe p = rt::probeCuda(ordinal);
        return py::make_tuple(p.usable, p.usable ? p.name : p.reason);
      },
      py::arg("ordinal") = 0);
  m.def("has_gpu_engine", [] {
#ifdef TILEVM_HAVE_GPU
    return true;
#else
    return false;
#endif
  });
  m.def("version", [] { return std::string(TILEVM_VERSION); });
}

// _tilevm.cpp - the Python extension: compiles a @triton.jit function's file with tilevm's
// frontend (cached per kernel, signature and constexprs) and launches it on the interpreter
// over NumPy / torch memory in place (no copies). The Python side is python/tilevm/.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "frontend/Compile.h"
#include "frontend/Value.h"
#include "interpreter/Interpreter.h"
#include "runtime/Files.h"

namespace py = pybind11;
using namespace tilevm;

namespace {

struct Compiled {
  std::unique_ptr<ir::Module> module;
  const ir::Kernel* kernel = nullptr;
  interp::PreparedKernel prepared;
};

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
  c->module = std::move(*m);
  c->kernel = c->module->findKernel(kernel);
  c->prepared = interp::prepare(*c->module, *c->kernel, true);
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
  m.doc() = "tilevm: Triton kernels on a checking CPU interpreter";
  m.def(
      "launch",
      [](const std::string& path, const std::string& kernel, const std::string& signature,
         const std::map<std::string, std::string>& defines, const std::vector<std::string>& includes, const py::list& args,
         std::array<int64_t, 3> grid, const std::string& check, unsigned threads, const std::string& schedule,
         double timeout) {
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
        {
          py::gil_scoped_release release;
          rep = interp::run(c->prepared, buffers, launchArgs, o);
        }
        py::dict out;
        out["findings"] = rep.findings.size();
        out["report"] = rep.text();
        out["printed"] = rep.printed;
        out["seconds"] = rep.seconds;
        out["programs"] = rep.programs;
        return out;
      },
      py::arg("path"), py::arg("kernel"), py::arg("signature"), py::arg("defines"), py::arg("includes"), py::arg("args"),
      py::arg("grid"), py::arg("check") = "all", py::arg("threads") = 0, py::arg("schedule") = "parallel",
      py::arg("timeout") = 300.0);
  m.def("version", [] { return std::string(TILEVM_VERSION); });
}

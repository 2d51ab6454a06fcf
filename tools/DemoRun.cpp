// DemoRun.cpp - the second half of `tilevm demo`: the anchor kernels compiled from Python and
// run on the checking interpreter, then a planted race reported.
#include <array>
#include <cstdio>
#include <optional>
#include <iostream>

#include "frontend/Compile.h"
#include "interpreter/Interpreter.h"
#include "runtime/ArgSpec.h"
#include "tools/Demo.h"
#include "tools/Load.h"

namespace tilevm::tools {

using namespace rt;

namespace {

struct DemoKernel {
  const char* file;
  const char* kernel;
  std::vector<std::string> defines;
  std::vector<std::string> args;
  std::array<int64_t, 3> grid;
};

// Compiles and runs one kernel; prints a table row. Returns the report (or null on error).
std::optional<interp::Report> runOne(const std::string& root, const DemoKernel& k) {
  std::string path = root + "/" + k.file;
  auto text = readFile(path);
  if (!text) {
    std::cerr << render(text.error());
    return std::nullopt;
  }
  std::vector<ArgValue> args;
  std::string sig;
  for (size_t i = 0; i < k.args.size(); ++i) {
    auto a = parseArg(k.args[i], 0, unsigned(i));
    if (!a) {
      std::cerr << render(a.error());
      return std::nullopt;
    }
    sig += (sig.empty() ? "" : ", ") + a->name + ": " + signatureType(*a);
    args.push_back(std::move(*a));
  }
  frontend::CompileOptions opts;
  opts.kernel = k.kernel;
  opts.signature = sig;
  for (const auto& d : k.defines) opts.defines[d.substr(0, d.find('='))] = d.substr(d.find('=') + 1);
  auto m = frontend::compileKernel(*text, path, opts);
  if (!m) {
    std::cerr << render(m.error());
    return std::nullopt;
  }
  std::vector<interp::Buffer> buffers;
  std::vector<interp::Arg> launch;
  uint64_t budget = arrayMemoryBudget();
  for (auto& a : args) {
    interp::Arg x;
    if (a.isBuffer) {
      if (std::string err = materialize(a, budget); !err.empty()) {
        std::cerr << err << "\n";
        return std::nullopt;
      }
      x.isBuffer = true;
      x.buffer = buffers.size();
      buffers.push_back(std::move(a.buffer));
    } else {
      x.i = a.i;
      x.f = a.isFloat ? a.f : double(a.i);
    }
    launch.push_back(x);
  }
  interp::LaunchOptions o;
  o.grid = k.grid;
  interp::Report r = interp::run(**m, *(*m)->kernels[0], buffers, launch, o);
  std::printf("%-22s %9zu %8zu %10.2f %9zu\n", k.kernel, ir::countOps(*(*m)->kernels[0]), r.programs, r.seconds * 1e3,
              r.findings.size());
  return r;
}

}  // namespace

bool demoInterpreter(const std::string& root) {
  const std::string anchors = "bench/anchors/triton_gpu_kernels.py";
  std::vector<DemoKernel> kernels = {
      {anchors.c_str(), "vadd_k", {"BLOCK=1024"}, {"x=randn:f32:1000000", "y=randn:f32:1000000", "o=empty:f32:1000000", "n=1000000"}, {977, 1, 1}},
      {anchors.c_str(), "softmax_k", {"BLOCK=1024"}, {"out=empty:f32:512x1000", "inp=randn:f32:512x1000", "in_stride=1000", "out_stride=1000", "n_cols=1000"}, {512, 1, 1}},
      {anchors.c_str(), "layernorm_k", {"BLOCK=1024"}, {"X=randn:f16:512x1000", "Y=empty:f16:512x1000", "W=rand:f16:1000", "B=rand:f16:1000", "stride=1000", "N=1000", "eps=1e-5"}, {512, 1, 1}},
      {anchors.c_str(), "matmul_k", {"BM=64", "BN=64", "BK=32", "GM=8"}, {"a=randn:f16:256x200", "b=randn:f16:200x256", "c=empty:f16:256x256", "M=256", "N=256", "K=200", "sam=200", "sak=1", "sbk=256", "sbn=1", "scm=256", "scn=1"}, {16, 1, 1}},
      {anchors.c_str(), "attn_k", {"N_CTX=256", "HEAD=64", "BM=64", "BN=64"}, {"Q=randn:f16:4x256x64", "K=randn:f16:4x256x64", "V=randn:f16:4x256x64", "O=empty:f16:4x256x64", "sm_scale=0.125"}, {4, 4, 1}},
  };
  std::printf("\nThe anchor kernels, compiled from %s and run on the CPU interpreter, every check on:\n\n", anchors.c_str());
  std::printf("%-22s %9s %8s %10s %9s\n", "kernel", "IR ops", "programs", "ms", "findings");
  bool ok = true;
  for (const auto& k : kernels) {
    auto r = runOne(root, k);
    ok = ok && r && r->findings.empty();
  }
  std::printf("\nA planted bug (test/checks/planted.py, same_row: programs 2 and 3 write one row):\n\n");
  auto r = runOne(root, {"test/checks/planted.py", "same_row", {"BLOCK=8"}, {"x=randn:f32:4x8", "y=zeros:f32:4x8", "stride=8"}, {4, 1, 1}});
  if (r) std::printf("\n%s", r->text().c_str());
  ok = ok && r && r->findings.size() == 1;
  return ok;
}

}  // namespace tilevm::tools

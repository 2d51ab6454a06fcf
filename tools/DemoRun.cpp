// DemoRun.cpp - the second half of `tilevm demo`: the anchor kernels compiled from Python and
// run on the checking interpreter (rt::Device, as every front door), then a planted race reported.
#include <array>
#include <cstdio>
#include <optional>
#include <iostream>

#include "runtime/Device.h"
#include "runtime/Launch.h"
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

// Loads and runs one kernel through the launch path every front door shares (runtime/); prints a
// table row. Returns the report (or null on error).
std::optional<interp::Report> runOne(const std::string& root, const DemoKernel& k) {
  auto args = parseArgs(k.args, 0);
  if (!args) {
    std::cerr << render(args.error());
    return std::nullopt;
  }
  SourceManager sources;
  auto loaded = loadKernel(KernelRequest{root + "/" + k.file, k.kernel, k.defines, {}}, *args, sources);
  if (!loaded) {
    report({loaded.error()}, sources);
    return std::nullopt;
  }
  auto bound = bindArgs(*loaded->kernel, *args, false);
  if (!bound) {
    std::cerr << render(bound.error());
    return std::nullopt;
  }
  LaunchOptions o;
  o.grid = k.grid;
  auto ran = interpreterDevice()->run(*loaded, *bound, o);
  if (!ran) {
    std::cerr << render(ran.error().diag);
    return std::nullopt;
  }
  const interp::Report& r = ran->report;
  std::printf("%-22s %9zu %8zu %10.2f %9zu\n", k.kernel, ir::countOps(*loaded->kernel), r.programs, r.seconds * 1e3,
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

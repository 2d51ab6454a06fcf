// GpuEngineTest.cpp - the GPU engine end to end (code generator, CUDA driver through dlopen,
// launch) against the interpreter, on fresh random inputs. Every GPU case checks first whether a
// driver and GPU are usable and, where none is (CI), says so and checks only that the probe
// fails cleanly; on the GPU machine (bench/results/h200_gpu_tests.log) every case runs.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "codegen/Codegen.h"
#include "runtime/CudaDevice.h"
#include "runtime/Compare.h"
#include "runtime/Device.h"
#include "runtime/Files.h"
#include "runtime/KernelCache.h"
#include "runtime/Launch.h"
#include "runtime/LaunchCache.h"
#include "TestKernels.h"

using namespace tilevm;

namespace {

struct Engines {
  std::unique_ptr<rt::Device> cpu = rt::interpreterDevice();
  std::unique_ptr<rt::Device> gpu;
  rt::GpuOptions options;  ///< each launch's num_warps and num_stages
  std::string why;  ///< when there is no GPU
};

Engines engines(unsigned numWarps = 4, unsigned numStages = 3) {
  Engines e;
  e.options = rt::GpuOptions{.numWarps = numWarps, .numStages = numStages};
  rt::CudaProbe probe = rt::probeCuda(0);
  if (!probe.usable) {
    e.why = probe.reason;
    return e;
  }
  auto d = rt::openCuda(0, /*coldL2=*/false);
  if (d) e.gpu = std::move(*d);
  else e.why = d.error().diag.message;
  return e;
}

// Runs `kernel` of the repository file on both engines with the same seeded inputs; the buffers
// after each run, by argument name.
struct Runs {
  rt::BoundArgs cpu, gpu;
};

Runs runBoth(Engines& e, const std::string& file, const std::string& kernel, std::vector<std::string> defines,
             const std::vector<std::string>& args, std::array<int64_t, 3> grid, uint64_t seed) {
  Runs r;
  for (int side = 0; side < 2; ++side) {
    auto parsed = rt::parseArgs(args, seed);
    REQUIRE(parsed);
    SourceManager sources;
    auto loaded = rt::loadKernel(rt::KernelRequest{test::repoRoot() + "/" + file, kernel, defines, {}}, *parsed, sources);
    REQUIRE(loaded);
    auto bound = rt::bindArgs(*loaded->kernel, *parsed, false);
    REQUIRE(bound);
    rt::LaunchOptions o;
    o.grid = grid;
    o.gpu = e.options;
    auto report = (side == 0 ? e.cpu : e.gpu)->run(*loaded, *bound, o);
    INFO((report ? std::string() : report.error().diag.message));
    REQUIRE(report);
    (side == 0 ? r.cpu : r.gpu) = std::move(*bound);
  }
  return r;
}

int64_t mismatches(const Runs& r, const std::string& buffer, const rt::Tolerance& tol) {
  rt::BufferDiff d = rt::compareBuffers(r.cpu.buffers[r.cpu.bufferOf.at(buffer)], r.gpu.buffers[r.gpu.bufferOf.at(buffer)], tol);
  INFO(rt::describe(d));
  return d.mismatches;
}

uint64_t freshSeed() { return std::random_device{}(); }

}  // namespace

TEST_CASE("a register budget goes on the kernel entry, once") {
  const std::string ptx = ".visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 256, 1, 1\n{\n\tret;\n}\n";
  const std::string budgeted = codegen::withRegisterBudget(ptx, 128);
  CHECK(budgeted == ".visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 256, 1, 1\n.maxnreg 128\n{\n\tret;\n}\n");
  CHECK(codegen::withRegisterBudget(budgeted, 64) == budgeted);  // a budget already there stays
  CHECK(codegen::withRegisterBudget("no entry", 64) == "no entry");
}

TEST_CASE("without a usable driver the GPU engine says why, and never crashes") {
  rt::CudaProbe probe = rt::probeCuda(0);
  if (probe.usable) {
    CHECK(probe.devices > 0);
    CHECK(!probe.name.empty());
    return;
  }
  CHECK(!probe.reason.empty());
  auto d = rt::openCuda(0, true);
  REQUIRE(!d);
  CHECK(d.error().kind == rt::ErrorKind::Environment);  // exit 2, whatever the message says
  auto viaFactory = rt::cudaDevice(0);
  REQUIRE(!viaFactory);
  CHECK(viaFactory.error().kind == rt::ErrorKind::Environment);
}

TEST_CASE("GPU: vector add bit for bit, with and without the specialization's proofs") {
  Engines e = engines();
  if (!e.gpu) {
    WARN("no GPU: " << e.why);
    return;
  }
  for (int n : {4096, 1000, 98432}) {  // 4096: proven vector accesses; 1000: run-time checks
    std::string N = std::to_string(n);
    Runs r = runBoth(e, "bench/anchors/triton_gpu_kernels.py", "vadd_k", {"BLOCK=1024"},
                     {"x=randn:f32:" + N, "y=randn:f32:" + N, "o=empty:f32:" + N, "n=" + N}, {(n + 1023) / 1024, 1, 1}, freshSeed());
    CHECK(mismatches(r, "o", rt::Tolerance{}) == 0);
  }
}

TEST_CASE("GPU: layer norm in f16 within assert_close's f16 tolerance") {
  Engines e = engines(8);
  if (!e.gpu) {
    WARN("no GPU: " << e.why);
    return;
  }
  for (int cols : {2048, 1000}) {
    std::string C = std::to_string(cols), B = cols > 1024 ? "2048" : "1024";
    Runs r = runBoth(e, "bench/anchors/triton_gpu_kernels.py", "layernorm_k", {"BLOCK=" + B},
                     {"X=randn:f16:33x" + C, "Y=empty:f16:33x" + C, "W=rand:f16:" + C, "B=rand:f16:" + C, "stride=" + C, "N=" + C, "eps=1e-5"},
                     {33, 1, 1}, freshSeed());
    rt::Tolerance tol{0, true, -1, -1, true};
    CHECK(mismatches(r, "Y", tol) == 0);
    CHECK(mismatches(r, "X", rt::Tolerance{}) == 0);  // inputs untouched
  }
}

TEST_CASE("GPU: matmul on tensor cores (f16, bf16, and f32 as tf32) against the interpreter, with and without software pipelining") {
  unsigned stages = GENERATE(1u, 3u);  // 3: each K step's tiles loaded one iteration ahead (codegen/Pipeline.cpp)
  Engines e = engines(4, stages);
  if (!e.gpu) {
    WARN("no GPU: " << e.why);
    return;
  }
  INFO("num_stages " << stages);
  for (std::string t : {"f16", "bf16", "f32"}) {  // f32: tl.dot's default tf32 precision, mma.m16n8k8
    INFO(t);
    std::string S = "256";
    Runs r = runBoth(e, "bench/anchors/triton_gpu_kernels.py", "matmul_k", {"BM=64", "BN=64", "BK=32", "GM=8"},
                     {"a=randn:" + t + ":256x256", "b=randn:" + t + ":256x256", "c=empty:" + t + ":256x256", "M=" + S, "N=" + S, "K=" + S,
                      "sam=" + S, "sak=1", "sbk=" + S, "sbn=1", "scm=" + S, "scn=1"},
                     {16, 1, 1}, freshSeed());
    rt::Tolerance tol{0, true, -1, -1, true};
    tol.tf32Dot = t == "f32";  // what diff sets for a tf32 dot (rt::dotsInTf32)
    CHECK(mismatches(r, "c", tol) == 0);
  }
}

TEST_CASE("GPU: a cached entry the driver rejects is dropped, built again and replaced") {
  Engines e = engines();
  if (!e.gpu) {
    WARN("no GPU: " << e.why);
    return;
  }
  namespace fs = std::filesystem;
  std::string dir = fs::temp_directory_path().string() + "/tilevm-rejected-" + std::to_string(::getpid());
  fs::remove_all(dir);
  const char* before = std::getenv("TILEVM_CACHE_DIR");
  std::string saved = before ? before : "";
  ::setenv("TILEVM_CACHE_DIR", dir.c_str(), 1);
  auto vadd = [&](Engines& on) {
    Runs r = runBoth(on, "bench/anchors/triton_gpu_kernels.py", "vadd_k", {"BLOCK=1024"},
                     {"x=randn:f32:5000", "y=randn:f32:5000", "o=empty:f32:5000", "n=5000"}, {5, 1, 1}, freshSeed());
    CHECK(mismatches(r, "o", rt::Tolerance{}) == 0);
  };
  vadd(e);  // compiles and stores the entry
  std::vector<std::string> keys;
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".ptx") keys.push_back(f.path().stem().string());
  REQUIRE(keys.size() == 1);
  // A whole, checksummed entry the driver cannot load (as an older or foreign tilevm's might be).
  rt::KernelCache cache(dir);
  REQUIRE(cache.store(keys[0], ".version 1.0\n.target sm_bogus\nnot ptx at all\n"));
  // A fresh device (its in-memory module cache empty, as in a new process) must read the disk
  // entry, and run: the entry is dropped and the PTX built again.
  Engines fresh = engines();
  REQUIRE(fresh.gpu);
  vadd(fresh);
  auto now = cache.load(keys[0]);
  REQUIRE(now);
  CHECK(now->find(".entry vadd_k") != std::string::npos);  // replaced by the rebuilt PTX
  if (before) ::setenv("TILEVM_CACHE_DIR", saved.c_str(), 1);
  else ::unsetenv("TILEVM_CACHE_DIR");
  fs::remove_all(dir);
}

TEST_CASE("GPU: repeated launches of one kernel neither write bytecode nor load the module again") {
  Engines e = engines();
  if (!e.gpu) {
    WARN("no GPU: " << e.why);
    return;
  }
  auto args = rt::parseArgs({"x=randn:f32:5000", "y=randn:f32:5000", "o=empty:f32:5000", "n=5000"}, 3);
  REQUIRE(args);
  SourceManager sources;
  auto loaded = rt::loadKernel(rt::KernelRequest{test::repoRoot() + "/bench/anchors/triton_gpu_kernels.py", "vadd_k", {"BLOCK=1024"}, {}},
                               *args, sources);
  REQUIRE(loaded);
  rt::CacheCounters before = rt::cacheCounters();
  for (int launch = 0; launch < 3; ++launch) {
    auto fresh = rt::parseArgs({"x=randn:f32:5000", "y=randn:f32:5000", "o=empty:f32:5000", "n=5000"}, 3);
    REQUIRE(fresh);
    auto bound = rt::bindArgs(*loaded->kernel, *fresh, false);
    REQUIRE(bound);
    rt::LaunchOptions o;
    o.grid = {5, 1, 1};
    o.gpu = e.options;
    REQUIRE(e.gpu->run(*loaded, *bound, o));
  }
  rt::CacheCounters after = rt::cacheCounters();
  CHECK(after.bytecodeEncodes == before.bytecodeEncodes);  // keyed once, when loaded
  CHECK(after.moduleLoads == before.moduleLoads + 1);
  CHECK(after.hits == before.hits + 2);
}

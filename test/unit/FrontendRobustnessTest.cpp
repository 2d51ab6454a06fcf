// FrontendRobustnessTest.cpp - mutated kernel files compile or fail with a located diagnostic;
// never a crash, a hang or an unverified module.
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

#include "TestKernels.h"
#include "frontend/Compile.h"
#include "frontend/Value.h"
#include "ir/Verifier.h"

using namespace tilevm;

namespace {
std::string anchorSource() { return test::readRepoFile("bench/anchors/triton_gpu_kernels.py"); }

frontend::CompileOptions softmaxOptions() {
  frontend::CompileOptions o;
  o.kernel = "softmax_k";
  o.defines["BLOCK"] = "256";
  o.signature = "out: *fp32, inp: *fp32, in_stride: i32, out_stride: i32, n_cols: i32";
  return o;
}
}  // namespace

TEST_CASE("dtype names: one '*' makes a pointer; more are refused at once (the args fuzzer overflowed the stack with 4000)",
          "[frontend][robustness]") {
  frontend::DType d;
  CHECK(frontend::parseDTypeName("*fp32", d));
  CHECK(d.isPtr());
  CHECK_FALSE(frontend::parseDTypeName("**fp32", d));
  CHECK_FALSE(frontend::parseDTypeName(std::string(100000, '*') + "fp32", d));
}

TEST_CASE("the unmodified anchor file compiles", "[frontend]") {
  auto r = frontend::compileKernel(anchorSource(), "anchors.py", softmaxOptions());
  REQUIRE(r.ok());
  CHECK(ir::verify(**r).empty());
}

TEST_CASE("mutated sources never crash the frontend", "[frontend][robustness]") {
  const std::string source = anchorSource();
  REQUIRE(!source.empty());
  // Mutate only the kernel's text so that most mutants reach the lowering.
  size_t begin = source.find("def softmax_k"), end = source.find("@triton.jit", begin);
  REQUIRE(begin != std::string::npos);
  std::mt19937 rng(std::random_device{}());
  const std::string alphabet = "()[]:,.+-*/%<>=!~ \n\t0123456789abcxyzNonetl_'\"#@";
  int ok = 0, rejected = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string s = source;
    int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t pos = begin + rng() % (end - begin);
      switch (rng() % 3) {
        case 0: s.erase(pos, 1 + rng() % 4); break;
        case 1: s.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        default: s[pos] = alphabet[rng() % alphabet.size()]; break;
      }
    }
    auto r = frontend::compileKernel(s, "mutant.py", softmaxOptions());
    if (r.ok()) {
      CHECK(ir::verify(**r).empty());
      ++ok;
    } else {
      CHECK(!r.error().message.empty());
      CHECK(r.error().message.find("internal error") == std::string::npos);
      ++rejected;
    }
  }
  CHECK(rejected > 0);
  INFO("compiled " << ok << " mutants");
}

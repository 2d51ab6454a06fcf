// ParseOnceTest.cpp - a load of a .py kernel parses each file it reads exactly once.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "frontend/Compile.h"
#include "runtime/Launch.h"

using namespace tilevm;

TEST_CASE("run's load of a .py kernel parses the kernel file and its import once each", "[frontend][parse-once]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilevm_parse_once_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "helper_mod.py") << "import triton\nSCALE = 2.0\n";
  std::ofstream(dir / "kern.py") << "import triton\nimport triton.language as tl\nfrom helper_mod import SCALE\n\n"
                                    "@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n"
                                    "    o = tl.arange(0, BLOCK)\n    tl.store(x + o, tl.load(x + o, mask=o < n) * SCALE, mask=o < n)\n";
  auto args = rt::parseArgs({"x=zeros:f32:16", "n=16"}, 1);
  REQUIRE(args.ok());
  rt::KernelRequest r;
  r.input = (dir / "kern.py").string();
  r.kernel = "k";
  r.defines = {"BLOCK=16"};
  SourceManager sources;
  uint64_t before = frontend::filesParsed();
  auto loaded = rt::loadKernel(r, *args, sources);
  uint64_t parsed = frontend::filesParsed() - before;
  fs::remove_all(dir);
  REQUIRE(loaded.ok());
  CHECK(loaded->kernel->name == "k");
  CHECK(parsed == 2);  // kern.py and helper_mod.py; it was 3 (kern.py twice)
}

TEST_CASE("one KernelSource answers params and compiles twice without parsing again", "[frontend][parse-once]") {
  const char* src = "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x, B: tl.constexpr):\n    tl.store(x, tl.load(x) * B)\n";
  frontend::KernelSource file(src, "once.py");
  uint64_t before = frontend::filesParsed();
  auto params = file.params("k");
  REQUIRE(params.ok());
  REQUIRE(params->size() == 2);
  CHECK((*params)[1].constexpr_);
  frontend::CompileOptions o;
  o.kernel = "k";
  o.signature = "x: *fp32";
  o.defines["B"] = "2";
  CHECK(file.compile(o).ok());
  o.defines["B"] = "3";
  CHECK(file.compile(o).ok());
  CHECK(frontend::filesParsed() - before == 1);
}

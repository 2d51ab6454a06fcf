// SourceUnitTest.cpp - kernels compiled from a source unit (live function texts and the values
// Python gave their names): helpers, module namespaces, file positions, errors, parse-once.
#include <catch2/catch.hpp>

#include "frontend/SourceUnit.h"

using namespace tilevm;
using frontend::HostValue;

namespace {

HostValue value(HostValue::K k, int64_t i = 0, double f = 0, std::string s = "", size_t ref = 0) {
  HostValue v;
  v.kind = k;
  v.i = i;
  v.f = f;
  v.s = std::move(s);
  v.ref = ref;
  return v;
}

// A kernel defined at line 40 of live.py, indented 4 (inside a test function), calling a
// helper of module `hm` whose own constant `C` is 2.5, and using the closure's SCALE = 3.
frontend::SourceUnit unit(const std::string& body = "    tl.store(x, hm.helper(tl.load(x)) * SCALE)\n") {
  frontend::SourceUnit u;
  u.functions.push_back({"def k(x, B: tl.constexpr):\n" + body, "/tmp/live.py", 40, 4, 0});
  u.functions.push_back({"def helper(v):\n    return v + C\n", "/tmp/hm.py", 7, 0, 1});
  u.tables.resize(3);
  u.tables[0]["tl"] = value(HostValue::K::Module, 0, 0, "triton.language");
  u.tables[0]["SCALE"] = value(HostValue::K::Int, 3);
  u.tables[0]["hm"] = value(HostValue::K::Namespace, 0, 0, "hm", 2);
  u.tables[0]["T"] = value(HostValue::K::Unsupported, 0, 0, "a torch.Tensor");
  u.tables[1]["C"] = value(HostValue::K::Float, 0, 2.5);
  u.tables[2]["helper"] = value(HostValue::K::Function, 0, 0, "", 1);
  return u;
}

}  // namespace

TEST_CASE("a source unit compiles its kernel with helpers and namespaces, parsing each text once",
          "[frontend][source-unit][parse-once]") {
  uint64_t before = frontend::filesParsed();
  auto loaded = frontend::LoadedUnit::load(unit());
  REQUIRE(loaded.ok());
  CHECK(frontend::filesParsed() - before == 2);  // the kernel's and the helper's text
  CHECK((*loaded)->kernelName() == "k");
  auto params = (*loaded)->params();
  REQUIRE(params.size() == 2);
  CHECK(params[1].constexpr_);
  frontend::CompileOptions o;
  o.signature = "x: *fp32";
  o.defines["B"] = "1";
  auto m = (*loaded)->compile(o);
  REQUIRE(m.ok());
  REQUIRE((*m)->findKernel("k") != nullptr);
  o.defines["B"] = "2";
  CHECK((*loaded)->compile(o).ok());
  CHECK(frontend::filesParsed() - before == 2);  // compiled twice, parsed once
}

TEST_CASE("a source unit's errors are located at the function's place in its file", "[frontend][source-unit]") {
  frontend::CompileOptions o;
  o.signature = "x: *fp32";
  o.defines["B"] = "1";
  SECTION("a name holding an unsupported value, at its use") {
    auto loaded = frontend::LoadedUnit::load(unit("    y = 1\n    tl.store(x, T)\n"));
    REQUIRE(loaded.ok());
    auto m = (*loaded)->compile(o);
    REQUIRE(!m.ok());
    CHECK(m.error().file == "/tmp/live.py");
    CHECK(m.error().line == 42);
    CHECK(m.error().col == 21);  // `T` at column 17 of the dedented text, 4 more in the file
    CHECK(m.error().message.find("'T' is a torch.Tensor") != std::string::npos);
    SourceManager sources;
    (*loaded)->addTexts(sources);
    CHECK(sources.line("/tmp/live.py", 42) == std::optional<std::string>("        tl.store(x, T)"));
  }
  SECTION("an undefined name, and a module attribute not given") {
    auto loaded = frontend::LoadedUnit::load(unit("    tl.store(x, hm.missing + nothing)\n"));
    REQUIRE(loaded.ok());
    auto m = (*loaded)->compile(o);
    REQUIRE(!m.ok());
    CHECK(m.error().line == 41);
    CHECK(m.error().message == "module 'hm' has no attribute 'missing'");
  }
  SECTION("an error inside the helper names the helper's file") {
    frontend::SourceUnit u = unit();
    u.functions[1].text = "def helper(v):\n    return v + D\n";
    auto loaded = frontend::LoadedUnit::load(u);
    REQUIRE(loaded.ok());
    auto m = (*loaded)->compile(o);
    REQUIRE(!m.ok());
    CHECK(m.error().file == "/tmp/hm.py");
    CHECK(m.error().line == 8);
    CHECK(m.error().message == "name 'D' is not defined");
  }
  SECTION("a tokenizer error") {
    auto loaded = frontend::LoadedUnit::load(unit("    y = 'open\n"));
    REQUIRE(!loaded.ok());
    CHECK(loaded.error().file == "/tmp/live.py");
    CHECK(loaded.error().line == 41);
  }
}

// BytecodeTest.cpp - bytecode round trips, hostile-input robustness, and the frozen spec.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <regex>
#include <sstream>

#include "TestKernels.h"
#include "ir/Verifier.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"

using namespace tilevm;
using namespace tilevm::ir;

namespace {
std::unique_ptr<Module> roundTrip(const Module& m, bool locations = true) {
  auto bytes = write(m, WriteOptions{.locations = locations});
  auto back = read(bytes, "rt.tbc");
  REQUIRE(back.ok());
  return std::move(*back);
}
}  // namespace

TEST_CASE("a built module survives write and read", "[bytecode]") {
  auto m = test::buildVadd();
  auto back = roundTrip(*m);
  CHECK(verify(*back).empty());
  CHECK(print(*back) == print(*m));
  // Without the locations section the ops have no location.
  auto bare = roundTrip(*m, false);
  CHECK(bare->kernels[0]->body.block.ops[0]->loc.line == 0);
  CHECK(print(*bare, PrintOptions{.locations = false}) == print(*m, PrintOptions{.locations = false}));
}

TEST_CASE("attribute values of every kind round-trip exactly", "[bytecode]") {
  Module m;
  Builder b(m);
  b.createKernel("attrs", {});
  Op* op = b.create(Opcode::Print, {}, {});
  op->setAttr("big", std::numeric_limits<int64_t>::min());
  op->setAttr("tiny", 5e-324);
  op->setAttr("pinf", std::numeric_limits<double>::infinity());
  op->setAttr("ninf", -std::numeric_limits<double>::infinity());
  op->setAttr("nan", std::numeric_limits<double>::quiet_NaN());
  op->setAttr("third", 1.0 / 3.0);
  op->setAttr("prefix", std::string("x = \"q\"\n\t\\ done"));
  op->setAttr("list", std::vector<int64_t>{3, -1, 0, 1LL << 40});
  b.create(Opcode::Return, {}, {});
  auto back = roundTrip(m);
  const Op& r = *back->kernels[0]->body.block.ops[0];
  CHECK(*r.intAttr("big") == std::numeric_limits<int64_t>::min());
  CHECK(*r.floatAttr("tiny") == 5e-324);
  CHECK(std::isinf(*r.floatAttr("pinf")));
  CHECK(*r.floatAttr("ninf") < 0);
  CHECK(std::isnan(*r.floatAttr("nan")));
  CHECK(*r.floatAttr("third") == 1.0 / 3.0);
  CHECK(*r.strAttr("prefix") == "x = \"q\"\n\t\\ done");
  CHECK(*r.intsAttr("list") == std::vector<int64_t>{3, -1, 0, 1LL << 40});
  // And through text as well.
  auto text = parse(print(m), "attrs.tile");
  REQUIRE(text.ok());
  CHECK(print(**text) == print(m));
  CHECK(*(*text)->kernels[0]->body.block.ops[0]->floatAttr("third") == 1.0 / 3.0);
}

TEST_CASE("the header is checked", "[bytecode]") {
  auto bytes = write(*test::buildVadd());
  auto bad = bytes;
  bad[0] = 'T';
  CHECK(read(bad, "f").error().message == "offset 0: not tilevm bytecode (bad magic)");
  bad = bytes;
  bad[8] = 2;
  CHECK(read(bad, "f").error().message ==
        "offset 8: unsupported bytecode version 2.0 (this reader supports 1.0 to 1.5)");
  bad.assign(bytes.begin(), bytes.begin() + 9);
  CHECK(read(bad, "f").error().message == "offset 9: unexpected end of data reading minor version");
}

TEST_CASE("every truncation and byte mutation is rejected or verified, never a crash", "[bytecode][robustness]") {
  std::vector<std::unique_ptr<Module>> modules;
  modules.push_back(test::buildVadd());
  {
    std::ifstream f(test::repoRoot() + "/examples/matmul.tile");
    std::stringstream ss;
    ss << f.rdbuf();
    auto m = parse(ss.str(), "matmul.tile");
    REQUIRE(m.ok());
    modules.push_back(std::move(*m));
  }
  size_t rejected = 0, accepted = 0;
  for (const auto& module : modules) {
    auto seed = write(*module);
    // Every proper prefix is incomplete, except the one that ends before the optional
    // locations section: that one reads as the same module without locations.
    size_t validPrefixes = 0;
    for (size_t n = 0; n < seed.size(); ++n) {
      auto r = read(std::span(seed.data(), n), "cut");
      if (!r.ok()) continue;
      ++validPrefixes;
      CHECK(print(**r, PrintOptions{.locations = false}) == print(*module, PrintOptions{.locations = false}));
    }
    CHECK(validPrefixes == 1);
    std::mt19937 rng(std::random_device{}());
    for (int i = 0; i < 3000; ++i) {
      auto bytes = seed;
      int flips = 1 + int(rng() % 4);
      for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
      auto r = read(bytes, "mut");
      if (!r.ok()) {
        CHECK(r.error().message.rfind("offset ", 0) == 0);
        ++rejected;
        continue;
      }
      if (verify(**r).empty()) {
        // Whatever verifies must print, parse and re-encode consistently.
        auto again = parse(print(**r), "again.tile");
        REQUIRE(again.ok());
        CHECK(print(**again) == print(**r));
      }
      ++accepted;
    }
  }
  CHECK(rejected > 0);
  INFO("accepted " << accepted);
}

TEST_CASE("docs/bytecode.md lists every op with its frozen number and facts", "[bytecode][docs]") {
  std::ifstream f(test::repoRoot() + "/docs/bytecode.md");
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  std::string doc = ss.str();
  // Rows look like: | `addi` | 0x30 | ...
  std::regex row(R"(\|\s*`([a-z_0-9]+)`\s*\|\s*0x([0-9A-Fa-f]{2})\s*\|)");
  std::map<std::string, unsigned> documented;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator(); ++it)
    documented[(*it)[1]] = std::stoul((*it)[2], nullptr, 16);
  CHECK(documented.size() == kNumOpcodes);
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    const OpInfo& info = opInfo(static_cast<Opcode>(i));
    INFO(std::string(info.mnemonic));
    REQUIRE(documented.count(std::string(info.mnemonic)));
    CHECK(documented[std::string(info.mnemonic)] == info.bytecode);
  }
  // The other per-op facts, as scripts/gen-op-table.py writes them: family, since, ulps.
  std::regex facts(R"(\|\s*`([a-z_0-9]+)`\s*\|\s*0x[0-9A-Fa-f]{2}\s*\|\s*([a-z-]+)\s*\|\s*1\.(\d+)\s*\|[^|]*\|[^|]*\|[^|]*\|\s*(\d+)\s*\|)");
  std::map<std::string, std::string> rows;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), facts); it != std::sregex_iterator(); ++it)
    rows[(*it)[1]] = std::string((*it)[2]) + " 1." + std::string((*it)[3]) + " " + std::string((*it)[4]);
  CHECK(rows.size() == kNumOpcodes);
  for (unsigned i = 0; i < kNumOpcodes; ++i) {
    const OpInfo& info = opInfo(static_cast<Opcode>(i));
    INFO(std::string(info.mnemonic) + " (regenerate with scripts/gen-op-table.py)");
    CHECK(rows[std::string(info.mnemonic)] == std::string(familyName(info.family)) + " 1." + std::to_string(info.since) + " " +
                                                  std::to_string(info.ulps));
  }
}

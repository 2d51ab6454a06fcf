// BuilderTest.cpp - building IR through the API: structure, locations, verification, text.
#include <catch2/catch.hpp>

#include "TestKernels.h"
#include "ir/Verifier.h"
#include "ir/text/Text.h"

using namespace tilevm;
using namespace tilevm::ir;

TEST_CASE("the builder produces a verified kernel with locations", "[builder]") {
  auto m = test::buildVadd();
  REQUIRE(m->kernels.size() == 1);
  const Kernel& k = *m->kernels[0];
  CHECK(k.name == "vadd");
  CHECK(k.paramNames == std::vector<std::string>{"x", "y", "o", "n"});
  CHECK(k.params()[0]->type.str() == "ptr<f32>");
  CHECK(countOps(k) == 19);
  auto diags = verify(*m);
  INFO((diags.empty() ? std::string() : diags[0].message));
  CHECK(diags.empty());
  const Op& store = *k.body.block.ops[k.body.block.ops.size() - 2];
  CHECK(store.code == Opcode::Store);
  CHECK(m->locStr(store.loc) == "vadd.py:8:5");
  CHECK(k.body.block.terminator()->code == Opcode::Return);
}

TEST_CASE("builder conveniences set attributes and result types", "[builder]") {
  Module m;
  Builder b(m);
  b.createKernel("k", {});
  Value* r = b.arange(4, 20);
  CHECK(r->type.str() == "tile<16xi32>");
  CHECK(*r->def->intAttr("start") == 4);
  CHECK(*r->def->intAttr("end") == 20);
  Value* e = b.expandDims(r, 1);
  CHECK(e->type.str() == "tile<16x1xi32>");
  int64_t shape[] = {16, 8};
  Value* bc = b.broadcast(e, shape);
  CHECK(bc->type.str() == "tile<16x8xi32>");
  Value* c = b.compare(Opcode::CmpI, "sge", bc, bc);
  CHECK(c->type.str() == "tile<16x8xi1>");
  CHECK(*c->def->strAttr("pred") == "sge");
  // Attributes stay sorted and unique.
  c->def->setAttr("aaa", int64_t(1));
  c->def->setAttr("pred", std::string("slt"));
  REQUIRE(c->def->attrs.size() == 2);
  CHECK(c->def->attrs[0].name == "aaa");
  CHECK(*c->def->strAttr("pred") == "slt");
  b.create(Opcode::Return, {}, {});
  CHECK(verify(m).empty());
}

TEST_CASE("printed builder output parses back to the same text", "[builder][text]") {
  auto m = test::buildVadd(128);
  std::string text = print(*m);
  auto back = parse(text, "printed.tile");
  REQUIRE(back.ok());
  CHECK(verify(**back).empty());
  CHECK(print(**back) == text);
}

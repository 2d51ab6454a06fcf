// TypesTest.cpp - element and tile types: names, widths, shapes, equality, text form.
#include <catch2/catch.hpp>

#include "ir/Types.h"

using namespace tilevm::ir;

TEST_CASE("scalar kinds have names and widths", "[types]") {
  CHECK(scalarName(ScalarKind::BF16) == "bf16");
  CHECK(scalarFromName("i1") == ScalarKind::I1);
  CHECK(!scalarFromName("f128"));
  CHECK(!scalarFromName("ptr"));
  CHECK(bitWidth(ScalarKind::I1) == 1);
  CHECK(bitWidth(ScalarKind::F16) == 16);
  CHECK(bitWidth(ScalarKind::F64) == 64);
  CHECK(ElemType::ptrTo(ScalarKind::F16).bitWidth() == 64);
}

TEST_CASE("element classes", "[types]") {
  CHECK(ElemType{ScalarKind::I64, ScalarKind::I32}.isInt());
  CHECK(ElemType{ScalarKind::I1, ScalarKind::I32}.isInt());
  CHECK(ElemType{ScalarKind::BF16, ScalarKind::I32}.isFloat());
  CHECK(!ElemType{ScalarKind::BF16, ScalarKind::I32}.isInt());
  CHECK(ElemType::ptrTo(ScalarKind::F32).isPtr());
  CHECK(!(ElemType::ptrTo(ScalarKind::F32) == ElemType::ptrTo(ScalarKind::F16)));
  // The pointee of a non-pointer does not matter for equality.
  CHECK(ElemType{ScalarKind::I32, ScalarKind::F16} == ElemType{ScalarKind::I32, ScalarKind::I8});
}

TEST_CASE("tile shapes and text", "[types]") {
  int64_t s[] = {64, 32};
  Type t = Type::tile(ScalarKind::F16, s);
  CHECK(t.rank() == 2);
  CHECK(t.numElements() == 2048);
  CHECK(t.str() == "tile<64x32xf16>");
  CHECK(Type::scalar(ScalarKind::I32).str() == "i32");
  CHECK(Type::scalar(ScalarKind::I32).numElements() == 1);
  Type p = t.withElem(ElemType::ptrTo(ScalarKind::F16));
  CHECK(p.str() == "tile<64x32xptr<f16>>");
  CHECK(p.sameShape(t));
  CHECK(!(p == t));
  int64_t s2[] = {32, 64};
  CHECK(!t.sameShape(t.withShape(s2)));
  CHECK(t.withShape(s2).str() == "tile<32x64xf16>");
  CHECK(Type(ElemType::ptrTo(ScalarKind::I8)).str() == "ptr<i8>");
}

// ByteReaderTest.cpp - the bounded reader: every read checked, counts checked before use.
#include <catch2/catch.hpp>

#include "ir/bytecode/ByteReader.h"
#include "ir/bytecode/Varint.h"

using namespace tilevm::ir::bc;

namespace {
size_t failOffset(auto&& f) {
  try {
    f();
  } catch (const BytecodeError& e) {
    return e.offset;
  }
  return SIZE_MAX;
}
}  // namespace

TEST_CASE("reads past the end fail at the offset of the read", "[reader]") {
  std::vector<uint8_t> data = {1, 2, 3};
  ByteReader r(data);
  CHECK(r.u8("a") == 1);
  CHECK(r.remaining() == 2);
  CHECK(failOffset([&] { r.bytes(3, "blob"); }) == 1);
  CHECK(r.bytes(2, "blob").size() == 2);
  CHECK(failOffset([&] { r.u8("b"); }) == 3);
  CHECK(failOffset([&] { r.f64("f"); }) == 3);
}

TEST_CASE("counts larger than the rest can hold are rejected before any allocation", "[reader]") {
  ByteWriter w;
  w.varU(1'000'000'000'000ULL);
  w.raw("abcd", 4);
  ByteReader r(w.bytes);
  try {
    r.count("items", 1);
    FAIL("accepted an impossible count");
  } catch (const BytecodeError& e) {
    CHECK(e.offset == 0);
    CHECK(e.message.find("exceeds what the remaining 4 bytes can hold") != std::string::npos);
  }
  ByteWriter ok;
  ok.varU(2);
  ok.raw("abcd", 4);
  ByteReader r2(ok.bytes);
  CHECK(r2.count("pairs", 2) == 2);
  ByteReader r3(ok.bytes);
  CHECK_THROWS_AS(r3.count("triples", 3), BytecodeError);
}

TEST_CASE("sub-readers are windows that report absolute offsets", "[reader]") {
  std::vector<uint8_t> data = {9, 9, 9, 7, 8, 9, 9};
  ByteReader r(data, 1000);
  r.bytes(3, "skip");
  ByteReader s = r.sub(2, "section");
  CHECK(r.offset() == 1005);
  CHECK(s.offset() == 1003);
  CHECK(s.u8("x") == 7);
  CHECK(s.u8("y") == 8);
  CHECK(s.atEnd());
  CHECK(failOffset([&] { s.u8("z"); }) == 1005);
  CHECK(failOffset([&] { r.sub(3, "too long"); }) == 1005);
}

TEST_CASE("varUpTo enforces its limit", "[reader]") {
  ByteWriter w;
  w.varU(300);
  ByteReader r(w.bytes);
  CHECK_THROWS_AS(r.varUpTo(255, "small"), BytecodeError);
  ByteReader r2(w.bytes);
  CHECK(r2.varUpTo(300, "ok") == 300);
}

// VarintTest.cpp - LEB128 and zigzag codec: round trips, limits, malformed encodings.
#include <catch2/catch.hpp>
#include <limits>
#include <random>

#include "ir/bytecode/ByteReader.h"
#include "ir/bytecode/Varint.h"

using namespace tilevm::ir::bc;

TEST_CASE("zigzag maps small magnitudes to small codes", "[varint]") {
  CHECK(zigzagEncode(0) == 0);
  CHECK(zigzagEncode(-1) == 1);
  CHECK(zigzagEncode(1) == 2);
  CHECK(zigzagEncode(-2) == 3);
  CHECK(zigzagEncode(std::numeric_limits<int64_t>::min()) == std::numeric_limits<uint64_t>::max());
  for (int64_t v : {int64_t(0), int64_t(-5), int64_t(123456789), std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min()})
    CHECK(zigzagDecode(zigzagEncode(v)) == v);
}

TEST_CASE("varints round-trip across the 64-bit range", "[varint]") {
  std::mt19937_64 rng(std::random_device{}());
  ByteWriter w;
  std::vector<uint64_t> us;
  std::vector<int64_t> ss;
  for (int i = 0; i < 2000; ++i) {
    uint64_t u = rng() >> (rng() % 64);
    int64_t s = static_cast<int64_t>(rng()) >> (rng() % 64);
    us.push_back(u);
    ss.push_back(s);
    w.varU(u);
    w.varS(s);
  }
  w.varU(std::numeric_limits<uint64_t>::max());
  ByteReader r(w.bytes);
  for (int i = 0; i < 2000; ++i) {
    CHECK(r.varU("u") == us[i]);
    CHECK(r.varS("s") == ss[i]);
  }
  CHECK(r.varU("max") == std::numeric_limits<uint64_t>::max());
  CHECK(r.atEnd());
}

TEST_CASE("encoded sizes are minimal", "[varint]") {
  auto size = [](uint64_t v) {
    ByteWriter w;
    w.varU(v);
    return w.bytes.size();
  };
  CHECK(size(0) == 1);
  CHECK(size(127) == 1);
  CHECK(size(128) == 2);
  CHECK(size(16383) == 2);
  CHECK(size(16384) == 3);
  CHECK(size(std::numeric_limits<uint64_t>::max()) == kMaxVarintBytes);
}

TEST_CASE("malformed varints are rejected with their offset", "[varint]") {
  std::vector<uint8_t> eleven(11, 0x80);
  eleven.back() = 0;
  ByteReader r1(eleven, 100);
  try {
    r1.varU("x");
    FAIL("accepted an 11-byte varint");
  } catch (const BytecodeError& e) {
    CHECK(e.offset == 100);
    CHECK(e.message.find("longer than 10 bytes") != std::string::npos);
  }
  // 10th byte carrying more than the 64th bit.
  std::vector<uint8_t> over(9, 0xff);
  over.push_back(0x02);
  ByteReader r2(over);
  CHECK_THROWS_AS(r2.varU("x"), BytecodeError);
  std::vector<uint8_t> cut = {0x80, 0x80};
  ByteReader r3(cut);
  CHECK_THROWS_AS(r3.varU("x"), BytecodeError);
}

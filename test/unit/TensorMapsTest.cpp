// TensorMapsTest.cpp - a launch's tensor maps as the driver is asked to encode them
// (runtime/TensorMaps.h): innermost dim first, strides in bytes, the box, swizzle and fill as
// the code generator chose them, and what the TMA cannot take refused with the parameter named.
// The driver's encoder is replaced by one that records its arguments: no GPU needed.
#include <catch2/catch.hpp>

#include <cstring>

#include "runtime/TensorMaps.h"

using namespace tilevm;

namespace {

struct Call {
  int dataType = -1, swizzle = -1, l2 = -1, fill = -1, interleave = -1;
  uint32_t rank = 0;
  uint64_t address = 0, dims[5] = {}, strides[4] = {};
  uint32_t box[5] = {}, elementStrides[5] = {};
};
Call last;
int calls = 0;

int fakeEncode(void* map, int dataType, uint32_t rank, void* address, const uint64_t* dims, const uint64_t* strides, const uint32_t* box,
               const uint32_t* elementStrides, int interleave, int swizzle, int l2Promotion, int oobFill) {
  ++calls;
  last = Call{dataType, swizzle, l2Promotion, oobFill, interleave, rank, uint64_t(reinterpret_cast<uintptr_t>(address))};
  std::memcpy(last.dims, dims, rank * 8);
  std::memcpy(last.strides, strides, (rank - 1) * 8);
  std::memcpy(last.box, box, rank * 4);
  std::memcpy(last.elementStrides, elementStrides, rank * 4);
  std::memset(map, 0xab, 128);
  return 0;
}

}  // namespace

TEST_CASE("tensor maps are encoded innermost dim first, strides in bytes", "[tma]") {
  // Parameters: 0 base, 1 rows, 2 cols, 3 row stride, 4 column stride (a [rows, cols] f16 array
  // of rows 200 elements apart), as the frontend makes a tensordesc argument's.
  codegen::TensorMap m{0, {1, 2}, {3, 4}, "f16", {128, 64}, 128, false};
  std::vector<std::string> names{"q.base", "q.shape0", "q.shape1", "q.stride0", "q.stride1"};
  std::vector<uint64_t> params{0x7f0000001000, 4096, 192, 200, 1};
  std::vector<rt::TensorMapBytes> out;
  calls = 0;
  REQUIRE(rt::encodeTensorMaps(fakeEncode, {m}, params, names, out) == "");
  REQUIRE(calls == 1);
  REQUIRE(out.size() == 1);
  CHECK(out[0].words[0] == 0xabababababababab);
  CHECK(last.dataType == 6);  // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  CHECK(last.rank == 2);
  CHECK(last.address == 0x7f0000001000);
  CHECK(last.dims[0] == 192);
  CHECK(last.dims[1] == 4096);
  CHECK(last.strides[0] == 400);  // 200 f16 elements
  CHECK(last.box[0] == 64);
  CHECK(last.box[1] == 128);
  CHECK(last.elementStrides[0] == 1);
  CHECK(last.elementStrides[1] == 1);
  CHECK(last.interleave == 0);
  CHECK(last.swizzle == 3);  // CU_TENSOR_MAP_SWIZZLE_128B
  CHECK(last.fill == 0);

  // bf16 at a 64-byte swizzle, NaN outside; f32 at 32 bytes.
  m.dtype = "bf16", m.swizzleBytes = 64, m.nanFill = true;
  REQUIRE(rt::encodeTensorMaps(fakeEncode, {m}, params, names, out) == "");
  CHECK(last.dataType == 9);
  CHECK(last.swizzle == 2);
  CHECK(last.fill == 1);
  m.dtype = "f32", m.swizzleBytes = 32;
  REQUIRE(rt::encodeTensorMaps(fakeEncode, {m}, params, names, out) == "");
  CHECK(last.dataType == 7);
  CHECK(last.swizzle == 1);
  CHECK(last.strides[0] == 800);
  // 1-byte tiles (int8, fp8) move as u8; a stride of 200 bytes is no multiple of 16.
  m.dtype = "u8", m.swizzleBytes = 128, m.nanFill = false;
  params[3] = 208;
  REQUIRE(rt::encodeTensorMaps(fakeEncode, {m}, params, names, out) == "");
  CHECK(last.dataType == 0);
  CHECK(last.strides[0] == 208);
  params[3] = 200;
  CHECK(rt::encodeTensorMaps(fakeEncode, {m}, params, names, out).find("'q.stride0' = 200") != std::string::npos);
}

TEST_CASE("what the TMA cannot take is refused, the parameter named", "[tma]") {
  codegen::TensorMap m{0, {1, 2}, {3, 4}, "f16", {128, 64}, 128, false};
  std::vector<std::string> names{"k.base", "k.shape0", "k.shape1", "k.stride0", "k.stride1"};
  std::vector<rt::TensorMapBytes> out;
  auto why = [&](std::vector<uint64_t> p) { return rt::encodeTensorMaps(fakeEncode, {m}, p, names, out); };
  calls = 0;
  CHECK(why({0x1008, 64, 64, 64, 1}).find("'k.base' is not 16-byte aligned") != std::string::npos);
  CHECK(why({0x1000, 0, 64, 64, 1}).find("'k.shape0' = 0 is outside TMA's 1 to 2^32") != std::string::npos);
  CHECK(why({0x1000, 64, (uint64_t(1) << 32) + 1, 64, 1}).find("'k.shape1'") != std::string::npos);
  CHECK(why({0x1000, 64, 64, 100, 1}).find("'k.stride0' = 100 is not a positive multiple of 16 bytes") != std::string::npos);
  CHECK(why({0x1000, 64, 64, 64, 2}).find("'k.stride1' is not 1") != std::string::npos);
  CHECK(calls == 0);  // the driver is never asked for what it would refuse
}

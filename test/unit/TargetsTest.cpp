// TargetsTest.cpp - the per-arch table (codegen/Targets.h): each GPU runs its own target and is
// held to its own limits, and launch metadata crosses the kernel cache as data (PtxEntry.h).
#include <catch2/catch.hpp>

#include "codegen/Targets.h"
#include "runtime/PtxEntry.h"

using namespace tilevm;

TEST_CASE("a GPU runs the target of its own compute capability", "[targets]") {
  auto arch = [](int major, int minor) {
    const codegen::Target* t = codegen::targetForCapability(major, minor);
    return t ? std::string(t->arch) : std::string("none");
  };
  CHECK(arch(8, 0) == "sm_80");
  CHECK(arch(8, 6) == "sm_86");  // not sm_80: its 99 KiB, not sm_80's 163 KiB
  CHECK(arch(8, 7) == "sm_87");
  CHECK(arch(8, 9) == "sm_89");
  CHECK(arch(9, 0) == "sm_90a");  // wgmma: 9.0 alone
  CHECK(arch(10, 0) == "sm_90");  // newer, no row: the newest portable target below it
  CHECK(arch(12, 0) == "sm_90");
  CHECK(arch(7, 5) == "none");
}

TEST_CASE("per-arch shared memory opt-in maxima", "[targets]") {
  auto kib = [](const char* a) { return codegen::findTarget(a)->sharedOptInKiB; };
  CHECK(kib("sm_80") == 163);
  CHECK(kib("sm_86") == 99);
  CHECK(kib("sm_87") == 163);
  CHECK(kib("sm_89") == 99);
  CHECK(kib("sm_90") == 227);
  CHECK(kib("sm_90a") == 227);
  CHECK(codegen::findTarget("sm_75") == nullptr);
  CHECK(codegen::targetNames() == "sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a");
}

TEST_CASE("launch metadata round-trips through a cache entry as fields", "[targets]") {
  codegen::CompiledPtx c;
  c.ptx = ".version 8.5\n.target sm_86\n// tilevm.dynamic_shared_bytes 5\n";
  c.launch = {"dot_k", "sm_86", 256, 98304, {}, 0};
  std::string entry = rt::encodePtxEntry(c);
  auto back = rt::decodePtxEntry(entry);
  REQUIRE(back);
  CHECK(back->ptx == c.ptx);  // the PTX text is never read for metadata
  CHECK(back->launch.kernel == "dot_k");
  CHECK(back->launch.arch == "sm_86");
  CHECK(back->launch.threads == 256);
  CHECK(back->launch.dynamicSharedBytes == 98304);
  CHECK(back->launch.tensorMaps.empty());
  // Tensor maps (the hidden parameters of TMA copies) travel too.
  c.launch.tensorMaps = {{0, {1, 2}, {3, 4}, "f16", {128, 64}, 128, false}, {5, {6, 7}, {8, 9}, "f32", {64, 16}, 64, true}};
  back = rt::decodePtxEntry(rt::encodePtxEntry(c));
  REQUIRE(back);
  CHECK(back->launch.tensorMaps == c.launch.tensorMaps);
  // So does the count of tensor maps each program builds on the device.
  c.launch.deviceTensorMaps = 3;
  back = rt::decodePtxEntry(rt::encodePtxEntry(c));
  REQUIRE(back);
  CHECK(back->launch.deviceTensorMaps == 3);
  // Anything else is a miss: plain PTX (an older entry), a damaged or foreign header.
  const std::string v3 = "tilevm-launch v3 kernel=k arch=sm_90 threads=128 dynamic_shared_bytes=0 tensor_maps=";
  CHECK_FALSE(rt::decodePtxEntry(c.ptx));
  CHECK_FALSE(rt::decodePtxEntry("tilevm-launch v1 kernel=k arch=sm_90 threads=128 dynamic_shared_bytes=0\n"));  // before tensor maps
  CHECK_FALSE(rt::decodePtxEntry("tilevm-launch v2 kernel=k arch=sm_90 threads=128 dynamic_shared_bytes=0 tensor_maps=-\n"));  // before device maps
  CHECK_FALSE(rt::decodePtxEntry("tilevm-launch v3 kernel=k arch=sm_75 threads=128 dynamic_shared_bytes=0 tensor_maps=- device_maps=0\n"));
  CHECK_FALSE(rt::decodePtxEntry("tilevm-launch v3 kernel=k arch=sm_90 threads=2048 dynamic_shared_bytes=0 tensor_maps=- device_maps=0\n"));
  CHECK_FALSE(rt::decodePtxEntry("tilevm-launch v3 kernel=k arch=sm_90 threads=128 dynamic_shared_bytes=-1 tensor_maps=- device_maps=0\n"));
  CHECK_FALSE(rt::decodePtxEntry("tilevm-launch v3 kernel=k arch=sm_90 threads=128 dynamic_shared_bytes=0\n"));
  CHECK_FALSE(rt::decodePtxEntry(v3 + "- x=1\n"));
  CHECK_FALSE(rt::decodePtxEntry(v3 + "-\n"));                                           // no device_maps
  CHECK_FALSE(rt::decodePtxEntry(v3 + "- device_maps=x\n"));
  CHECK_FALSE(rt::decodePtxEntry(v3 + "- device_maps=65\n"));
  CHECK_FALSE(rt::decodePtxEntry(v3 + "0/1,2/3,4/f16/128,64/96/z device_maps=0\n"));    // no such swizzle
  CHECK_FALSE(rt::decodePtxEntry(v3 + "0/1,2/3/f16/128,64/128/z device_maps=0\n"));     // a stride short
  CHECK_FALSE(rt::decodePtxEntry(v3 + "0/1,2/3,4/i8/128,64/128/z device_maps=0\n"));    // no such element type here (bytes are u8)
  CHECK(rt::decodePtxEntry(v3 + "0/1,2/3,4/u8/128,128/128/z device_maps=0\n"));
  CHECK_FALSE(rt::decodePtxEntry(v3 + "0/1,2/3,4/f16/128,64/128/q device_maps=0\n"));   // no such fill
  CHECK(rt::decodePtxEntry(v3 + "- device_maps=2\n"));
  CHECK(rt::decodePtxEntry(v3 + "0/1,2/3,4/bf16/128,64/32/n device_maps=0\n"));
}

TEST_CASE("the register budget that keeps a kernel's blocks per SM", "[targets]") {
  // 256 threads at 102 registers: 2 blocks per SM (104 allocated); 128 keeps 2.
  CHECK(codegen::occupancyRegisterBudget(102, 256) == 128);
  CHECK(codegen::occupancyRegisterBudget(128, 256) == 128);
  CHECK(codegen::occupancyRegisterBudget(129, 256) == 255);  // one block: all it may have
  CHECK(codegen::occupancyRegisterBudget(216, 256) == 255);
  // 128 threads at 32 registers: 16 blocks, which the 2,048 threads per SM allow too.
  CHECK(codegen::occupancyRegisterBudget(32, 128) == 32);
  CHECK(codegen::occupancyRegisterBudget(20, 128) == 32);
  // 32 threads: 32 blocks per SM at most, so 64 registers at any count up to 64.
  CHECK(codegen::occupancyRegisterBudget(10, 32) == 64);
  CHECK(codegen::occupancyRegisterBudget(40, 1024) == 64);
  CHECK(codegen::occupancyRegisterBudget(0, 256) == 0);  // nothing known: unchanged
}

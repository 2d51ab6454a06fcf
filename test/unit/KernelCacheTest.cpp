// KernelCacheTest.cpp - the on-disk kernel cache: keys separate every part, entries round-trip,
// truncated entries read as absent, concurrent writers of one key leave one whole entry.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "runtime/KernelCache.h"

using namespace tilevm;

namespace {

std::string freshDir() {
  std::string d = std::filesystem::temp_directory_path().string() + "/tilevm-cache-test-" + std::to_string(::getpid()) + "-" +
                  std::to_string(std::rand());
  std::filesystem::remove_all(d);
  return d;
}

}  // namespace

TEST_CASE("kernel cache keys depend on every part and on where parts split") {
  std::string k = rt::KernelCache::key({"0.1", "sm_90", "4", "bytes"});
  CHECK(k.size() == 32);
  CHECK(k == rt::KernelCache::key({"0.1", "sm_90", "4", "bytes"}));
  CHECK(k != rt::KernelCache::key({"0.1", "sm_80", "4", "bytes"}));
  CHECK(k != rt::KernelCache::key({"0.1", "sm_90", "8", "bytes"}));
  CHECK(rt::KernelCache::key({"ab", "c"}) != rt::KernelCache::key({"a", "bc"}));
}

TEST_CASE("kernel cache entries round-trip; truncated or foreign files read as absent") {
  std::string dir = freshDir();
  rt::KernelCache cache(dir + "/nested/dir");
  REQUIRE(cache.dir() == dir + "/nested/dir");
  std::string key = rt::KernelCache::key({"x"}), ptx = ".version 8.5\n.target sm_90\n// body\n";
  CHECK(!cache.load(key));
  REQUIRE(cache.store(key, ptx));
  CHECK(cache.load(key) == ptx);
  std::string path = cache.dir() + "/" + key + ".ptx";
  std::string whole;
  {
    std::ifstream f(path);
    whole.assign(std::istreambuf_iterator<char>(f), {});
  }
  for (size_t cut : {whole.size() - 1, whole.size() - 5, ptx.size(), size_t(3)}) {
    std::ofstream(path, std::ios::trunc) << whole.substr(0, cut);
    CHECK(!cache.load(key));
  }
  std::ofstream(path, std::ios::trunc) << "not a cache entry";
  CHECK(!cache.load(key));
  std::filesystem::remove_all(dir);
}

TEST_CASE("concurrent writers of one key leave one whole entry") {
  std::string dir = freshDir();
  rt::KernelCache cache(dir);
  std::string key = rt::KernelCache::key({"race"});
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i)
    writers.emplace_back([&, i] {
      for (int j = 0; j < 20; ++j) cache.store(key, std::string(1000 + i, char('a' + i)));
    });
  for (auto& t : writers) t.join();
  auto got = cache.load(key);
  REQUIRE(got);
  CHECK(got->size() >= 1000);
  CHECK(*got == std::string(got->size(), (*got)[0]));  // one writer's text, whole
  size_t files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);  // no temporary left behind
  std::filesystem::remove_all(dir);
}

TEST_CASE("a cache directory that cannot be made leaves the cache off") {
  rt::KernelCache cache("/proc/tilevm-cannot-exist/x");
  CHECK(cache.dir().empty());
  CHECK(!cache.store("k", "text"));
  CHECK(!cache.load("k"));
}

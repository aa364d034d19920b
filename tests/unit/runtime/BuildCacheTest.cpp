// The in-process build cache: hits by exact (source, options), LRU eviction.
#include "runtime/BuildCache.h"

#include <gtest/gtest.h>

using namespace weft::rt;

namespace {

std::shared_ptr<const BuildCache::Entry> entry(const std::string &Log) {
  auto E = std::make_shared<BuildCache::Entry>();
  E->Log = Log;
  return E;
}

TEST(BuildCache, HitsOnlyTheSameSourceAndOptions) {
  BuildCache &C = BuildCache::get();
  C.insert("kernel void a() {}", "-DX=1", entry("first"));
  auto Hit = C.find("kernel void a() {}", "-DX=1");
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->Log, "first");
  EXPECT_FALSE(C.find("kernel void a() {}", "-DX=2"));
  EXPECT_FALSE(C.find("kernel void a() { }", "-DX=1"));
  // Options and source must not run into each other.
  C.insert("b", "-Da", entry("ab"));
  EXPECT_FALSE(C.find("ab", "-D"));
}

TEST(BuildCache, EvictsTheLeastRecentlyUsed) {
  BuildCache &C = BuildCache::get();
  C.insert("keep", "", entry("keep"));
  for (int I = 0; I < 200; ++I) {
    C.insert("filler" + std::to_string(I), "", entry("f"));
    ASSERT_TRUE(C.find("keep", "")) << I; // touching it keeps it young
  }
  EXPECT_FALSE(C.find("filler0", ""));
  EXPECT_TRUE(C.find("filler199", ""));
}

} // namespace

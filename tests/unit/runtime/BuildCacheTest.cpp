// The in-process build cache: hits by exact (source, options) while the
// files a build read are unchanged, LRU eviction.
#include "runtime/program/BuildCache.h"

#include <gtest/gtest.h>

using namespace weft::rt;

namespace {

std::shared_ptr<const BuildCache::Entry> entry(const std::string &Log) {
  auto E = std::make_shared<BuildCache::Entry>();
  E->Log = Log;
  return E;
}

/// A check of the inputs that finds every file unchanged.
bool unchanged(const FileDigests &) { return true; }

TEST(BuildCache, HitsOnlyTheSameSourceAndOptions) {
  BuildCache &C = BuildCache::get();
  C.insert("kernel void a() {}", "-DX=1", entry("first"));
  auto Hit = C.find("kernel void a() {}", "-DX=1", unchanged);
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->Log, "first");
  EXPECT_FALSE(C.find("kernel void a() {}", "-DX=2", unchanged));
  EXPECT_FALSE(C.find("kernel void a() { }", "-DX=1", unchanged));
  // Options and source must not run into each other.
  C.insert("b", "-Da", entry("ab"));
  EXPECT_FALSE(C.find("ab", "-D", unchanged));
}

TEST(BuildCache, EvictsTheLeastRecentlyUsed) {
  BuildCache &C = BuildCache::get();
  C.insert("keep", "", entry("keep"));
  for (int I = 0; I < 200; ++I) {
    C.insert("filler" + std::to_string(I), "", entry("f"));
    ASSERT_TRUE(C.find("keep", "", unchanged)) << I; // touching it keeps it young
  }
  EXPECT_FALSE(C.find("filler0", "", unchanged));
  EXPECT_TRUE(C.find("filler199", "", unchanged));
}

// Regression: the cache keyed on source and options alone, so a build
// after an -I header changed on disk returned the stale executable.
TEST(BuildCache, AnEntryWhoseInputsChangedIsAMissAndGoes) {
  BuildCache &C = BuildCache::get();
  auto E = std::make_shared<BuildCache::Entry>();
  E->Inputs = {{"/inc/a.h", "digest-1"}};
  C.insert("#include \"a.h\"", "-I/inc", E);
  int Checks = 0;
  auto Same = [&](const FileDigests &In) {
    ++Checks;
    EXPECT_EQ(In, E->Inputs);
    return true;
  };
  EXPECT_TRUE(C.find("#include \"a.h\"", "-I/inc", Same));
  EXPECT_EQ(Checks, 1);
  auto Changed = [](const FileDigests &) { return false; };
  EXPECT_FALSE(C.find("#include \"a.h\"", "-I/inc", Changed));
  // Gone: even a check that finds it fresh misses now.
  EXPECT_FALSE(C.find("#include \"a.h\"", "-I/inc", Same));
}

} // namespace

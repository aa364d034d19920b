// The on-disk kernel cache: a later build of the same program loads it
// (skipping the front end and code generation) and runs the same; any change
// to what the build depends on (source, options, a header read through -I)
// is a miss; damaged entries are misses; the cache stays within its size.
#include "KernelRunner.h"

#include "compiler/codegen/DiskCache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace weft::compiler::test {

namespace {

/// A fresh cache directory selected through WEFT_CACHE_DIR for one test.
class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/weft-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    Dir = Template;
    setenv("WEFT_CACHE_DIR", Dir.c_str(), 1);
  }
  void TearDown() override {
    setenv("WEFT_CACHE_DIR", "off", 1);
    fs::remove_all(Dir);
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> Out;
    for (const auto &E : fs::directory_iterator(Dir))
      if (E.path().extension() == ".wkc")
        Out.push_back(E.path());
    return Out;
  }
  /// Runs kernel k(out) of P over 64 items and returns out[5].
  static int result(Program &P) {
    std::vector<int> Out(64);
    EXPECT_TRUE(P.run("k", range1(64, 16), {Arg::pointer(Out.data())}));
    return Out[5];
  }
  std::string Dir;
};

// A salt per process: a cache left by an earlier run of this test binary
// must not answer.
const std::string Salt = "// " + std::to_string(getpid()) + "\n";

const std::string Source = Salt + R"(
kernel void k(global int *out) {
  local int tile[16];
  tile[get_local_id(0)] = (int)get_global_id(0) * VALUE;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[15 - get_local_id(0)];
})";

} // namespace

TEST_F(DiskCacheTest, ALaterBuildLoadsTheCachedProgramAndRunsTheSame) {
  Program First;
  ASSERT_TRUE(First.build(Source, "-DVALUE=3"));
  EXPECT_FALSE(First.fromDiskCache());
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_EQ(result(First), 30);

  Program Second;
  ASSERT_TRUE(Second.build(Source, "-DVALUE=3"));
  EXPECT_TRUE(Second.fromDiskCache());
  EXPECT_EQ(result(Second), 30);
  const rt::KernelDesc *A = First.kernel("k"), *B = Second.kernel("k");
  ASSERT_TRUE(A && B);
  EXPECT_EQ(B->Args.size(), A->Args.size());
  EXPECT_EQ(B->StaticLocalSize, A->StaticLocalSize);
  EXPECT_EQ(B->PrivateFrameSize, A->PrivateFrameSize);
  EXPECT_EQ(B->Args[0].TypeName, A->Args[0].TypeName);
  EXPECT_EQ(Second.log(), First.log());
}

// Code generation waits for a kernel's first launch, which stores the
// kernel's object in an entry of its own; a later process's launch loads
// it instead of compiling. (A compile under WEFT_DUMP_IR=pre prints the
// module it optimizes.)
TEST_F(DiskCacheTest, AKernelIsCompiledAtItsFirstLaunchAndThenLoaded) {
  Program First;
  ASSERT_TRUE(First.build(Source, "-DVALUE=11"));
  ASSERT_EQ(entries().size(), 1u) << "the build compiles no kernel";
  int Result = 0;
  EXPECT_NE(compilesPrinted([&] { Result = result(First); }).find("__weft_wg_k"),
            std::string::npos);
  EXPECT_EQ(Result, 110);
  EXPECT_EQ(entries().size(), 2u) << "the launch stored the kernel's object";

  Program Second;
  ASSERT_TRUE(Second.build(Source, "-DVALUE=11"));
  ASSERT_TRUE(Second.fromDiskCache());
  EXPECT_EQ(compilesPrinted([&] { Result = result(Second); }), "") << "compiled again";
  EXPECT_EQ(Result, 110);
  EXPECT_EQ(entries().size(), 2u);
}

// A program whose kernels share its variables is stored with the
// variables part's object; loaded, its kernels still share them.
TEST_F(DiskCacheTest, AProgramOfSeveralPartsLoadsWhole) {
  const std::string Src = Salt + R"(
    global int shared_value;
    kernel void put(int v) { shared_value = v; }
    kernel void get(global int *out) { out[get_global_id(0)] = shared_value * 2; })";
  for (bool Cached : {false, true}) {
    Program P;
    ASSERT_TRUE(P.build(Src, "-cl-std=CL3.0"));
    EXPECT_EQ(P.fromDiskCache(), Cached);
    std::vector<int> Out(4, 0);
    ASSERT_TRUE(P.run("put", range1(1, 1), {Arg::value(21)}));
    ASSERT_TRUE(P.run("get", range1(4, 4), {Arg::pointer(Out.data())}));
    EXPECT_EQ(Out, std::vector<int>(4, 42)) << Cached;
  }
}

TEST_F(DiskCacheTest, TheEntryKeepsAKernelsSubGroups) {
  const std::string Src = Salt + R"(
    kernel void sg(global uint *out) { out[get_global_id(0)] = get_sub_group_size(); }
    kernel void plain(global uint *out) { out[get_global_id(0)] = 1; })";
  Program First, Second;
  ASSERT_TRUE(First.build(Src, "-cl-std=CL3.0"));
  ASSERT_TRUE(Second.build(Src, "-cl-std=CL3.0"));
  EXPECT_TRUE(Second.fromDiskCache());
  ASSERT_TRUE(Second.kernel("sg") && Second.kernel("plain"));
  EXPECT_TRUE(Second.kernel("sg")->UsesSubGroups);
  EXPECT_FALSE(Second.kernel("plain")->UsesSubGroups);
  EXPECT_EQ(Second.kernel("sg")->SubGroupSize, First.kernel("sg")->SubGroupSize);
  EXPECT_GE(Second.kernel("sg")->SubGroupSize, 4u);
}

TEST_F(DiskCacheTest, OtherOptionsAreAnotherEntry) {
  Program Three, Four;
  ASSERT_TRUE(Three.build(Source, "-DVALUE=3"));
  ASSERT_TRUE(Four.build(Source, "-DVALUE=4"));
  EXPECT_FALSE(Four.fromDiskCache());
  EXPECT_EQ(entries().size(), 2u);
  EXPECT_EQ(result(Four), 40);
  EXPECT_EQ(entries().size(), 3u) << "and the object of Four's kernel, launched";
}

TEST_F(DiskCacheTest, AChangedHeaderIsAMiss) {
  fs::create_directories(Dir + "/inc");
  auto writeHeader = [&](int V) {
    std::ofstream(Dir + "/inc/value.h") << "#define VALUE " << V << "\n";
  };
  const std::string WithInclude = "#include \"value.h\"\n" + Source;
  const std::string Options = "-I " + Dir + "/inc";
  writeHeader(5);
  Program P1, P2, P3;
  ASSERT_TRUE(P1.build(WithInclude, Options));
  ASSERT_TRUE(P2.build(WithInclude, Options));
  EXPECT_TRUE(P2.fromDiskCache());
  EXPECT_EQ(result(P2), 50);
  writeHeader(6);
  ASSERT_TRUE(P3.build(WithInclude, Options));
  EXPECT_FALSE(P3.fromDiskCache());
  EXPECT_EQ(result(P3), 60);
}

TEST_F(DiskCacheTest, DamagedEntriesAreMisses) {
  Program P;
  ASSERT_TRUE(P.build(Source, "-DVALUE=7"));
  ASSERT_EQ(entries().size(), 1u);
  fs::path Entry = entries()[0];
  // One flipped byte in the middle, then a truncated file.
  std::string Bytes;
  {
    std::ifstream In(Entry, std::ios::binary);
    Bytes.assign(std::istreambuf_iterator<char>(In), {});
  }
  std::string Flipped = Bytes;
  Flipped[Flipped.size() / 2] ^= 0x40;
  std::ofstream(Entry, std::ios::binary) << Flipped;
  Program Q;
  ASSERT_TRUE(Q.build(Source, "-DVALUE=7"));
  EXPECT_FALSE(Q.fromDiskCache());
  EXPECT_EQ(result(Q), 70);

  std::ofstream(Entry, std::ios::binary) << Bytes.substr(0, Bytes.size() / 3);
  Program R;
  ASSERT_TRUE(R.build(Source, "-DVALUE=7"));
  EXPECT_FALSE(R.fromDiskCache());
  // The rebuild replaced the damaged entry.
  Program S;
  ASSERT_TRUE(S.build(Source, "-DVALUE=7"));
  EXPECT_TRUE(S.fromDiskCache());
}

TEST_F(DiskCacheTest, OffDisablesTheCache) {
  setenv("WEFT_CACHE_DIR", "off", 1);
  Program P1, P2;
  ASSERT_TRUE(P1.build(Source, "-DVALUE=8"));
  ASSERT_TRUE(P2.build(Source, "-DVALUE=8"));
  EXPECT_FALSE(P2.fromDiskCache());
  EXPECT_TRUE(entries().empty());
}

TEST_F(DiskCacheTest, FailedBuildsAreNotCached) {
  auto R = rt::ProgramCompiler::get().buildSource(Source, ""); // VALUE undefined
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R));
  EXPECT_TRUE(entries().empty());
}

TEST_F(DiskCacheTest, KeysSeparateTheirParts) {
  EXPECT_NE(DiskCache::key("cpu", {"ab", "c"}), DiskCache::key("cpu", {"a", "bc"}));
  EXPECT_NE(DiskCache::key("cpu a", {"x"}), DiskCache::key("cpu b", {"x"}));
  EXPECT_EQ(DiskCache::key("cpu", {"x", "y"}), DiskCache::key("cpu", {"x", "y"}));
}

TEST_F(DiskCacheTest, TheLeastRecentlyUsedEntriesGoWhenTheCacheIsFull) {
  DiskCache Cache(Dir, /*MaxBytes=*/16 * 1024);
  CachedBuild B;
  B.Objects = {std::vector<unsigned char>(3000, 0xab)};
  std::vector<std::string> Keys;
  for (int I = 0; I < 8; ++I) {
    Keys.push_back(DiskCache::key("cpu", {std::to_string(I)}));
    Cache.store(Keys.back(), B);
    // Entry 0 is used after every store: it stays the most recent.
    ASSERT_TRUE(Cache.load(Keys[0]).has_value()) << I;
    // Distinct modification times (the file system's are coarse).
    fs::last_write_time(Dir + "/" + Keys.back() + ".wkc",
                        fs::file_time_type::clock::now() - std::chrono::seconds(100 - I));
  }
  uint64_t Total = 0;
  for (const fs::path &P : entries())
    Total += fs::file_size(P);
  EXPECT_LE(Total, 16u * 1024);
  EXPECT_TRUE(Cache.load(Keys[0]).has_value());
  EXPECT_TRUE(Cache.load(Keys[7]).has_value());
  EXPECT_FALSE(Cache.load(Keys[1]).has_value());
}

// Listing the directory costs a stat per entry, so the total lives in a
// ledger that every store appends to: a process reads it at its first store
// and lists the directory only when the ledger's total passes the limit or
// the ledger is missing or damaged. A second DiskCache on another spelling
// of the directory counts as another process (the estimate is per name).
TEST_F(DiskCacheTest, AProcessListsTheDirectoryOnlyWhenTheLedgerPassesTheLimit) {
  auto total = [&] {
    uint64_t T = 0;
    for (const fs::path &P : entries())
      T += fs::file_size(P);
    return T;
  };
  auto ledger = [&] {
    std::ifstream In(Dir + "/ledger");
    uint64_t Sum = 0, N;
    while (In >> N)
      Sum += N;
    return Sum;
  };
  CachedBuild B;
  B.Objects = {std::vector<unsigned char>(3000, 0xab)}; // entries of a little over 3000 bytes
  DiskCache First(Dir, /*MaxBytes=*/16 * 1024);
  for (int I = 0; I < 4; ++I)
    First.store(DiskCache::key("cpu", {std::to_string(I)}), B);
  // The first store found no ledger, listed the directory and wrote one.
  ASSERT_TRUE(fs::exists(Dir + "/ledger"));
  EXPECT_EQ(ledger(), total());

  // An entry the ledger does not know (a store whose line was lost), the
  // least recently used.
  const std::string Stray = Dir + "/stray.wkc";
  std::ofstream(Stray) << std::string(2048, 'x');
  fs::last_write_time(Stray, fs::file_time_type::clock::now() - std::chrono::hours(1));

  // Another process's first store reads the ledger (a little over 15 KiB
  // with it) and does not list: the stray entry stays.
  DiskCache Second(Dir + "/.", /*MaxBytes=*/16 * 1024);
  Second.store(DiskCache::key("cpu", {"4"}), B);
  EXPECT_TRUE(fs::exists(Stray));
  // Its next store takes the ledger past 16 KiB: the listing finds the stray
  // entry and removes it first, and leaves at most 12 KiB, all in the ledger.
  Second.store(DiskCache::key("cpu", {"5"}), B);
  EXPECT_FALSE(fs::exists(Stray));
  EXPECT_LE(total(), 12u * 1024);
  EXPECT_EQ(ledger(), total());

  // A damaged ledger, or none, is written again from a listing.
  std::ofstream(Dir + "/ledger") << "12\nnot a number\n";
  DiskCache Third(Dir + "/./.", /*MaxBytes=*/16 * 1024);
  Third.store(DiskCache::key("cpu", {"6"}), B);
  EXPECT_EQ(ledger(), total());
  fs::remove(Dir + "/ledger");
  DiskCache Fourth(Dir + "/././.", /*MaxBytes=*/16 * 1024);
  Fourth.store(DiskCache::key("cpu", {"7"}), B);
  EXPECT_EQ(ledger(), total());
}

// A long ledger is folded into one line when a process reads it.
TEST_F(DiskCacheTest, ALongLedgerIsFoldedIntoOneLine) {
  CachedBuild B;
  B.Objects = {std::vector<unsigned char>(100, 0xab)};
  DiskCache First(Dir, /*MaxBytes=*/1 << 20);
  First.store(DiskCache::key("cpu", {"0"}), B);
  uint64_t Listed;
  std::ifstream(Dir + "/ledger") >> Listed;
  {
    std::ofstream Out(Dir + "/ledger", std::ios::app);
    for (int I = 0; I < 2000; ++I)
      Out << "1\n";
  }
  DiskCache Second(Dir + "/.", /*MaxBytes=*/1 << 20);
  Second.store(DiskCache::key("cpu", {"1"}), B);
  std::ifstream In(Dir + "/ledger");
  std::vector<uint64_t> Lines;
  for (uint64_t N; In >> N;)
    Lines.push_back(N);
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0], 2 * Listed + 2000);
}

} // namespace weft::compiler::test

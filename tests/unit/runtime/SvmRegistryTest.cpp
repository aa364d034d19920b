// The SVM registry: a pointer anywhere inside an allocation finds it with
// its offset; pointers before, between and past allocations find nothing.
#include "runtime/memory/SvmRegistry.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace weft::rt;

namespace {

TEST(SvmRegistry, FindsTheAllocationAndOffsetOfAnyPointerInside) {
  SvmRegistry R;
  char *First = static_cast<char *>(R.allocate(256, 128, CL_MEM_READ_WRITE));
  char *Second = static_cast<char *>(
      R.allocate(1024, 128, CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER));
  ASSERT_TRUE(First && Second);
  EXPECT_EQ(R.count(), 2u);
  auto AtFirst = R.find(First);
  ASSERT_TRUE(AtFirst);
  EXPECT_EQ(AtFirst->Alloc.Base, First);
  EXPECT_EQ(AtFirst->Offset, 0u);
  auto Inside = R.find(First + 255);
  ASSERT_TRUE(Inside);
  EXPECT_EQ(Inside->Offset, 255u);
  auto InSecond = R.find(Second + 476);
  ASSERT_TRUE(InSecond);
  EXPECT_EQ(InSecond->Alloc.Base, Second);
  EXPECT_EQ(InSecond->Alloc.Size, 1024u);
  EXPECT_EQ(InSecond->Alloc.Flags,
            cl_svm_mem_flags(CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER));
  EXPECT_EQ(InSecond->Offset, 476u);
  // Just outside each (the allocator keeps its own header between blocks).
  for (char *Base : {First, Second})
    EXPECT_FALSE(R.find(Base - 1));
  EXPECT_FALSE(R.find(First + 256)); // one past the first
  EXPECT_FALSE(R.find(Second + 1024)); // one past the second
  EXPECT_FALSE(R.find(nullptr));
}

TEST(SvmRegistry, AllocatesAlignedMemoryAndFreesOnlyItsBases) {
  SvmRegistry R;
  for (size_t Alignment : {size_t(1), size_t(128), size_t(4096), size_t(1) << 16}) {
    void *P = R.allocate(100, Alignment, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER);
    ASSERT_NE(P, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % Alignment, 0u) << Alignment;
    static_cast<char *>(P)[99] = 1; // the whole size is usable
    auto L = R.find(static_cast<char *>(P) + 99);
    ASSERT_TRUE(L);
    EXPECT_EQ(L->Alloc.Size, 100u);
    EXPECT_EQ(L->Offset, 99u);
    EXPECT_EQ(L->Alloc.Flags, cl_svm_mem_flags(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER));
    EXPECT_FALSE(R.free(static_cast<char *>(P) + 1)) << "an inner pointer is not the allocation";
    EXPECT_TRUE(R.free(P));
    EXPECT_FALSE(R.find(P));
    EXPECT_FALSE(R.free(P)) << "freed twice";
  }
  alignas(64) static char Foreign[64];
  EXPECT_FALSE(R.free(Foreign)) << "memory the registry did not allocate is never freed";
  EXPECT_EQ(R.count(), 0u);
  // What is left is freed with the registry (the sanitizer build checks).
  EXPECT_NE(R.allocate(64, 0, CL_MEM_READ_WRITE), nullptr);
  EXPECT_EQ(R.allocate(SIZE_MAX - 8, 128, CL_MEM_READ_WRITE), nullptr);
}

TEST(SvmRegistry, LookupsRunBesideChanges) {
  SvmRegistry R;
  char *Always = static_cast<char *>(R.allocate(128, 128, CL_MEM_READ_WRITE));
  ASSERT_NE(Always, nullptr);
  std::thread Writer([&] {
    for (int Round = 0; Round < 200; ++Round)
      for (int I = 1; I < 64; ++I)
        R.free(R.allocate(128, 128, CL_MEM_READ_WRITE));
  });
  for (int I = 0; I < 20000; ++I) {
    auto L = R.find(Always + 100);
    ASSERT_TRUE(L);
    ASSERT_EQ(L->Offset, 100u);
  }
  Writer.join();
}

} // namespace

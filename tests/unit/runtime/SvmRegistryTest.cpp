// The SVM registry: a pointer anywhere inside an allocation finds it with
// its offset; pointers before, between and past allocations find nothing.
#include "runtime/SvmRegistry.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace weft::rt;

namespace {

TEST(SvmRegistry, FindsTheAllocationAndOffsetOfAnyPointerInside) {
  alignas(64) static char Memory[4096];
  SvmRegistry R;
  R.add(Memory + 64, 256, CL_MEM_READ_WRITE);
  R.add(Memory + 1024, 1024, CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER);
  EXPECT_EQ(R.count(), 2u);
  auto First = R.find(Memory + 64);
  ASSERT_TRUE(First);
  EXPECT_EQ(First->Alloc.Base, Memory + 64);
  EXPECT_EQ(First->Offset, 0u);
  auto Inside = R.find(Memory + 64 + 255);
  ASSERT_TRUE(Inside);
  EXPECT_EQ(Inside->Offset, 255u);
  auto Second = R.find(Memory + 1500);
  ASSERT_TRUE(Second);
  EXPECT_EQ(Second->Alloc.Base, Memory + 1024);
  EXPECT_EQ(Second->Alloc.Size, 1024u);
  EXPECT_EQ(Second->Alloc.Flags, cl_svm_mem_flags(CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER));
  EXPECT_EQ(Second->Offset, 476u);
  EXPECT_FALSE(R.find(Memory));              // before the first
  EXPECT_FALSE(R.find(Memory + 64 + 256));   // one past the first, before the second
  EXPECT_FALSE(R.find(Memory + 2048));       // one past the last
  EXPECT_FALSE(R.find(nullptr));
}

TEST(SvmRegistry, RemoveTakesOnlyABase) {
  alignas(64) static char Memory[512];
  SvmRegistry R;
  R.add(Memory, 512, CL_MEM_READ_WRITE);
  EXPECT_FALSE(R.remove(Memory + 8)) << "an inner pointer is not the allocation";
  auto Gone = R.remove(Memory);
  ASSERT_TRUE(Gone);
  EXPECT_EQ(Gone->Size, 512u);
  EXPECT_FALSE(R.find(Memory + 8));
  EXPECT_FALSE(R.remove(Memory));
  EXPECT_EQ(R.count(), 0u);
}

TEST(SvmRegistry, AllocatesAlignedMemoryAndFreesOnlyItsOwnBases) {
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
    EXPECT_FALSE(R.remove(P)) << "what allocate() made goes back through free()";
    EXPECT_TRUE(R.free(P));
    EXPECT_FALSE(R.find(P));
    EXPECT_FALSE(R.free(P)) << "freed twice";
  }
  alignas(64) static char Foreign[64];
  R.add(Foreign, sizeof(Foreign), CL_MEM_READ_WRITE);
  EXPECT_FALSE(R.free(Foreign)) << "memory the registry does not own is never freed";
  EXPECT_TRUE(R.remove(Foreign));
  // What is left is freed with the registry (the sanitizer build checks).
  EXPECT_NE(R.allocate(64, 0, CL_MEM_READ_WRITE), nullptr);
  EXPECT_EQ(R.allocate(SIZE_MAX - 8, 128, CL_MEM_READ_WRITE), nullptr);
}

TEST(SvmRegistry, LookupsRunBesideChanges) {
  static std::vector<char> Blocks(64 * 128);
  SvmRegistry R;
  R.add(Blocks.data(), 128, CL_MEM_READ_WRITE); // always there
  std::thread Writer([&] {
    for (int Round = 0; Round < 200; ++Round)
      for (int I = 1; I < 64; ++I) {
        R.add(Blocks.data() + I * 128, 128, CL_MEM_READ_WRITE);
        R.remove(Blocks.data() + I * 128);
      }
  });
  for (int I = 0; I < 20000; ++I) {
    auto L = R.find(Blocks.data() + 100);
    ASSERT_TRUE(L);
    ASSERT_EQ(L->Offset, 100u);
  }
  Writer.join();
}

} // namespace

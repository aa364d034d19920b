// The memory-object family and weak references below the API layer: a
// buffer is a MemObject of its own kind, and a WeakRef to it locks only
// while the application holds it, whatever internal references remain.
#include "runtime/memory/Buffer.h"
#include "runtime/platform/Device.h"
#include "runtime/platform/Platform.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace weft::rt;

namespace {

struct MemObjectTest : ::testing::Test {
  Device &Dev = *Platform::get().devices()[0];
  Ref<Context> Ctx = Ref<Context>::adopt(new Context({&Dev}, {}, nullptr, nullptr));
};

/// A new buffer as the application holds it (its one reference).
Buffer *newBuffer(Context &Ctx, size_t Size) {
  auto B = Buffer::create(Ctx, CL_MEM_READ_WRITE, Size, nullptr, {});
  EXPECT_TRUE(B);
  return B ? B->release() : nullptr;
}

TEST_F(MemObjectTest, ABufferIsABufferAndItsSubBufferAView) {
  Buffer *B = newBuffer(*Ctx, 1024);
  ASSERT_TRUE(B);
  MemObject &M = *B;
  EXPECT_EQ(M.type(), cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(M.as<Buffer>(), B);
  Buffer *Sub = Buffer::createSub(*B, CL_MEM_READ_WRITE, 256, 128).release();
  EXPECT_EQ(Sub->parent(), B);
  EXPECT_EQ(Sub->associated(), B);
  EXPECT_EQ(Sub->data(), B->data() + 256);
  EXPECT_EQ(Sub->offset(), 256u);
  EXPECT_TRUE(Sub->release());
  EXPECT_TRUE(B->release());
}

TEST_F(MemObjectTest, AWeakReferenceLocksOnlyWhileTheApplicationHoldsTheObject) {
  Buffer *App = newBuffer(*Ctx, 64);
  ASSERT_TRUE(App);
  Ref<Buffer> Internal(App); // a command in flight
  WeakRef<MemObject> W = App->weak();
  EXPECT_TRUE(W.named());
  EXPECT_EQ(W.lock().get(), App);
  App->retain();
  EXPECT_TRUE(App->release());
  EXPECT_TRUE(W.lock()) << "the application still holds one reference";
  EXPECT_TRUE(App->release());
  EXPECT_FALSE(W.lock()) << "released by the application, even though a command holds it";
  EXPECT_NE(Internal->data(), nullptr) << "and the command's reference keeps its memory";
  EXPECT_FALSE(WeakRef<MemObject>().named());
}

TEST_F(MemObjectTest, AWeakReferenceOutlivesItsObject) {
  Buffer *App = newBuffer(*Ctx, 64);
  ASSERT_TRUE(App);
  WeakRef<MemObject> W = App->weak();
  EXPECT_TRUE(App->release()); // the last reference: the object is gone
  EXPECT_TRUE(W.named());
  EXPECT_FALSE(W.lock());
}

} // namespace

// Device memory: small allocations at the asked alignment, large ones
// (HugeMemoryBytes and up) on 2 MiB boundaries, advised as huge pages,
// every byte usable.
TEST(AllocateMemory, LargeAllocationsLieOnHugePageBoundaries) {
  for (size_t Bytes :
       {size_t(1), size_t(4096), HugeMemoryBytes - 1, HugeMemoryBytes, HugeMemoryBytes + 12345}) {
    for (size_t Align : {size_t(128), size_t(4096)}) {
      void *P = allocateMemory(Bytes, Align);
      ASSERT_NE(P, nullptr) << Bytes;
      const uintptr_t Want = Bytes >= HugeMemoryBytes ? (size_t(2) << 20) : Align;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % Want, 0u) << Bytes << " at " << Align;
      std::memset(P, 0xA5, Bytes);
      EXPECT_EQ(static_cast<unsigned char *>(P)[Bytes - 1], 0xA5);
      std::free(P);
    }
  }
  EXPECT_EQ(allocateMemory(SIZE_MAX - 64, 128), nullptr);
}

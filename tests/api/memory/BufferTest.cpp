// Buffers and sub-buffers: every host-pointer flag (USE_HOST_PTR is
// zero-copy), read/write/copy/fill, the rectangular transfers, map/unmap
// with map counts, sub-buffer alignment and flag inheritance, lifetimes
// that outlast the application's release, destructor callbacks, and one
// negative test per error code of the memory entry points.
#include "ApiTest.h"

#include <numeric>

using namespace weft::test;

namespace {

class Buffers : public WithQueue {
protected:
  size_t subBufferAlign() {
    return info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  }
  cl_mem subBuffer(cl_mem Parent, cl_mem_flags Flags, size_t Origin, size_t Size, cl_int *Err) {
    cl_buffer_region R{Origin, Size};
    return clCreateSubBuffer(Parent, Flags, CL_BUFFER_CREATE_TYPE_REGION, &R, Err);
  }
};

std::vector<unsigned char> iota(size_t N, unsigned char Start = 0) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>(Start + I * 7);
  return V;
}

void CL_CALLBACK onMemDestroyed(cl_mem, void *Data) {
  auto *P = static_cast<std::pair<std::vector<int> *, int> *>(Data);
  P->first->push_back(P->second);
}

} // namespace

TEST_F(Buffers, LifecycleAndInfo) {
  cl_int Err;
  cl_mem M = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 256, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_mem_object_type>(clGetMemObjectInfo, M, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(info<cl_mem_flags>(clGetMemObjectInfo, M, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  EXPECT_EQ(info<size_t>(clGetMemObjectInfo, M, CL_MEM_SIZE), 256u);
  EXPECT_EQ(info<void *>(clGetMemObjectInfo, M, CL_MEM_HOST_PTR), nullptr);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(info<cl_context>(clGetMemObjectInfo, M, CL_MEM_CONTEXT), Context);
  EXPECT_EQ(info<cl_mem>(clGetMemObjectInfo, M, CL_MEM_ASSOCIATED_MEMOBJECT), nullptr);
  EXPECT_EQ(info<size_t>(clGetMemObjectInfo, M, CL_MEM_OFFSET), 0u);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, M, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  size_t Size = 99;
  EXPECT_EQ(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Size), CL_SUCCESS);
  EXPECT_EQ(Size, 0u) << "clCreateBuffer has no properties to report";

  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainMemObject(M), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
}

TEST_F(Buffers, MemObjectHandleErrors) {
  cl_mem M = buffer(64);
  cl_mem NotMem = wrongHandle<cl_mem>(Queue);
  cl_uint V;
  EXPECT_EQ(clRetainMemObject(NotMem), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clReleaseMemObject(NotMem), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clGetMemObjectInfo(NotMem, CL_MEM_SIZE, sizeof(V), &V, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clGetMemObjectInfo(M, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(M, CL_MEM_SIZE, 1, &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetMemObjectDestructorCallback(NotMem, onMemDestroyed, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetMemObjectDestructorCallback(M, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_F(Buffers, CreateBufferErrors) {
  cl_int Err = CL_SUCCESS;
  char Host[64];
  auto Fails = [&](cl_mem_flags Flags, size_t Size, void *Ptr, cl_int Want) {
    cl_mem M = clCreateBuffer(Context, Flags, Size, Ptr, &Err);
    EXPECT_EQ(M, nullptr);
    EXPECT_EQ(Err, Want) << "flags " << Flags << " size " << Size;
    if (M)
      clReleaseMemObject(M);
  };
  Fails(cl_mem_flags(1) << 40, 64, nullptr, CL_INVALID_VALUE);
  Fails(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE);
  Fails(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, nullptr, CL_INVALID_VALUE);
  Fails(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE);
  Fails(CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, 64, nullptr, CL_INVALID_VALUE);
  Fails(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, Host, CL_INVALID_VALUE);
  Fails(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, Host, CL_INVALID_VALUE);
  Fails(CL_MEM_READ_WRITE, 0, nullptr, CL_INVALID_BUFFER_SIZE);
  cl_ulong Max = info<cl_ulong>(clGetDeviceInfo, Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  Fails(CL_MEM_READ_WRITE, size_t(Max) + 1, nullptr, CL_INVALID_BUFFER_SIZE);
  Fails(CL_MEM_USE_HOST_PTR, 64, nullptr, CL_INVALID_HOST_PTR);
  Fails(CL_MEM_COPY_HOST_PTR, 64, nullptr, CL_INVALID_HOST_PTR);
  Fails(CL_MEM_READ_WRITE, 64, Host, CL_INVALID_HOST_PTR);

  EXPECT_EQ(clCreateBuffer(wrongHandle<cl_context>(Queue), CL_MEM_READ_WRITE, 64, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);

  cl_mem_properties Unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateBufferWithProperties(Context, Unknown, CL_MEM_READ_WRITE, 64, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROPERTY);
}

TEST_F(Buffers, CreateBufferWithEmptyProperties) {
  cl_mem_properties Empty[] = {0};
  cl_int Err;
  cl_mem M = clCreateBufferWithProperties(Context, Empty, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  size_t Size = 0;
  ASSERT_EQ(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Size), CL_SUCCESS);
  EXPECT_EQ(Size, sizeof(cl_mem_properties));
  EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
}

TEST_F(Buffers, UseHostPtrIsZeroCopy) {
  alignas(64) unsigned char Host[256];
  std::vector<unsigned char> Init = iota(sizeof(Host));
  std::memcpy(Host, Init.data(), sizeof(Host));
  cl_mem M = buffer(sizeof(Host), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Host);
  EXPECT_EQ(info<void *>(clGetMemObjectInfo, M, CL_MEM_HOST_PTR), static_cast<void *>(Host));
  cl_int Err;
  for (size_t Offset : {size_t(0), size_t(1), size_t(100)}) {
    void *P = clEnqueueMapBuffer(Queue, M, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, Offset, 16, 0,
                                 nullptr, nullptr, &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
    EXPECT_EQ(P, static_cast<void *>(Host + Offset));
    ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, P, 0, nullptr, nullptr), CL_SUCCESS);
  }
  // A kernel-side write (here a device fill) lands in the host's memory.
  unsigned char Pattern = 0xAB;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, M, &Pattern, 1, 8, 8, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  void *P = clEnqueueMapBuffer(Queue, M, CL_TRUE, CL_MAP_READ, 0, sizeof(Host), 0, nullptr, nullptr,
                               &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  for (size_t I = 0; I < sizeof(Host); ++I)
    ASSERT_EQ(Host[I], I >= 8 && I < 16 ? 0xAB : Init[I]) << I;
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, P, 0, nullptr, nullptr), CL_SUCCESS);
}

TEST_F(Buffers, CopyAndAllocHostPtr) {
  std::vector<unsigned char> Host = iota(128, 3);
  const std::vector<unsigned char> Want = Host;
  cl_mem Copy = buffer(Host.size(), CL_MEM_COPY_HOST_PTR, Host.data());
  cl_mem Both = buffer(Host.size(), CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, Host.data());
  cl_mem Alloc = buffer(Host.size(), CL_MEM_ALLOC_HOST_PTR);
  // The host array is not used after creation.
  std::fill(Host.begin(), Host.end(), 0);
  EXPECT_EQ(read<unsigned char>(Copy, Want.size()), Want);
  EXPECT_EQ(read<unsigned char>(Both, Want.size()), Want);
  EXPECT_EQ(info<void *>(clGetMemObjectInfo, Copy, CL_MEM_HOST_PTR), nullptr)
      << "CL_MEM_HOST_PTR is only for CL_MEM_USE_HOST_PTR";
  ASSERT_EQ(
      clEnqueueWriteBuffer(Queue, Alloc, CL_TRUE, 0, Want.size(), Want.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(Alloc, Want.size()), Want);
}

TEST_F(Buffers, ReadWriteCopyWithOffsets) {
  const size_t N = 1000;
  std::vector<unsigned char> Data = iota(N, 1);
  cl_mem A = buffer(N), B = buffer(N);
  cl_event W;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, A, CL_FALSE, 0, N, Data.data(), 0, nullptr, &W),
            CL_SUCCESS);
  std::vector<unsigned char> Zero(N, 0);
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, B, CL_TRUE, 0, N, Zero.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(Queue, A, B, 10, 500, 300, 1, &W, nullptr), CL_SUCCESS);
  std::vector<unsigned char> Part(200);
  ASSERT_EQ(clEnqueueReadBuffer(Queue, B, CL_TRUE, 550, 200, Part.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t I = 0; I < Part.size(); ++I)
    ASSERT_EQ(Part[I], Data[10 + 50 + I]) << I;
  auto All = read<unsigned char>(B, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(All[I], I >= 500 && I < 800 ? Data[I - 490] : 0) << I;
  // Copy within one buffer, regions disjoint.
  ASSERT_EQ(clEnqueueCopyBuffer(Queue, A, A, 0, 600, 300, 0, nullptr, nullptr), CL_SUCCESS);
  All = read<unsigned char>(A, N);
  for (size_t I = 600; I < 900; ++I)
    ASSERT_EQ(All[I], Data[I - 600]) << I;
  EXPECT_EQ(clReleaseEvent(W), CL_SUCCESS);
}

TEST_F(Buffers, FillEveryPatternSize) {
  // Long enough that a fill spans several of the runtime's 4 KiB blocks and
  // ends inside one.
  const size_t N = 3 * 4096 + 640;
  cl_mem M = buffer(N);
  auto Fill = [&](const std::vector<unsigned char> &Pattern, size_t Offset, size_t Size) {
    std::vector<unsigned char> Base = iota(N, 200);
    ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, N, Base.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> Copy = Pattern;
    ASSERT_EQ(clEnqueueFillBuffer(Queue, M, Copy.data(), Copy.size(), Offset, Size, 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    // The pattern is copied at enqueue time.
    std::fill(Copy.begin(), Copy.end(), 0);
    std::vector<unsigned char> Want = Base;
    for (size_t I = 0; I < Size; ++I)
      Want[Offset + I] = Pattern[I % Pattern.size()];
    ASSERT_EQ(read<unsigned char>(M, N), Want);
  };
  for (size_t PatternSize = 1; PatternSize <= 128; PatternSize *= 2) {
    SCOPED_TRACE(PatternSize);
    std::vector<unsigned char> Pattern = iota(PatternSize, static_cast<unsigned char>(PatternSize));
    Fill(Pattern, PatternSize, 3 * PatternSize);
    Fill(Pattern, PatternSize, N - 2 * PatternSize);
    // One byte repeated, whatever the pattern's size.
    Fill(std::vector<unsigned char>(PatternSize, 0xa5), PatternSize, N - 2 * PatternSize);
  }
}

// Transfers, copies and fills of megabytes run in parts side by side
// (PoolCommand::parts): every byte lands once, at odd offsets and sizes
// that end inside a part's 4 KiB grain, and the events' profiling times
// keep their order.
TEST_F(Buffers, MegabyteTransfersCopiesAndFillsInParts) {
  const size_t N = (9u << 20) + 4096 * 3 + 77;
  const size_t Off = 4096 + 13, Size = N - Off - 1000;
  std::vector<unsigned char> Data = iota(N, 3);
  cl_mem A = buffer(N), B = buffer(N);
  cl_command_queue Profiled =
      clCreateCommandQueue(Context, Device, CL_QUEUE_PROFILING_ENABLE, nullptr);
  ASSERT_NE(Profiled, nullptr);
  cl_event Events[4];
  ASSERT_EQ(clEnqueueWriteBuffer(Profiled, A, CL_FALSE, 0, N, Data.data(), 0, nullptr, &Events[0]),
            CL_SUCCESS);
  std::vector<unsigned char> Zero(N, 0);
  ASSERT_EQ(clEnqueueWriteBuffer(Profiled, B, CL_FALSE, 0, N, Zero.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(Profiled, A, B, Off, Off + 7, Size - 7, 0, nullptr, &Events[1]),
            CL_SUCCESS);
  std::vector<unsigned char> Got(N, 0xee);
  ASSERT_EQ(clEnqueueReadBuffer(Profiled, B, CL_FALSE, 0, N, Got.data(), 0, nullptr, &Events[2]),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(Profiled), CL_SUCCESS);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], I >= Off + 7 && I < Off + Size ? Data[I - 7] : 0) << I;

  const cl_uint Pattern = 0x01020304; // bytes 4, 3, 2, 1
  const size_t FillAt = 4096 + 12, FillSize = (N - FillAt - 20) / 4 * 4;
  ASSERT_EQ(clEnqueueFillBuffer(Profiled, B, &Pattern, sizeof(Pattern), FillAt, FillSize, 0,
                                nullptr, &Events[3]),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(Profiled), CL_SUCCESS);
  auto Filled = read<unsigned char>(B, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Filled[I], I >= FillAt && I < FillAt + FillSize ? 4 - (I - FillAt) % 4 : Got[I]) << I;

  for (cl_event E : Events) {
    cl_ulong Queued = 0, Submit = 0, Start = 0, End = 0;
    ASSERT_EQ(
        clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_QUEUED, sizeof(Queued), &Queued, nullptr),
        CL_SUCCESS);
    ASSERT_EQ(
        clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_SUBMIT, sizeof(Submit), &Submit, nullptr),
        CL_SUCCESS);
    ASSERT_EQ(
        clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_START, sizeof(Start), &Start, nullptr),
        CL_SUCCESS);
    ASSERT_EQ(clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr),
              CL_SUCCESS);
    EXPECT_LE(Queued, Submit);
    EXPECT_LE(Submit, Start);
    EXPECT_LE(Start, End);
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
  }
  EXPECT_EQ(clReleaseCommandQueue(Profiled), CL_SUCCESS);
}

TEST_F(Buffers, FillErrors) {
  cl_mem M = buffer(256);
  int Pattern = 0;
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, nullptr, 4, 0, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, &Pattern, 0, 0, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, &Pattern, 3, 0, 12, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  char Big[256] = {};
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, Big, 256, 0, 256, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, &Pattern, 4, 2, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, &Pattern, 4, 0, 6, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(Queue, M, &Pattern, 4, 252, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(Queue, wrongHandle<cl_mem>(Context), &Pattern, 4, 0, 8, 0, nullptr,
                                nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueFillBuffer(wrongHandle<cl_command_queue>(M), M, &Pattern, 4, 0, 8, 0, nullptr,
                                nullptr),
            CL_INVALID_COMMAND_QUEUE);
}

TEST_F(Buffers, ReadWriteErrors) {
  cl_mem M = buffer(64);
  char Host[128];
  EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 65, Host, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, 60, 8, Host, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, SIZE_MAX, 2, Host, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 32, 33, Host, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, wrongHandle<cl_mem>(Queue), CL_TRUE, 0, 8, Host, 0, nullptr,
                                nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueWriteBuffer(wrongHandle<cl_command_queue>(Context), M, CL_TRUE, 0, 8, Host, 0,
                                 nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
}

TEST_F(Buffers, HostAccessFlagsAreEnforced) {
  char Host[16] = {};
  cl_int Err;
  cl_mem WriteOnly = buffer(16, CL_MEM_HOST_WRITE_ONLY);
  cl_mem ReadOnly = buffer(16, CL_MEM_HOST_READ_ONLY);
  cl_mem NoAccess = buffer(16, CL_MEM_HOST_NO_ACCESS);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {4, 1, 1};

  EXPECT_EQ(clEnqueueReadBuffer(Queue, WriteOnly, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, NoAccess, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, ReadOnly, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, NoAccess, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueReadBufferRect(Queue, WriteOnly, CL_TRUE, Origin, Origin, Region, 0, 0, 0, 0,
                                    Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBufferRect(Queue, ReadOnly, CL_TRUE, Origin, Origin, Region, 0, 0, 0, 0,
                                     Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(
      clEnqueueMapBuffer(Queue, WriteOnly, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Err),
      nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(
      clEnqueueMapBuffer(Queue, ReadOnly, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, nullptr, nullptr, &Err),
      nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueMapBuffer(Queue, ReadOnly, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0,
                               nullptr, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(
      clEnqueueMapBuffer(Queue, NoAccess, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &Err),
      nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, ReadOnly, CL_MEM_MAP_COUNT), 0u);

  // What the flags allow still works.
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, WriteOnly, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, ReadOnly, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_SUCCESS);
  int Pattern = 1;
  EXPECT_EQ(clEnqueueFillBuffer(Queue, NoAccess, &Pattern, 4, 0, 16, 0, nullptr, nullptr),
            CL_SUCCESS);
}

TEST_F(Buffers, CopyErrors) {
  cl_mem A = buffer(256), B = buffer(256);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, A, 0, 100, 101, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, A, 100, 0, 101, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, A, 8, 8, 1, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, B, 0, 200, 57, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, B, 200, 0, 57, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, B, 0, 0, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, wrongHandle<cl_mem>(Queue), 0, 0, 4, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(
      clEnqueueCopyBuffer(Queue, wrongHandle<cl_mem>(Device), B, 0, 0, 4, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);

  // A buffer of another context.
  cl_int Err;
  cl_context Other = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Foreign = clCreateBuffer(Other, CL_MEM_READ_WRITE, 256, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, A, Foreign, 0, 0, 4, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  char Host[4];
  EXPECT_EQ(clEnqueueReadBuffer(Queue, Foreign, CL_TRUE, 0, 4, Host, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clReleaseMemObject(Foreign), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(Other), CL_SUCCESS);

  // Two sub-buffers of one buffer whose ranges overlap.
  size_t Align = subBufferAlign();
  cl_mem Parent = buffer(4 * Align);
  cl_mem S0 = subBuffer(Parent, 0, 0, 2 * Align, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem S1 = subBuffer(Parent, 0, Align, 2 * Align, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, S0, S1, Align, 0, 16, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  // ... and disjoint parts of them.
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, S0, S1, 0, Align, 16, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(S0), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(S1), CL_SUCCESS);
}

TEST_F(Buffers, RectReadWriteCopy) {
  // A 3-D box of 16 x 8 x 4 bytes stored with row pitch 20 and slice pitch 200.
  const size_t RowPitch = 20, SlicePitch = 200, Size = 4 * SlicePitch;
  cl_mem M = buffer(Size);
  std::vector<unsigned char> Zero(Size, 0);
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, Size, Zero.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  // Host: 10 x 10 x 10 bytes, dense.
  std::vector<unsigned char> Host = iota(1000, 1);
  size_t BufOrigin[3] = {2, 1, 0}, HostOrigin[3] = {1, 2, 3}, Region[3] = {5, 3, 2};
  ASSERT_EQ(clEnqueueWriteBufferRect(Queue, M, CL_TRUE, BufOrigin, HostOrigin, Region, RowPitch,
                                     SlicePitch, 10, 100, Host.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> Want(Size, 0);
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      for (size_t X = 0; X < Region[0]; ++X)
        Want[(BufOrigin[2] + Z) * SlicePitch + (BufOrigin[1] + Y) * RowPitch + BufOrigin[0] + X] =
            Host[(HostOrigin[2] + Z) * 100 + (HostOrigin[1] + Y) * 10 + HostOrigin[0] + X];
  EXPECT_EQ(read<unsigned char>(M, Size), Want);

  // Read it back into a differently shaped host box (default pitches).
  std::vector<unsigned char> Back(5 * 3 * 2, 0);
  size_t Zero3[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueReadBufferRect(Queue, M, CL_TRUE, BufOrigin, Zero3, Region, RowPitch,
                                    SlicePitch, 0, 0, Back.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 3; ++Y)
      for (size_t X = 0; X < 5; ++X)
        ASSERT_EQ(Back[Z * 15 + Y * 5 + X],
                  Host[(HostOrigin[2] + Z) * 100 + (HostOrigin[1] + Y) * 10 + HostOrigin[0] + X]);

  // Copy the box to another buffer at another place and pitch.
  cl_mem D = buffer(512);
  std::vector<unsigned char> DZero(512, 0);
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, D, CL_TRUE, 0, 512, DZero.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  size_t DstOrigin[3] = {3, 0, 1};
  ASSERT_EQ(clEnqueueCopyBufferRect(Queue, M, D, BufOrigin, DstOrigin, Region, RowPitch, SlicePitch,
                                    8, 64, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<unsigned char>(D, 512);
  std::vector<unsigned char> DWant(512, 0);
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 3; ++Y)
      for (size_t X = 0; X < 5; ++X)
        DWant[(DstOrigin[2] + Z) * 64 + (DstOrigin[1] + Y) * 8 + DstOrigin[0] + X] =
            Want[(BufOrigin[2] + Z) * SlicePitch + (BufOrigin[1] + Y) * RowPitch + BufOrigin[0] +
                 X];
  EXPECT_EQ(Got, DWant);
}

TEST_F(Buffers, RectErrors) {
  cl_mem M = buffer(256);
  char Host[1024];
  size_t O[3] = {0, 0, 0};
  auto Read = [&](const size_t *BO, const size_t *HO, const size_t *R, size_t BRP, size_t BSP,
                  void *Ptr = nullptr) {
    return clEnqueueReadBufferRect(Queue, M, CL_TRUE, BO, HO, R, BRP, BSP, 0, 0, Ptr ? Ptr : Host,
                                   0, nullptr, nullptr);
  };
  size_t R[3] = {4, 4, 1};
  EXPECT_EQ(Read(nullptr, O, R, 0, 0), CL_INVALID_VALUE);
  EXPECT_EQ(Read(O, nullptr, R, 0, 0), CL_INVALID_VALUE);
  EXPECT_EQ(Read(O, O, nullptr, 0, 0), CL_INVALID_VALUE);
  size_t ZeroRegion[3] = {4, 0, 1};
  EXPECT_EQ(Read(O, O, ZeroRegion, 0, 0), CL_INVALID_VALUE);
  // Row pitch smaller than region[0].
  EXPECT_EQ(Read(O, O, R, 3, 0), CL_INVALID_VALUE);
  // Slice pitch smaller than region[1] * row pitch.
  size_t R3[3] = {4, 4, 2};
  EXPECT_EQ(Read(O, O, R3, 8, 16), CL_INVALID_VALUE);
  // Regression: a slice pitch that is not a multiple of the row pitch
  // (given, or region[0] for 0) was accepted; every rect command refuses it.
  EXPECT_EQ(Read(O, O, R3, 8, 36), CL_INVALID_VALUE);
  EXPECT_EQ(Read(O, O, R3, 0, 18), CL_INVALID_VALUE);
  EXPECT_EQ(Read(O, O, R3, 8, 40), CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBufferRect(Queue, M, CL_TRUE, O, O, R3, 0, 0, 8, 36, Host, 0, nullptr,
                                    nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBufferRect(Queue, M, CL_TRUE, O, O, R3, 8, 36, 0, 0, Host, 0, nullptr,
                                     nullptr),
            CL_INVALID_VALUE);
  {
    cl_mem To = buffer(256);
    EXPECT_EQ(clEnqueueCopyBufferRect(Queue, M, To, O, O, R3, 8, 36, 8, 40, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    EXPECT_EQ(clEnqueueCopyBufferRect(Queue, M, To, O, O, R3, 8, 40, 8, 36, 0, nullptr, nullptr),
              CL_INVALID_VALUE);
  }
  // Out of bounds: the last row ends past the buffer.
  size_t Far[3] = {0, 15, 0};
  EXPECT_EQ(Read(Far, O, R, 16, 0), CL_INVALID_VALUE);
  size_t Big[3] = {257, 1, 1};
  EXPECT_EQ(Read(O, O, Big, 0, 0), CL_INVALID_VALUE);
  // Origins so large that the offset computation wraps around.
  size_t Wrap[3] = {SIZE_MAX, 0, 0};
  size_t R1[3] = {2, 1, 1};
  EXPECT_EQ(Read(Wrap, O, R1, 0, 0), CL_INVALID_VALUE);
  size_t WrapY[3] = {0, SIZE_MAX / 4 + 1, 0};
  EXPECT_EQ(Read(WrapY, O, R, 4, 0), CL_INVALID_VALUE);
  EXPECT_EQ(
      clEnqueueReadBufferRect(Queue, M, CL_TRUE, O, O, R, 0, 0, 0, 0, nullptr, 0, nullptr, nullptr),
      CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBufferRect(Queue, M, CL_TRUE, Far, O, R, 16, 0, 0, 0, Host, 0, nullptr,
                                     nullptr),
            CL_INVALID_VALUE);

  // Copies: out of bounds, overlap inside one buffer.
  cl_mem D = buffer(64);
  EXPECT_EQ(clEnqueueCopyBufferRect(Queue, M, D, O, Far, R, 16, 0, 16, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  size_t Src[3] = {0, 0, 0}, Dst[3] = {2, 2, 0};
  EXPECT_EQ(clEnqueueCopyBufferRect(Queue, M, M, Src, Dst, R, 16, 64, 16, 64, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueCopyBufferRect(Queue, M, wrongHandle<cl_mem>(Queue), Src, Dst, R, 16, 64, 16,
                                    64, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST_F(Buffers, CopyRectInterleavedRowsDoNotOverlap) {
  // Rows 0..3 of columns 0..3 and of columns 8..11 of one 16-byte-pitch
  // buffer: the bounding ranges overlap, the rectangles do not.
  cl_mem M = buffer(64);
  std::vector<unsigned char> Data = iota(64);
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, 64, Data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  size_t Src[3] = {0, 0, 0}, Dst[3] = {8, 0, 0}, R[3] = {4, 4, 1};
  ASSERT_EQ(clEnqueueCopyBufferRect(Queue, M, M, Src, Dst, R, 16, 64, 16, 64, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<unsigned char>(M, 64);
  for (size_t Y = 0; Y < 4; ++Y)
    for (size_t X = 0; X < 16; ++X)
      ASSERT_EQ(Got[Y * 16 + X], X >= 8 && X < 12 ? Data[Y * 16 + X - 8] : Data[Y * 16 + X]);
}

TEST_F(Buffers, MapUnmapAndMapCount) {
  const size_t N = 64;
  cl_mem M = buffer(N * sizeof(int));
  cl_int Err;
  int *P = static_cast<int *>(clEnqueueMapBuffer(Queue, M, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                 0, N * sizeof(int), 0, nullptr, nullptr, &Err));
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 1u);
  std::iota(P, P + N, 100);
  cl_event MapEv;
  int *Q = static_cast<int *>(
      clEnqueueMapBuffer(Queue, M, CL_FALSE, CL_MAP_READ, 16, 8, 0, nullptr, &MapEv, &Err));
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &MapEv), CL_SUCCESS);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, MapEv, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_MAP_BUFFER));
  EXPECT_EQ(clReleaseEvent(MapEv), CL_SUCCESS);
  EXPECT_EQ(Q[0], 104);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 2u);
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, P, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 1u);
  // A pointer that is no longer (or never was) mapped.
  EXPECT_EQ(clEnqueueUnmapMemObject(Queue, M, P, 0, nullptr, nullptr), CL_INVALID_VALUE);
  int Local;
  EXPECT_EQ(clEnqueueUnmapMemObject(Queue, M, &Local, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueUnmapMemObject(Queue, M, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, Q, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 0u);
  // What was written through the map is the buffer's content.
  auto Got = read<int>(M, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], int(100 + I));
}

TEST_F(Buffers, MapErrors) {
  cl_mem M = buffer(64);
  cl_int Err;
  auto Map = [&](cl_map_flags Flags, size_t Off, size_t Size) {
    return clEnqueueMapBuffer(Queue, M, CL_TRUE, Flags, Off, Size, 0, nullptr, nullptr, &Err);
  };
  EXPECT_EQ(Map(CL_MAP_READ, 0, 0), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(Map(CL_MAP_READ, 60, 8), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(Map(cl_map_flags(1) << 20, 0, 8), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(Map(CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 8), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMapBuffer(Queue, wrongHandle<cl_mem>(Queue), CL_TRUE, CL_MAP_READ, 0, 8, 0,
                               nullptr, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueUnmapMemObject(Queue, wrongHandle<cl_mem>(Queue), &Err, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 0u);
}

TEST_F(Buffers, FailedBlockingMapLeavesNoMapping) {
  cl_mem M = buffer(64);
  cl_int Err;
  cl_event User = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(User, -1), CL_SUCCESS);
  void *P = clEnqueueMapBuffer(Queue, M, CL_TRUE, CL_MAP_READ, 0, 8, 1, &User, nullptr, &Err);
  EXPECT_EQ(Err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(P, nullptr);
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 0u)
      << "a map that returned an error must not count as a mapping";
  EXPECT_EQ(clReleaseEvent(User), CL_SUCCESS);
}

TEST_F(Buffers, SubBuffers) {
  const size_t Align = subBufferAlign();
  ASSERT_GE(Align, 1u);
  const size_t N = 4 * Align;
  cl_mem Parent = buffer(N, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY);
  std::vector<unsigned char> Zero(N, 0);
  int Zero4 = 0;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, Parent, &Zero4, 4, 0, N, 0, nullptr, nullptr), CL_SUCCESS);
  cl_int Err;
  cl_mem Sub = subBuffer(Parent, 0, Align, 2 * Align, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  // Unspecified flags are inherited.
  EXPECT_EQ(info<cl_mem_flags>(clGetMemObjectInfo, Sub, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(info<cl_mem>(clGetMemObjectInfo, Sub, CL_MEM_ASSOCIATED_MEMOBJECT), Parent);
  EXPECT_EQ(info<size_t>(clGetMemObjectInfo, Sub, CL_MEM_OFFSET), Align);
  EXPECT_EQ(info<size_t>(clGetMemObjectInfo, Sub, CL_MEM_SIZE), 2 * Align);
  // The parent's host-access rule binds the sub-buffer too.
  char Host[8] = {};
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, Sub, CL_TRUE, 0, 8, Host, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  // Data written through the sub-buffer (a device fill) is visible in the parent.
  unsigned char Pattern = 0x5A;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, Sub, &Pattern, 1, 4, 8, 0, nullptr, nullptr), CL_SUCCESS);
  auto Got = read<unsigned char>(Parent, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], I >= Align + 4 && I < Align + 12 ? 0x5A : 0) << I;
  EXPECT_EQ(clReleaseMemObject(Sub), CL_SUCCESS);
}

TEST_F(Buffers, SubBufferOutlivesParentRelease) {
  const size_t Align = subBufferAlign();
  cl_int Err;
  cl_mem Parent = clCreateBuffer(Context, CL_MEM_READ_WRITE, 2 * Align, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Sub = subBuffer(Parent, CL_MEM_WRITE_ONLY, Align, Align, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_mem_flags>(clGetMemObjectInfo, Sub, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_WRITE_ONLY));
  ASSERT_EQ(clReleaseMemObject(Parent), CL_SUCCESS);
  std::vector<unsigned char> Data = iota(Align);
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, Sub, CL_TRUE, 0, Align, Data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(Sub, Align), Data);
  EXPECT_EQ(clReleaseMemObject(Sub), CL_SUCCESS);
}

TEST_F(Buffers, SubBufferOfUseHostPtr) {
  const size_t Align = subBufferAlign();
  std::vector<unsigned char> Host(3 * Align);
  cl_mem Parent = buffer(Host.size(), CL_MEM_USE_HOST_PTR, Host.data());
  cl_int Err;
  cl_mem Sub = subBuffer(Parent, 0, Align, Align, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_TRUE(info<cl_mem_flags>(clGetMemObjectInfo, Sub, CL_MEM_FLAGS) & CL_MEM_USE_HOST_PTR);
  EXPECT_EQ(info<void *>(clGetMemObjectInfo, Sub, CL_MEM_HOST_PTR),
            static_cast<void *>(Host.data() + Align));
  void *P = clEnqueueMapBuffer(Queue, Sub, CL_TRUE, CL_MAP_READ, 8, 8, 0, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(P, static_cast<void *>(Host.data() + Align + 8));
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, Sub, P, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(Sub), CL_SUCCESS);
}

TEST_F(Buffers, SubBufferErrors) {
  const size_t Align = subBufferAlign();
  cl_mem Parent = buffer(4 * Align, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
  cl_int Err = CL_SUCCESS;
  auto Fails = [&](cl_mem P, cl_mem_flags Flags, size_t Origin, size_t Size, cl_int Want) {
    cl_mem S = subBuffer(P, Flags, Origin, Size, &Err);
    EXPECT_EQ(S, nullptr);
    EXPECT_EQ(Err, Want) << "flags " << Flags << " origin " << Origin << " size " << Size;
    if (S)
      clReleaseMemObject(S);
  };
  if (Align > 1)
    Fails(Parent, 0, Align / 2, 16, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  Fails(Parent, 0, 0, 0, CL_INVALID_BUFFER_SIZE);
  Fails(Parent, 0, 3 * Align, 2 * Align, CL_INVALID_VALUE);
  Fails(Parent, 0, SIZE_MAX - Align + 1, 2 * Align, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_USE_HOST_PTR, 0, 16, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_COPY_HOST_PTR, 0, 16, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_READ_WRITE, 0, 16, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_READ_ONLY, 0, 16, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_HOST_READ_ONLY, 0, 16, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_HOST_WRITE_ONLY, 0, 16, CL_INVALID_VALUE);
  Fails(Parent, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, 16, CL_INVALID_VALUE);
  Fails(wrongHandle<cl_mem>(Queue), 0, 0, 16, CL_INVALID_MEM_OBJECT);

  cl_mem Sub = subBuffer(Parent, 0, 0, 2 * Align, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  // A sub-buffer of a sub-buffer.
  Fails(Sub, 0, 0, 16, CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clReleaseMemObject(Sub), CL_SUCCESS);

  cl_buffer_region R{0, 16};
  EXPECT_EQ(clCreateSubBuffer(Parent, 0, 0x7777, &R, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubBuffer(Parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);

  cl_mem ReadOnlyParent = buffer(2 * Align, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY);
  Fails(ReadOnlyParent, CL_MEM_WRITE_ONLY, 0, 16, CL_INVALID_VALUE);
  Fails(ReadOnlyParent, CL_MEM_HOST_WRITE_ONLY, 0, 16, CL_INVALID_VALUE);
  cl_mem HostWriteParent = buffer(2 * Align, CL_MEM_HOST_WRITE_ONLY);
  Fails(HostWriteParent, CL_MEM_HOST_READ_ONLY, 0, 16, CL_INVALID_VALUE);
}

TEST_F(Buffers, ReleaseRightAfterNonBlockingEnqueue) {
  // The command holds the buffers: releasing them at once is safe and the
  // copy still produces the right data.
  const size_t N = 1 << 16;
  std::vector<unsigned char> Data = iota(N, 9);
  cl_int Err;
  cl_event Gate = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Src = clCreateBuffer(Context, CL_MEM_COPY_HOST_PTR, N, Data.data(), &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Dst = buffer(N);
  std::vector<int> Destroyed;
  std::pair<std::vector<int> *, int> Cb{&Destroyed, 1};
  ASSERT_EQ(clSetMemObjectDestructorCallback(Src, onMemDestroyed, &Cb), CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(Queue, Src, Dst, 0, 0, N, 1, &Gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(Src), CL_SUCCESS);
  EXPECT_TRUE(Destroyed.empty()) << "the buffer died while a queued command used it";
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(read<unsigned char>(Dst, N), Data);
  EXPECT_EQ(clReleaseEvent(Gate), CL_SUCCESS);
}

TEST_F(Buffers, DestructorCallbacksRunInReverseOrder) {
  cl_int Err;
  cl_mem M = clCreateBuffer(Context, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  std::vector<int> Order;
  std::pair<std::vector<int> *, int> Data[] = {{&Order, 1}, {&Order, 2}, {&Order, 3}};
  for (auto &D : Data)
    ASSERT_EQ(clSetMemObjectDestructorCallback(M, onMemDestroyed, &D), CL_SUCCESS);
  ASSERT_EQ(clRetainMemObject(M), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  EXPECT_TRUE(Order.empty());
  ASSERT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  EXPECT_EQ(Order, (std::vector<int>{3, 2, 1}));
}

TEST_F(Buffers, MigrateMemObjects) {
  cl_mem M = buffer(64);
  cl_event E;
  ASSERT_EQ(clEnqueueMigrateMemObjects(Queue, 1, &M, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, &E),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, E, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_MIGRATE_MEM_OBJECTS));
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMigrateMemObjects(Queue, 0, &M, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(Queue, 1, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(Queue, 1, &M, cl_mem_migration_flags(1) << 10, 0, nullptr,
                                       nullptr),
            CL_INVALID_VALUE);
  cl_mem NotMem = wrongHandle<cl_mem>(Queue);
  EXPECT_EQ(clEnqueueMigrateMemObjects(Queue, 1, &NotMem, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST_F(Buffers, KernelArgumentDoesNotKeepBufferAlive) {
  // Regression (CTS api/retain_mem_object_set_kernel_arg): releasing a
  // buffer that is only set as a kernel argument destroys it at once.
  static int Destroyed;
  Destroyed = 0;
  cl_int Err;
  cl_mem B = clCreateBuffer(Context, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clSetMemObjectDestructorCallback(
                B, [](cl_mem, void *) { ++Destroyed; }, nullptr),
            CL_SUCCESS);
  cl_kernel K = kernel("__kernel void k(__global int *p) { p[0] = 1; }", "k");
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &B), CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(B), CL_SUCCESS);
  EXPECT_EQ(Destroyed, 1);
}

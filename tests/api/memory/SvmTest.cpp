// Shared virtual memory through the ICD loader: clSVMAlloc/clSVMFree with
// every flag and alignment rule, each clEnqueueSVM* command with its events
// and error list, SVM kernel arguments (pointers into allocations, and any
// host pointer under fine-grained system SVM), clSetKernelExecInfo, and
// buffers made on SVM pointers. The memory-model tests (host and kernel
// running at the same time) are in SvmConcurrencyTest.cpp.
#include "ApiTest.h"

#include <cstdlib>
#include <numeric>

using namespace weft::test;

namespace {

class Svm : public WithSvm {
protected:
  cl_command_type typeOf(cl_event E) {
    return info<cl_command_type>(clGetEventInfo, E, CL_EVENT_COMMAND_TYPE);
  }
  /// Copies N ints host -> SVM -> SVM -> host, and host -> host.
  void copyEveryWay(size_t N);
};

/// Kernels over SVM pointers: a copy with an offset, and a walk along a
/// linked list whose nodes the host built.
const char *SvmKernels = R"CLC(
__kernel void scale(__global const int *in, __global int *out, int factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}
typedef struct Node { int value; __global struct Node *next; } Node;
__kernel void walk(__global const Node *head, __global long *sum) {
  long s = 0;
  for (__global const Node *n = head; n; n = n->next)
    s += n->value;
  *sum = s;
}
__kernel void is_null(__global const int *p, __global int *out) { *out = p == 0; }
)CLC";

} // namespace

TEST_F(Svm, DeviceReportsEveryKindOfSvm) {
  auto Caps =
      info<cl_device_svm_capabilities>(clGetDeviceInfo, Device, CL_DEVICE_SVM_CAPABILITIES);
  EXPECT_EQ(Caps, cl_device_svm_capabilities(
                      CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                      CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS));
  // SVM atomics need the scope that reaches the host.
  auto Atomics = info<cl_device_atomic_capabilities>(clGetDeviceInfo, Device,
                                                     CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  EXPECT_TRUE(Atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
}

TEST_F(Svm, AllocWithEveryValidFlagCombinationAndAlignment) {
  const cl_svm_mem_flags Access[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
  const cl_svm_mem_flags Kinds[] = {0, CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                    CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS};
  for (cl_svm_mem_flags A : Access)
    for (cl_svm_mem_flags K : Kinds)
      for (cl_uint Align : {0u, 1u, 2u, 64u, 128u, 4096u}) {
        char *P = alloc(1000, A | K, Align);
        ASSERT_NE(P, nullptr) << A << " " << K << " " << Align;
        // 0 is the largest OpenCL C type's alignment (long16).
        EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % std::max(Align, 128u), 0u);
        P[0] = 1;
        P[999] = 2; // all of it is host memory
      }
}

TEST_F(Svm, AllocReturnsNullForEveryInvalidRequest) {
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(wrongHandle<cl_context>(Queue), CL_MEM_READ_WRITE, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_SVM_ATOMICS, 64, 0), nullptr)
      << "CL_MEM_SVM_ATOMICS needs CL_MEM_SVM_FINE_GRAIN_BUFFER";
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_USE_HOST_PTR, 64, 0), nullptr) << "not an SVM flag";
  EXPECT_EQ(clSVMAlloc(Context, cl_svm_mem_flags(1) << 40, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, 0, 0), nullptr);
  auto MaxAlloc = info<cl_ulong>(clGetDeviceInfo, Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, size_t(MaxAlloc) + 1, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, 64, 3), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, 64, 96), nullptr);
  // clSVMFree: NULL is a no-op; so is a bad context, or a pointer that is
  // not an allocation (undefined by the specification: no crash here).
  clSVMFree(Context, nullptr);
  clSVMFree(nullptr, nullptr);
  int NotSvm;
  clSVMFree(Context, &NotSvm);
  char *P = alloc(64);
  clSVMFree(Context, P + 8);
  P[63] = 1; // still allocated
}

TEST_F(Svm, MemcpyBetweenSvmAndHostMemoryInEveryDirection) {
  // Also megabytes, which are copied in parts side by side.
  for (const size_t N : {size_t(4096), size_t(5u << 20) / sizeof(int) + 1234})
    copyEveryWay(N);
}

void Svm::copyEveryWay(size_t N) {
  SCOPED_TRACE(N);
  std::vector<int> Host(N), Back(N);
  std::iota(Host.begin(), Host.end(), 1);
  int *A = alloc<int>(N * sizeof(int));
  int *B = alloc<int>(N * sizeof(int), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER);
  ASSERT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, Host.data(), N * sizeof(int), 0, nullptr,
                               nullptr),
            CL_SUCCESS);
  cl_event Copy;
  ASSERT_EQ(clEnqueueSVMMemcpy(Queue, CL_FALSE, B, A, N * sizeof(int), 0, nullptr, &Copy),
            CL_SUCCESS);
  EXPECT_EQ(typeOf(Copy), cl_command_type(CL_COMMAND_SVM_MEMCPY));
  ASSERT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, Back.data(), B, N * sizeof(int), 1, &Copy, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(statusOf(Copy), CL_COMPLETE);
  EXPECT_EQ(Back, Host);
  // Host to host is allowed too ("a host or SVM memory allocation"), and a
  // copy of 0 bytes is a command that does nothing.
  std::vector<int> Other(N);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, Other.data(), Host.data(), N * sizeof(int), 0,
                               nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Other, Host);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A, 0, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseEvent(Copy);
}

TEST_F(Svm, MemcpyErrors) {
  char *A = alloc(64);
  EXPECT_EQ(clEnqueueSVMMemcpy(wrongHandle<cl_command_queue>(Context), CL_TRUE, A, A + 32, 8, 0,
                               nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, nullptr, A, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, nullptr, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  // Overlap: the end of the source over the start of the destination, the
  // reverse, and the same region.
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A + 16, A, 32, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A + 16, 32, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A, 32, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A + 32, 32, 0, nullptr, nullptr), CL_SUCCESS)
      << "adjacent regions do not overlap";
  // Wait lists.
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A + 32, 8, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event Bad = wrongHandle<cl_event>(Queue);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A + 32, 8, 1, &Bad, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  // A blocking copy whose wait list failed.
  cl_int Err;
  cl_event User = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_event Copy;
  ASSERT_EQ(clEnqueueSVMMemcpy(Queue, CL_FALSE, A, A + 32, 8, 1, &User, &Copy), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(User, -1), CL_SUCCESS);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_TRUE, A, A + 32, 8, 1, &User, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_LT(statusOf(Copy), 0);
  clReleaseEvent(Copy);
  clReleaseEvent(User);
  // A wait-list event of another context.
  cl_context Other = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  cl_event Foreign = clCreateUserEvent(Other, &Err);
  EXPECT_EQ(clEnqueueSVMMemcpy(Queue, CL_FALSE, A, A + 32, 8, 1, &Foreign, nullptr),
            CL_INVALID_CONTEXT);
  clReleaseEvent(Foreign);
  clReleaseContext(Other);
}

TEST_F(Svm, MemFillWithEveryPatternSize) {
  // Also megabytes, which are filled in parts side by side.
  for (const size_t Bytes : {size_t(4096), size_t(9u << 20) + 2 * 4096}) {
    unsigned char *P = alloc<unsigned char>(Bytes);
    for (size_t PatternSize = 1; PatternSize <= 128; PatternSize *= 2) {
      std::vector<unsigned char> Pattern(PatternSize);
      for (size_t I = 0; I < PatternSize; ++I)
        Pattern[I] = static_cast<unsigned char>(PatternSize * 3 + I * 7 + 1);
      std::memset(P, 0, Bytes);
      // Fill the middle half, leaving a quarter untouched on each side.
      cl_event Fill;
      ASSERT_EQ(clEnqueueSVMMemFill(Queue, P + Bytes / 4, Pattern.data(), PatternSize, Bytes / 2, 0,
                                    nullptr, &Fill),
                CL_SUCCESS);
      ASSERT_EQ(clWaitForEvents(1, &Fill), CL_SUCCESS);
      EXPECT_EQ(typeOf(Fill), cl_command_type(CL_COMMAND_SVM_MEMFILL));
      clReleaseEvent(Fill);
      for (size_t I = 0; I < Bytes; ++I) {
        bool Inside = I >= Bytes / 4 && I < 3 * Bytes / 4;
        unsigned char Want = Inside ? Pattern[(I - Bytes / 4) % PatternSize] : 0;
        ASSERT_EQ(P[I], Want) << Bytes << " bytes, pattern size " << PatternSize << ", byte " << I;
      }
    }
  }
}

TEST_F(Svm, MemFillErrors) {
  char *P = alloc(256);
  int Pattern = 7;
  auto fill = [&](void *Ptr, const void *Pat, size_t PatSize, size_t Size) {
    return clEnqueueSVMMemFill(Queue, Ptr, Pat, PatSize, Size, 0, nullptr, nullptr);
  };
  EXPECT_EQ(clEnqueueSVMMemFill(wrongHandle<cl_command_queue>(Context), P, &Pattern, 4, 16, 0,
                                nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(fill(nullptr, &Pattern, 4, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(P, nullptr, 4, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(P, &Pattern, 0, 16), CL_INVALID_VALUE);
  EXPECT_EQ(fill(P, &Pattern, 3, 12), CL_INVALID_VALUE) << "not a power of two";
  std::vector<char> Big(256);
  EXPECT_EQ(fill(P, Big.data(), 256, 256), CL_INVALID_VALUE) << "larger than 128";
  EXPECT_EQ(fill(P + 2, &Pattern, 4, 16), CL_INVALID_VALUE) << "svm_ptr not aligned";
  EXPECT_EQ(fill(P, &Pattern, 4, 18), CL_INVALID_VALUE) << "size not a multiple";
  EXPECT_EQ(clEnqueueSVMMemFill(Queue, P, &Pattern, 4, 16, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(fill(P, &Pattern, 4, 16), CL_SUCCESS);
}

TEST_F(Svm, MapUnmapAndMigrateOrderAndSignal) {
  int *P = alloc<int>(64 * sizeof(int));
  cl_event Map, Unmap, Migrate;
  ASSERT_EQ(clEnqueueSVMMap(Queue, CL_TRUE, CL_MAP_WRITE, P, 64 * sizeof(int), 0, nullptr, &Map),
            CL_SUCCESS);
  EXPECT_EQ(statusOf(Map), CL_COMPLETE);
  for (int I = 0; I < 64; ++I)
    P[I] = I; // mapped: the host writes in place
  ASSERT_EQ(clEnqueueSVMUnmap(Queue, P, 1, &Map, &Unmap), CL_SUCCESS);
  const void *Ptrs[] = {P, P + 16};
  const size_t Sizes[] = {0, 16 * sizeof(int)};
  ASSERT_EQ(clEnqueueSVMMigrateMem(Queue, 2, Ptrs, Sizes, CL_MIGRATE_MEM_OBJECT_HOST, 1, &Unmap,
                                   &Migrate),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Migrate), CL_SUCCESS);
  EXPECT_EQ(typeOf(Map), cl_command_type(CL_COMMAND_SVM_MAP));
  EXPECT_EQ(typeOf(Unmap), cl_command_type(CL_COMMAND_SVM_UNMAP));
  EXPECT_EQ(typeOf(Migrate), cl_command_type(CL_COMMAND_SVM_MIGRATE_MEM));
  EXPECT_EQ(P[63], 63);
  // Sizes may be NULL: the whole allocation of each pointer.
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 1, Ptrs, nullptr, 0, 0, nullptr, nullptr), CL_SUCCESS);
  for (cl_event E : {Map, Unmap, Migrate})
    clReleaseEvent(E);
}

TEST_F(Svm, MapUnmapAndMigrateErrors) {
  int *P = alloc<int>(64 * sizeof(int));
  cl_command_queue NotQueue = wrongHandle<cl_command_queue>(Context);
  EXPECT_EQ(clEnqueueSVMMap(NotQueue, CL_TRUE, CL_MAP_READ, P, 4, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMap(Queue, CL_TRUE, CL_MAP_READ, nullptr, 4, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(Queue, CL_TRUE, CL_MAP_READ, P, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(Queue, CL_TRUE, 0x80, P, 4, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(Queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, P, 4, 0,
                            nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(NotQueue, P, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMUnmap(Queue, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(Queue, P, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);

  const void *Ptrs[] = {P};
  size_t Size = 64 * sizeof(int);
  EXPECT_EQ(clEnqueueSVMMigrateMem(NotQueue, 1, Ptrs, &Size, 0, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 0, Ptrs, &Size, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 1, nullptr, &Size, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 1, Ptrs, &Size, 0x40, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  size_t TooLong = Size + 1;
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 1, Ptrs, &TooLong, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  int Host[4];
  const void *NotSvm[] = {Host};
  size_t HostSize = sizeof(Host);
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 1, NotSvm, &HostSize, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(Queue, 1, Ptrs, &Size, 0, 0, nullptr, nullptr), CL_SUCCESS);
}

namespace {
struct FreeRecord {
  cl_command_queue Queue = nullptr;
  std::vector<void *> Pointers;
  int FirstValue = 0;
  void *UserData = nullptr;
};
void CL_CALLBACK recordFree(cl_command_queue Q, cl_uint N, void *Ptrs[], void *UserData) {
  auto *R = static_cast<FreeRecord *>(UserData);
  R->Queue = Q;
  R->Pointers.assign(Ptrs, Ptrs + N);
  R->FirstValue = *static_cast<int *>(Ptrs[0]);
  R->UserData = UserData;
  cl_context C;
  clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, sizeof(C), &C, nullptr);
  for (cl_uint I = 0; I < N; ++I)
    clSVMFree(C, Ptrs[I]);
}
} // namespace

TEST_F(Svm, EnqueueFreeCallsTheCallbackAfterTheCommandsBeforeIt) {
  int *A = static_cast<int *>(clSVMAlloc(Context, CL_MEM_READ_WRITE, 64 * sizeof(int), 0));
  int *B = static_cast<int *>(clSVMAlloc(Context, CL_MEM_READ_WRITE, 64, 0));
  ASSERT_TRUE(A && B);
  // A kernel writes A; the free, queued after it, sees what it wrote.
  cl_kernel K = kernel(SvmKernels, "scale");
  std::vector<int> In(64, 5);
  int *Src = static_cast<int *>(clSVMAlloc(Context, CL_MEM_READ_WRITE, 64 * sizeof(int), 0));
  OwnedSvm.push_back(Src);
  std::copy(In.begin(), In.end(), Src);
  int Factor = 3;
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, Src), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, sizeof(int), &Factor), CL_SUCCESS);
  size_t N = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  FreeRecord Record;
  void *Ptrs[] = {A, B};
  cl_event Free;
  ASSERT_EQ(clEnqueueSVMFree(Queue, 2, Ptrs, recordFree, &Record, 0, nullptr, &Free), CL_SUCCESS);
  Ptrs[0] = Ptrs[1] = nullptr; // the command keeps its own copy
  ASSERT_EQ(clWaitForEvents(1, &Free), CL_SUCCESS);
  EXPECT_EQ(typeOf(Free), cl_command_type(CL_COMMAND_SVM_FREE));
  EXPECT_EQ(Record.Queue, Queue);
  EXPECT_EQ(Record.Pointers, (std::vector<void *>{A, B}));
  EXPECT_EQ(Record.FirstValue, 15);
  EXPECT_EQ(Record.UserData, &Record);
  clReleaseEvent(Free);
}

TEST_F(Svm, EnqueueFreeWithoutCallbackFreesTheAllocations) {
  void *A = clSVMAlloc(Context, CL_MEM_READ_WRITE, 256, 0);
  ASSERT_NE(A, nullptr);
  cl_int Err;
  // While it is an allocation, a buffer on it uses an SVM pointer ...
  cl_mem Before = clCreateBuffer(Context, CL_MEM_USE_HOST_PTR, 256, A, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, Before, CL_MEM_USES_SVM_POINTER), cl_bool(CL_TRUE));
  ASSERT_EQ(clReleaseMemObject(Before), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMFree(Queue, 1, &A, nullptr, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  // ... and once freed the context no longer knows it (the buffer only
  // records the address; nothing reads the freed memory).
  cl_mem After = clCreateBuffer(Context, CL_MEM_USE_HOST_PTR, 256, A, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, After, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  ASSERT_EQ(clReleaseMemObject(After), CL_SUCCESS);
  // No pointers at all is a command that does nothing.
  EXPECT_EQ(clEnqueueSVMFree(Queue, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
}

TEST_F(Svm, EnqueueFreeErrors) {
  void *P = alloc(16);
  void *Ptrs[] = {P};
  EXPECT_EQ(clEnqueueSVMFree(wrongHandle<cl_command_queue>(Context), 1, Ptrs, nullptr, nullptr, 0,
                             nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMFree(Queue, 0, Ptrs, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(Queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(Queue, 1, Ptrs, nullptr, nullptr, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
}

TEST_F(Svm, KernelArgumentsPointAnywhereInsideAnAllocation) {
  cl_kernel K = kernel(SvmKernels, "scale");
  const int N = 256;
  int *In = alloc<int>(N * sizeof(int));
  int *Out = alloc<int>(N * sizeof(int), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER);
  for (int I = 0; I < N; ++I) {
    In[I] = I;
    Out[I] = -1;
  }
  // The second half of In into the first half of Out.
  int Factor = 2;
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, In + N / 2), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, sizeof(int), &Factor), CL_SUCCESS);
  size_t Half = N / 2;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Half, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], I < N / 2 ? 2 * (I + N / 2) : -1) << I;
}

namespace {
int GlobalArray[64];
}

TEST_F(Svm, FineGrainedSystemSvmTakesAnyHostPointer) {
  cl_kernel K = kernel(SvmKernels, "scale");
  const int N = 64;
  int Factor = 4;
  size_t Size = N;
  auto run = [&](const int *In, int *Out) {
    ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, In), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, Out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 2, sizeof(int), &Factor), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Size, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  };
  // malloc'd memory, the stack, and a global array.
  int *Heap = static_cast<int *>(std::malloc(N * sizeof(int)));
  int Stack[N];
  for (int I = 0; I < N; ++I)
    Heap[I] = I + 1;
  run(Heap, Stack);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Stack[I], 4 * (I + 1));
  run(Stack, GlobalArray);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(GlobalArray[I], 16 * (I + 1));
  std::free(Heap);

  // A NULL SVM pointer is a NULL pointer argument.
  cl_kernel Null = kernel(SvmKernels, "is_null");
  int Result = -1;
  ASSERT_EQ(clSetKernelArgSVMPointer(Null, 0, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(Null, 1, &Result), CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(Queue, Null, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(Result, 1);
}

TEST_F(Svm, KernelWalksAHostBuiltListAcrossAllocations) {
  struct Node {
    cl_int Value;
    Node *Next;
  };
  // Even nodes in one allocation, odd ones in another the kernel reaches
  // only through the list (named with CL_KERNEL_EXEC_INFO_SVM_PTRS).
  const int N = 1000;
  Node *Even = alloc<Node>(N / 2 * sizeof(Node));
  Node *Odd = alloc<Node>(N / 2 * sizeof(Node));
  long long Want = 0;
  for (int I = 0; I < N; ++I) {
    Node *Cur = I % 2 ? &Odd[I / 2] : &Even[I / 2];
    Cur->Value = I * 3 - 7;
    Want += Cur->Value;
    Cur->Next = I + 1 == N ? nullptr : (I % 2 ? &Even[(I + 1) / 2] : &Odd[I / 2]);
  }
  long long *Sum = alloc<long long>(sizeof(long long));
  *Sum = 0;
  cl_kernel K = kernel(SvmKernels, "walk");
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, Even), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, Sum), CL_SUCCESS);
  void *Extra[] = {Odd + 3}; // any pointer inside the allocation names it
  ASSERT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(Extra), Extra),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(Queue, K, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(*Sum, Want);

  // The same list in malloc'd memory: fine-grained system SVM.
  std::vector<Node> Heap(N);
  for (int I = 0; I < N; ++I)
    Heap[I] = Node{I, I + 1 == N ? nullptr : &Heap[I + 1]};
  cl_bool On = CL_TRUE;
  ASSERT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(On), &On),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, Heap.data()), CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(Queue, K, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(*Sum, (long long)N * (N - 1) / 2);
}

TEST_F(Svm, SetKernelArgSvmPointerAndExecInfoErrors) {
  cl_kernel K = kernel(SvmKernels, "scale");
  int *P = alloc<int>(64);
  EXPECT_EQ(clSetKernelArgSVMPointer(wrongHandle<cl_kernel>(Queue), 0, P), CL_INVALID_KERNEL);
  EXPECT_EQ(clSetKernelArgSVMPointer(K, 3, P), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArgSVMPointer(K, 2, P), CL_INVALID_ARG_VALUE) << "an int argument";

  EXPECT_EQ(clSetKernelExecInfo(wrongHandle<cl_kernel>(Queue), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0,
                                nullptr),
            CL_INVALID_KERNEL);
  void *Ptrs[] = {P};
  EXPECT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr), CL_SUCCESS)
      << "the empty set";
  EXPECT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(Ptrs), nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, Ptrs), CL_INVALID_VALUE);
  cl_bool On = CL_FALSE;
  EXPECT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(On), &On),
            CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(On), nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &On),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(K, 0x7777, sizeof(On), &On), CL_INVALID_VALUE);
}

TEST_F(Svm, BuffersOnSvmPointersReportIt) {
  char *P = alloc(1024, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER);
  cl_int Err;
  cl_mem OnSvm = buffer(1024, CL_MEM_USE_HOST_PTR, P);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, OnSvm, CL_MEM_USES_SVM_POINTER), cl_bool(CL_TRUE));
  cl_mem Inner = buffer(512, CL_MEM_USE_HOST_PTR, P + 512);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, Inner, CL_MEM_USES_SVM_POINTER), cl_bool(CL_TRUE));
  cl_buffer_region Region{128, 256};
  cl_mem Sub =
      clCreateSubBuffer(OnSvm, 0, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(Sub);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, Sub, CL_MEM_USES_SVM_POINTER), cl_bool(CL_TRUE));
  // A copy of SVM memory is not SVM; nor is malloc'd memory.
  cl_mem Copied = buffer(1024, CL_MEM_COPY_HOST_PTR, P);
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, Copied, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  std::vector<char> Host(64);
  cl_mem OnHost = buffer(64, CL_MEM_USE_HOST_PTR, Host.data());
  EXPECT_EQ(info<cl_bool>(clGetMemObjectInfo, OnHost, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  // "size is greater than the size passed to clSVMAlloc".
  for (cl_mem_flags F : {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR}) {
    EXPECT_EQ(clCreateBuffer(Context, F, 2048, P, &Err), nullptr);
    EXPECT_EQ(Err, CL_INVALID_BUFFER_SIZE);
    EXPECT_EQ(clCreateBuffer(Context, F, 600, P + 512, &Err), nullptr);
    EXPECT_EQ(Err, CL_INVALID_BUFFER_SIZE);
  }
  // The buffer is the SVM memory: a kernel writing one is seen in the other.
  cl_kernel K = kernel(AddSource, "add");
  std::fill(P, P + 1024, 0);
  int Amount = 9;
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &OnSvm), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Amount), CL_SUCCESS);
  size_t N = 1024 / sizeof(int);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<int *>(P)[N - 1], 9);
}

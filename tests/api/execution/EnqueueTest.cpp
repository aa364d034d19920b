// clEnqueueNDRangeKernel and clEnqueueTask: the work-item functions of 1-,
// 2- and 3-D ranges with global offsets and with a NULL local size, written
// to buffers and checked element by element; objects released right after
// a non-blocking enqueue; and one negative test per error code of the
// kernel enqueue entry points.
#include "ApiTest.h"

#include <array>

using namespace weft::test;

namespace {

// Every work-item writes all its work-item function values to 16 ints.
const char *WorkItemSource = R"CLC(
__kernel void ids(__global int *out) {
  size_t linear = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    linear += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  __global int *o = out + linear * 16;
  o[0] = get_work_dim();
  for (uint d = 0; d < 3; ++d) {
    o[1 + d] = get_global_id(d);
    o[4 + d] = get_local_id(d);
    o[7 + d] = get_group_id(d);
    o[10 + d] = get_local_size(d) * 1000 + get_num_groups(d);
    o[13 + d] = get_global_size(d) * 1000 + get_global_offset(d);
  }
}

__attribute__((reqd_work_group_size(4, 2, 1)))
__kernel void fixed(__global int *out) { out[get_global_id(0)] = 1; }

__kernel void one(__global int *out) { out[0] = 77; }

__kernel void local_buf(__global int *out, __local int *tmp) {
  tmp[get_local_id(0)] = 1;
  out[0] = tmp[0];
}
)CLC";

class Enqueue : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    Ids = kernel(WorkItemSource, "ids");
  }

  /// Runs `ids` and checks every value of every work-item.
  void checkIds(cl_uint Dim, std::array<size_t, 3> Global, const size_t *Offset,
                const size_t *Local) {
    size_t Items = 1;
    for (cl_uint D = 0; D < Dim; ++D)
      Items *= Global[D];
    cl_mem Out = buffer(Items * 16 * sizeof(int));
    ASSERT_EQ(clSetKernelArg(Ids, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    ASSERT_EQ(
        clEnqueueNDRangeKernel(Queue, Ids, Dim, Offset, Global.data(), Local, 0, nullptr, nullptr),
        CL_SUCCESS);
    auto Got = read<int>(Out, Items * 16);
    // The local size the runtime chose (NULL local) must be uniform and
    // the same for every work-item.
    std::array<size_t, 3> L{1, 1, 1}, Off{0, 0, 0}, G{1, 1, 1};
    for (cl_uint D = 0; D < Dim; ++D) {
      G[D] = Global[D];
      Off[D] = Offset ? Offset[D] : 0;
      L[D] = Local ? Local[D] : size_t(Got[10 + D] / 1000);
      ASSERT_GE(L[D], 1u);
      ASSERT_EQ(G[D] % L[D], 0u) << "non-uniform work-group chosen in dimension " << D;
    }
    for (size_t Z = 0; Z < G[2]; ++Z)
      for (size_t Y = 0; Y < G[1]; ++Y)
        for (size_t X = 0; X < G[0]; ++X) {
          const int *O = &Got[((Z * G[1] + Y) * G[0] + X) * 16];
          size_t Pos[3] = {X, Y, Z};
          SCOPED_TRACE(::testing::Message() << "work-item " << X << "," << Y << "," << Z);
          ASSERT_EQ(O[0], int(Dim));
          for (int D = 0; D < 3; ++D) {
            size_t Gid = Pos[D] + Off[D];
            ASSERT_EQ(O[1 + D], int(Gid));
            ASSERT_EQ(O[4 + D], int(Pos[D] % L[D]));
            ASSERT_EQ(O[7 + D], int(Pos[D] / L[D]));
            ASSERT_EQ(O[10 + D], int(L[D] * 1000 + G[D] / L[D]));
            ASSERT_EQ(O[13 + D], int(G[D] * 1000 + Off[D]));
          }
        }
  }

  cl_kernel Ids = nullptr;
};

} // namespace

TEST_F(Enqueue, WorkItemFunctions1D) {
  const size_t Local = 8;
  checkIds(1, {64, 0, 0}, nullptr, &Local);
  const size_t Offset = 100;
  checkIds(1, {48, 0, 0}, &Offset, &Local);
}

TEST_F(Enqueue, WorkItemFunctions2D) {
  const size_t Local[2] = {4, 3}, Offset[2] = {5, 7};
  checkIds(2, {16, 9, 0}, nullptr, Local);
  checkIds(2, {16, 9, 0}, Offset, Local);
}

TEST_F(Enqueue, WorkItemFunctions3D) {
  const size_t Local[3] = {2, 3, 4}, Offset[3] = {1, 2, 3};
  checkIds(3, {6, 6, 8}, Offset, Local);
  const size_t Cube[3] = {4, 4, 4};
  checkIds(3, {8, 8, 8}, nullptr, Cube);
}

TEST_F(Enqueue, NullLocalSize) {
  checkIds(1, {1000, 0, 0}, nullptr, nullptr);
  checkIds(1, {97, 0, 0}, nullptr, nullptr); // prime: groups of one
  const size_t Offset[2] = {3, 4};
  checkIds(2, {24, 10, 0}, Offset, nullptr);
  checkIds(3, {5, 6, 7}, nullptr, nullptr);
}

// OpenCL C 2.0+ kernels may run with a global size that is not a multiple
// of the local size: the last work-group of a dimension is smaller, and
// get_enqueued_local_size still says the size every other group has.
const char *NonUniformSource = R"CLC(
__kernel void sizes(__global int *out) {
  size_t gx = get_global_id(0), gy = get_global_id(1);
  __global int *o = out + (gy * get_global_size(0) + gx) * 8;
  o[0] = get_local_size(0);
  o[1] = get_local_size(1);
#if __OPENCL_C_VERSION__ >= 200
  o[2] = get_enqueued_local_size(0);
  o[3] = get_enqueued_local_size(1);
  o[7] = get_local_linear_id();
#endif
  o[4] = get_local_id(0);
  o[5] = get_group_id(0);
  o[6] = get_num_groups(0);
}

// Each group sums its work-items' global ids through __local memory: the
// barriers and the tree must see exactly get_local_size(0) work-items.
__kernel void group_sum(__global int *out, __local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = 0;
    for (size_t i = 0; i < n; ++i)
      s += tmp[i];
    out[get_group_id(0)] = s;
  }
}
)CLC";

TEST_F(Enqueue, NonUniformWorkGroups) {
  cl_kernel K = kernel(NonUniformSource, "sizes", "-cl-std=CL3.0");
  const size_t G[2] = {10, 7}, L[2] = {4, 3};
  cl_mem Out = buffer(G[0] * G[1] * 8 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, G, L, 0, nullptr, nullptr), CL_SUCCESS);
  auto Got = read<int>(Out, G[0] * G[1] * 8);
  for (size_t Y = 0; Y < G[1]; ++Y)
    for (size_t X = 0; X < G[0]; ++X) {
      SCOPED_TRACE(::testing::Message() << "work-item " << X << "," << Y);
      const int *O = &Got[(Y * G[0] + X) * 8];
      const int Lx = X < 8 ? 4 : 2, Ly = Y < 6 ? 3 : 1;
      EXPECT_EQ(O[0], Lx);
      EXPECT_EQ(O[1], Ly);
      EXPECT_EQ(O[2], 4);
      EXPECT_EQ(O[3], 3);
      EXPECT_EQ(O[4], int(X % 4));
      EXPECT_EQ(O[5], int(X / 4));
      EXPECT_EQ(O[6], 3);
      EXPECT_EQ(O[7], int((Y % 3) * Lx + X % 4));
    }

  cl_kernel Sum = kernel(NonUniformSource, "group_sum", "-cl-std=CL3.0");
  const size_t G1 = 1003, L1 = 64, Groups = (G1 + L1 - 1) / L1;
  cl_mem Sums = buffer(Groups * sizeof(int));
  ASSERT_EQ(clSetKernelArg(Sum, 0, sizeof(cl_mem), &Sums), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Sum, 1, L1 * sizeof(int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Sum, 1, nullptr, &G1, &L1, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto S = read<int>(Sums, Groups);
  for (size_t Gr = 0; Gr < Groups; ++Gr) {
    int Want = 0;
    for (size_t I = Gr * L1; I < std::min(G1, (Gr + 1) * L1); ++I)
      Want += int(I);
    EXPECT_EQ(S[Gr], Want) << "group " << Gr;
  }
}

TEST_F(Enqueue, UniformWorkGroupsWhereTheKernelRequiresThem) {
  const size_t G = 10, L = 4;
  for (const char *Options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
    SCOPED_TRACE(Options);
    cl_kernel K = kernel(NonUniformSource, "sizes", Options);
    cl_mem Out = buffer(G * 8 * sizeof(int));
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &L, 0, nullptr, nullptr),
              CL_INVALID_WORK_GROUP_SIZE);
    const size_t G8 = 8;
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G8, &L, 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  EXPECT_EQ(clFinish(Queue), CL_SUCCESS);
}

TEST_F(Enqueue, NullLocalSizeOfANonUniformKernelAvoidsTinyGroups) {
  cl_kernel K = kernel(NonUniformSource, "sizes", "-cl-std=CL3.0");
  const size_t G = 997; // prime
  cl_mem Out = buffer(G * 8 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<int>(Out, G * 8);
  const int Enq = Got[2];
  EXPECT_GT(Enq, 1);
  for (size_t X = 0; X < G; ++X) {
    ASSERT_EQ(Got[X * 8 + 2], Enq);
    ASSERT_EQ(Got[X * 8 + 0], int(std::min<size_t>(Enq, G - X / Enq * Enq))) << X;
  }
}

TEST_F(Enqueue, TaskRunsOneWorkItem) {
  cl_kernel K = kernel(WorkItemSource, "one");
  cl_mem Out = buffer(sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  cl_event E;
  ASSERT_EQ(clEnqueueTask(Queue, K, 0, nullptr, &E), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, E, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  EXPECT_EQ(read<int>(Out, 1)[0], 77);
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(Enqueue, EmptyRangeIsANoOp) {
  cl_kernel K = kernel(WorkItemSource, "one");
  cl_mem Out = buffer(sizeof(int));
  int Zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, Out, &Zero, 4, 0, 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  const size_t Empty = 0;
  cl_event E;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Empty, nullptr, 0, nullptr, &E),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
  EXPECT_EQ(read<int>(Out, 1)[0], 0);
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
  // A NULL global_work_size is empty too (regression: it ran one work-item).
  for (cl_uint Dim = 1; Dim <= 3; ++Dim)
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, Dim, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(read<int>(Out, 1)[0], 0);
}

TEST_F(Enqueue, NullLocalSizeTakesReqdWorkGroupSize) {
  const char *Src = R"CLC(
__attribute__((reqd_work_group_size(4, 2, 1)))
__kernel void sizes(__global int *out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0) {
    out[0] = get_local_size(0); out[1] = get_local_size(1); out[2] = get_local_size(2);
  }
})CLC";
  cl_kernel K = kernel(Src, "sizes");
  cl_mem Out = buffer(3 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  const size_t G[2] = {64, 32};
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, G, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto V = read<int>(Out, 3);
  EXPECT_EQ(V[0], 4);
  EXPECT_EQ(V[1], 2);
  EXPECT_EQ(V[2], 1);
}

TEST_F(Enqueue, ObjectsReleasedRightAfterEnqueueStayAlive) {
  const size_t N = 4096;
  cl_int Err;
  cl_event Gate = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_program P = build(WorkItemSource);
  cl_kernel K = clCreateKernel(P, "ids", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Out = clCreateBuffer(Context, CL_MEM_READ_WRITE, N * 16 * sizeof(int), nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_command_queue Q = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  cl_event Run;
  ASSERT_EQ(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 1, &Gate, &Run), CL_SUCCESS);
  std::vector<int> Got(N * 16, -1);
  cl_event Read;
  ASSERT_EQ(clEnqueueReadBuffer(Q, Out, CL_FALSE, 0, Got.size() * sizeof(int), Got.data(), 0,
                                nullptr, &Read),
            CL_SUCCESS);
  // Everything the commands use goes away from the application's side.
  ASSERT_EQ(clReleaseMemObject(Out), CL_SUCCESS);
  ASSERT_EQ(clReleaseKernel(K), CL_SUCCESS);
  ASSERT_EQ(clReleaseProgram(P), CL_SUCCESS);
  ASSERT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Read), CL_SUCCESS);
  EXPECT_EQ(info<cl_int>(clGetEventInfo, Run, CL_EVENT_COMMAND_EXECUTION_STATUS), CL_COMPLETE);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I * 16 + 1], int(I));
  for (cl_event E : {Gate, Run, Read})
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(Enqueue, ArgumentsAreSnapshotAtEnqueue) {
  cl_int Err;
  cl_event Gate = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_kernel K = kernel(WorkItemSource, "one");
  cl_mem A = buffer(sizeof(int)), B = buffer(sizeof(int));
  int Zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, A, &Zero, 4, 0, 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(Queue, B, &Zero, 4, 0, 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  const size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 1, &Gate, nullptr),
            CL_SUCCESS);
  // Changing the argument after the enqueue does not change the command.
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &B), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(read<int>(A, 1)[0], 77);
  EXPECT_EQ(read<int>(B, 1)[0], 0);
  EXPECT_EQ(clReleaseEvent(Gate), CL_SUCCESS);
}

TEST_F(Enqueue, NDRangeErrors) {
  cl_mem Out = buffer(1 << 16);
  const size_t G1 = 64, L1 = 8;
  auto Run = [&](cl_kernel K, cl_uint Dim, const size_t *Off, const size_t *G, const size_t *L) {
    return clEnqueueNDRangeKernel(Queue, K, Dim, Off, G, L, 0, nullptr, nullptr);
  };
  // Arguments not set.
  EXPECT_EQ(Run(Ids, 1, nullptr, &G1, &L1), CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(clSetKernelArg(Ids, 0, sizeof(cl_mem), &Out), CL_SUCCESS);

  EXPECT_EQ(Run(Ids, 0, nullptr, &G1, &L1), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(Run(Ids, 4, nullptr, &G1, &L1), CL_INVALID_WORK_DIMENSION);
  // OpenCL 2.1+: a NULL global_work_size is an empty NDRange, not an error.
  EXPECT_EQ(Run(Ids, 1, nullptr, nullptr, nullptr), CL_SUCCESS);

  // Work-group sizes: not dividing, zero, larger than the device allows.
  const size_t L7 = 7, L0 = 0;
  EXPECT_EQ(Run(Ids, 1, nullptr, &G1, &L7), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(Run(Ids, 1, nullptr, &G1, &L0), CL_INVALID_WORK_GROUP_SIZE);
  size_t MaxWg = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t KernelWg = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(Ids, Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(KernelWg),
                                     &KernelWg, nullptr),
            CL_SUCCESS);
  size_t Sizes[3];
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(Sizes), Sizes, nullptr),
            CL_SUCCESS);
  // Each dimension within its limit, the product over the kernel's.
  size_t Big[2] = {Sizes[0], std::min(Sizes[1], KernelWg / Sizes[0] + 2)};
  if (Big[1] >= 2 && Big[0] * Big[1] > KernelWg) {
    size_t GBig[2] = {Big[0], Big[1]};
    EXPECT_EQ(Run(Ids, 2, nullptr, GBig, Big), CL_INVALID_WORK_GROUP_SIZE);
  }
  // One dimension over CL_DEVICE_MAX_WORK_ITEM_SIZES.
  size_t TooWide = Sizes[0] + 1, GWide = TooWide;
  EXPECT_EQ(Run(Ids, 1, nullptr, &GWide, &TooWide), CL_INVALID_WORK_ITEM_SIZE);
  (void)MaxWg;

  // reqd_work_group_size: a different local size is an error; none takes it.
  cl_kernel Fixed = kernel(WorkItemSource, "fixed");
  ASSERT_EQ(clSetKernelArg(Fixed, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  size_t G2[2] = {16, 8}, Good[2] = {4, 2}, Other[2] = {2, 4};
  EXPECT_EQ(Run(Fixed, 2, nullptr, G2, Good), CL_SUCCESS);
  EXPECT_EQ(Run(Fixed, 2, nullptr, G2, Other), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(Run(Fixed, 2, nullptr, G2, nullptr), CL_SUCCESS);
  size_t G2Odd[2] = {18, 8}; // not a multiple of the required size
  EXPECT_EQ(Run(Fixed, 2, nullptr, G2Odd, nullptr), CL_INVALID_WORK_GROUP_SIZE);
  size_t G3[3] = {16, 8, 2}, Good3Wrong[3] = {4, 2, 2};
  EXPECT_EQ(Run(Fixed, 3, nullptr, G3, Good3Wrong), CL_INVALID_WORK_GROUP_SIZE);

  // global offset + global size overflows.
  size_t Off = SIZE_MAX - 10;
  EXPECT_EQ(Run(Ids, 1, &Off, &G1, &L1), CL_INVALID_GLOBAL_OFFSET);

  // More __local memory than the device has.
  cl_kernel LocalK = kernel(WorkItemSource, "local_buf");
  ASSERT_EQ(clSetKernelArg(LocalK, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  cl_ulong LocalMem = info<cl_ulong>(clGetDeviceInfo, Device, CL_DEVICE_LOCAL_MEM_SIZE);
  ASSERT_EQ(clSetKernelArg(LocalK, 1, size_t(LocalMem) + 1, nullptr), CL_SUCCESS);
  EXPECT_EQ(Run(LocalK, 1, nullptr, &G1, &L1), CL_OUT_OF_RESOURCES);

  // Handles of the wrong kind.
  EXPECT_EQ(clEnqueueNDRangeKernel(wrongHandle<cl_command_queue>(Ids), Ids, 1, nullptr, &G1, &L1, 0,
                                   nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(Run(wrongHandle<cl_kernel>(Out), 1, nullptr, &G1, &L1), CL_INVALID_KERNEL);
  EXPECT_EQ(clEnqueueTask(Queue, wrongHandle<cl_kernel>(Queue), 0, nullptr, nullptr),
            CL_INVALID_KERNEL);

  // Wait lists.
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Ids, 1, nullptr, &G1, &L1, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event NotEvent = wrongHandle<cl_event>(Out);
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Ids, 1, nullptr, &G1, &L1, 1, &NotEvent, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
}

TEST_F(Enqueue, KernelAndQueueFromDifferentContexts) {
  cl_int Err;
  cl_context Other = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_command_queue OtherQueue = clCreateCommandQueueWithProperties(Other, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Out = buffer(64 * 16 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(Ids, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  const size_t G = 64;
  EXPECT_EQ(clEnqueueNDRangeKernel(OtherQueue, Ids, 1, nullptr, &G, nullptr, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  cl_event Foreign = clCreateUserEvent(Other, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Ids, 1, nullptr, &G, nullptr, 1, &Foreign, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetUserEventStatus(Foreign, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Foreign), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(OtherQueue), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(Other), CL_SUCCESS);
}

namespace {
struct NativeArgs {
  int Scale;
  cl_mem In;  // replaced by a pointer to the buffer's memory
  cl_mem Out; // likewise
  int Count;
};

void CL_CALLBACK nativeScale(void *P) {
  auto *A = static_cast<NativeArgs *>(P);
  auto *In = reinterpret_cast<const int *>(A->In);
  auto *Out = reinterpret_cast<int *>(A->Out);
  for (int I = 0; I < A->Count; ++I)
    Out[I] = In[I] * A->Scale;
}
} // namespace

TEST_F(Enqueue, NativeKernelSeesBufferMemory) {
  cl_device_exec_capabilities Caps =
      info<cl_device_exec_capabilities>(clGetDeviceInfo, Device, CL_DEVICE_EXECUTION_CAPABILITIES);
  ASSERT_TRUE(Caps & CL_EXEC_NATIVE_KERNEL);
  std::vector<int> Data(64);
  for (int I = 0; I < 64; ++I)
    Data[I] = I;
  cl_mem In = buffer(64 * sizeof(int), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Data.data());
  cl_mem Out = buffer(64 * sizeof(int));
  NativeArgs A{3, In, Out, 64};
  cl_mem Mems[2] = {In, Out};
  const void *Locs[2] = {&A.In, &A.Out};
  ASSERT_EQ(clEnqueueNativeKernel(Queue, nativeScale, &A, sizeof(A), 2, Mems, Locs, 0, nullptr,
                                  nullptr),
            CL_SUCCESS);
  A.Scale = 100; // the arguments were copied at enqueue
  auto V = read<int>(Out, 64);
  for (int I = 0; I < 64; ++I)
    ASSERT_EQ(V[I], 3 * I);
}

TEST_F(Enqueue, NativeKernelErrors) {
  NativeArgs A{1, nullptr, nullptr, 0};
  cl_mem Out = buffer(64);
  cl_mem Mems[1] = {Out};
  const void *Locs[1] = {&A.Out};
  EXPECT_EQ(clEnqueueNativeKernel(Queue, nullptr, &A, sizeof(A), 0, nullptr, nullptr, 0, nullptr,
                                  nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueNativeKernel(Queue, nativeScale, nullptr, 8, 0, nullptr, nullptr, 0, nullptr,
                                  nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueNativeKernel(Queue, nativeScale, &A, 0, 0, nullptr, nullptr, 0, nullptr,
                                  nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueNativeKernel(Queue, nativeScale, &A, sizeof(A), 1, nullptr, Locs, 0, nullptr,
                                  nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueNativeKernel(Queue, nativeScale, &A, sizeof(A), 0, Mems, nullptr, 0, nullptr,
                                  nullptr),
            CL_INVALID_VALUE);
  cl_mem Bad[1] = {reinterpret_cast<cl_mem>(Queue)};
  EXPECT_EQ(clEnqueueNativeKernel(Queue, nativeScale, &A, sizeof(A), 1, Bad, Locs, 0, nullptr,
                                  nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueNativeKernel(nullptr, nativeScale, &A, sizeof(A), 1, Mems, Locs, 0, nullptr,
                                  nullptr),
            CL_INVALID_COMMAND_QUEUE);
}

// A one-work-group kernel that cannot wait for other work, and whose last
// such launch was brief, runs on the host thread that makes it Ready: as
// it is enqueued, or as the user event it waits for completes. Its event is
// then complete when the call returns, its profiling times in order, and
// its result right. (A launch measured long, on a busy machine, goes to the
// pool and measures again, so the test tries a few times.)
TEST_F(Enqueue, BriefKernelsRunWhereTheyBecomeReady) {
  cl_kernel Bump = kernel("__kernel void bump(__global int *c) { c[0] += 1; }", "bump");
  cl_mem Counter = buffer(sizeof(int));
  const int Zero = 0;
  ASSERT_EQ(
      clEnqueueWriteBuffer(Queue, Counter, CL_TRUE, 0, sizeof(int), &Zero, 0, nullptr, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Bump, 0, sizeof(cl_mem), &Counter), CL_SUCCESS);
  const size_t One = 1;
  int Launches = 0;
  auto completeOnReturn = [&](bool ViaUserEvent) {
    for (int Try = 0; Try < 50; ++Try) {
      cl_event User = nullptr, E = nullptr;
      cl_int Err;
      if (ViaUserEvent) {
        User = clCreateUserEvent(Context, &Err);
        EXPECT_EQ(Err, CL_SUCCESS);
      }
      EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Bump, 1, nullptr, &One, &One, User ? 1 : 0,
                                       User ? &User : nullptr, &E),
                CL_SUCCESS);
      ++Launches;
      cl_int Status = -1;
      if (User) {
        EXPECT_EQ(
            clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status, nullptr),
            CL_SUCCESS);
        EXPECT_GT(Status, CL_COMPLETE) << "ran before its user event completed";
        EXPECT_EQ(clSetUserEventStatus(User, CL_COMPLETE), CL_SUCCESS);
      }
      EXPECT_EQ(
          clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
      cl_ulong Times[5];
      const cl_profiling_info Infos[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                          CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                          CL_PROFILING_COMMAND_COMPLETE};
      for (int I = 0; I < 5; ++I)
        EXPECT_EQ(clGetEventProfilingInfo(E, Infos[I], sizeof(cl_ulong), &Times[I], nullptr),
                  CL_SUCCESS);
      for (int I = 1; I < 5; ++I)
        EXPECT_LE(Times[I - 1], Times[I]) << "profiling time " << I;
      EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
      if (User)
        EXPECT_EQ(clReleaseEvent(User), CL_SUCCESS);
      if (Status == CL_COMPLETE)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(completeOnReturn(false)) << "never complete when clEnqueueNDRangeKernel returned";
  EXPECT_TRUE(completeOnReturn(true)) << "never complete when clSetUserEventStatus returned";
  EXPECT_EQ(read<int>(Counter, 1)[0], Launches);
}

// A kernel that may wait for other work (here, spinning on an atomic the
// host sets after the enqueue returns) is never run on the spot, however
// briefly it ran before: the enqueue would never return.
TEST_F(Enqueue, KernelsThatMayWaitAreLeftToThePool) {
  cl_kernel Wait = kernel(R"(
    __kernel void wait(volatile __global int *flag, int spin) {
      if (spin)
        while (atomic_add(flag, 0) == 0) {}
    })",
                          "wait");
  int Flag = 0;
  cl_mem FlagMem = buffer(sizeof(int), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &Flag);
  ASSERT_EQ(clSetKernelArg(Wait, 0, sizeof(cl_mem), &FlagMem), CL_SUCCESS);
  const size_t One = 1;
  const int NoSpin = 0, Spin = 1;
  // Brief launches first, so the kernel's last run is short.
  ASSERT_EQ(clSetKernelArg(Wait, 1, sizeof(int), &NoSpin), CL_SUCCESS);
  for (int I = 0; I < 5; ++I) {
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Wait, 1, nullptr, &One, &One, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  }
  ASSERT_EQ(clSetKernelArg(Wait, 1, sizeof(int), &Spin), CL_SUCCESS);
  cl_event E = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Wait, 1, nullptr, &One, &One, 0, nullptr, &E),
            CL_SUCCESS);
  __atomic_store_n(&Flag, 1, __ATOMIC_SEQ_CST);
  EXPECT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

// Many small groups: a kernel that only asks for its global ids (which the
// device may run several groups at a time) and one that asks for its group
// and local ids (which it may not) compute every element as one group at a
// time would, in one and two dimensions, with an offset, and with a last
// group that is smaller (OpenCL C 2.0).
TEST_F(Enqueue, ManySmallGroupsOfGroupFreeKernels) {
  const char *Source = R"(
    __kernel void global_only(__global int *out) {
      size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1);
      out[y * (get_global_size(0)) + x] = (int)(get_global_id(0) * 3 + y * 100001 + 1);
    }
    __kernel void grouped(__global int *out) {
      size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1);
      out[y * get_global_size(0) + x] =
          (int)(get_group_id(0) * 1000 + get_local_id(0) * 10 + get_local_size(0) % 7);
    })";
  cl_kernel GlobalOnly = kernel(Source, "global_only", "-cl-std=CL2.0");
  cl_kernel Grouped = kernel(Source, "grouped", "-cl-std=CL2.0");
  ASSERT_TRUE(GlobalOnly && Grouped);
  struct Case {
    cl_uint Dims;
    size_t Global[2], Local[2], Offset[2];
  };
  const Case Cases[] = {{1, {100003, 1}, {16, 1}, {0, 0}},
                        {1, {65536, 1}, {4, 1}, {7, 0}},
                        {2, {1000, 9}, {8, 3}, {0, 0}},
                        {2, {997, 5}, {1, 1}, {3, 0}}};
  for (const Case &C : Cases) {
    const size_t Items = C.Global[0] * (C.Dims > 1 ? C.Global[1] : 1);
    cl_mem Out = buffer(Items * sizeof(int));
    for (cl_kernel K : {GlobalOnly, Grouped}) {
      ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
      ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, C.Dims, C.Offset, C.Global, C.Local, 0, nullptr,
                                       nullptr),
                CL_SUCCESS);
      const std::vector<int> Got = read<int>(Out, Items);
      for (size_t Y = 0; Y < (C.Dims > 1 ? C.Global[1] : 1); ++Y)
        for (size_t X = 0; X < C.Global[0]; ++X) {
          const size_t Gx = X + C.Offset[0];
          const size_t Group = X / C.Local[0];
          const size_t LocalSize = std::min(C.Local[0], C.Global[0] - Group * C.Local[0]);
          const int Want = K == GlobalOnly
                               ? int(Gx * 3 + Y * 100001 + 1)
                               : int(Group * 1000 + (X % C.Local[0]) * 10 + LocalSize % 7);
          ASSERT_EQ(Got[Y * C.Global[0] + X], Want)
              << (K == GlobalOnly ? "global_only" : "grouped") << " global " << C.Global[0]
              << " local " << C.Local[0] << " at " << X << ", " << Y;
        }
    }
  }
}

// A launch whose work-items write more than the last-level cache holds gets
// streaming stores from its third launch on (JitExecutable::HotLaunches):
// its aligned vector stores bypass the caches (StreamingStores.h). Its
// results are the same whatever the alignment of its arguments and of its
// groups' first ids; a store wrongly taken for aligned would fault.
// Launches that repeat a loop bound or a divisor get a copy of the kernel
// compiled with its value (ArgumentSpecialization.h), for at most
// Specialization::MaxArgumentSets sets of values. Through sequences that
// repeat values, change them every launch, come back to earlier ones and
// go past the limit, every launch computes with its own values.
TEST_F(Enqueue, LaunchesComputeWithTheirOwnArgumentValues) {
  cl_kernel K = kernel(R"(
    __kernel void sums(__global const uint *in, __global uint *out, uint count, uint modulus) {
      size_t i = get_global_id(0);
      uint s = 0;
      for (uint k = 0; k < count; ++k)
        s += in[(i + k) % modulus];
      out[i] = s;
    })",
                       "sums");
  constexpr size_t N = 1000, In = 64;
  std::vector<cl_uint> Host(In);
  for (size_t I = 0; I < In; ++I)
    Host[I] = cl_uint(I * 7 + 1);
  cl_mem InBuf = buffer(In * sizeof(cl_uint), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Host.data());
  cl_mem OutBuf = buffer(N * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf), CL_SUCCESS);
  // (count, modulus) a launch: each repeated to make it hot, changing every
  // launch, returning, then new ones past the limit of four.
  std::vector<std::pair<cl_uint, cl_uint>> Sequence;
  for (std::pair<cl_uint, cl_uint> V :
       {std::pair<cl_uint, cl_uint>{1, 64}, {5, 64}, {3, 7}, {0, 1}, {16, 33}, {2, 64}, {9, 5}})
    for (int R = 0; R < 5; ++R)
      Sequence.push_back(V);
  for (cl_uint I = 0; I < 12; ++I)
    Sequence.push_back({I % 5 + 1, 60 + I % 3});
  for (int R = 0; R < 5; ++R)
    Sequence.push_back({1, 64});
  const size_t Local = 40;
  for (size_t L = 0; L < Sequence.size(); ++L) {
    const auto [Count, Modulus] = Sequence[L];
    ASSERT_EQ(clSetKernelArg(K, 2, sizeof(cl_uint), &Count), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 3, sizeof(cl_uint), &Modulus), CL_SUCCESS);
    // Groups of Weft's choice, then of 40.
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, L % 2 ? &Local : nullptr, 0, nullptr,
                                     nullptr),
              CL_SUCCESS);
    const std::vector<cl_uint> Got = read<cl_uint>(OutBuf, N);
    size_t Wrong = 0, First = 0;
    for (size_t I = 0; I < N; ++I) {
      cl_uint Want = 0;
      for (cl_uint J = 0; J < Count; ++J)
        Want += Host[(I + J) % Modulus];
      if (Got[I] != Want && Wrong++ == 0)
        First = I;
    }
    ASSERT_EQ(Wrong, 0u) << "launch " << L << " (count " << Count << ", modulus " << Modulus
                         << "): first wrong element " << First;
  }
}

TEST_F(Enqueue, LaunchesLargerThanTheCacheStreamTheirStores) {
  cl_ulong Cache = 0;
  ASSERT_EQ(
      clGetDeviceInfo(Device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(Cache), &Cache, nullptr),
      CL_SUCCESS);
  cl_uint BaseAlignBits = 0;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(BaseAlignBits),
                            &BaseAlignBits, nullptr),
            CL_SUCCESS);
  const size_t BaseAlign = BaseAlignBits / 8;
  // More floats than the cache holds, and not a multiple of any vector.
  const size_t N = std::max<size_t>(Cache / sizeof(float), size_t(1) << 20) + 4099;
  cl_kernel Copy = kernel(R"(
    __kernel void copy(__global const float *a, __global float *c) {
      size_t i = get_global_id(0);
      c[i] = a[i] + 1.0f;
    })",
                          "copy", "-cl-std=CL2.0");
  std::vector<float> Host(N + 64);
  for (size_t I = 0; I < Host.size(); ++I)
    Host[I] = float(I % 4093);
  cl_mem In =
      buffer(Host.size() * sizeof(float), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Host.data());
  cl_mem Out = buffer((N + 64) * sizeof(float) + BaseAlign);
  const float Minus = -1.0f;
  auto clear = [&] {
    ASSERT_EQ(clEnqueueFillBuffer(Queue, Out, &Minus, sizeof(Minus), 0,
                                  (N + 64) * sizeof(float) + BaseAlign, 0, nullptr, nullptr),
              CL_SUCCESS);
  };
  // Four launches of Global items at Offset in groups of Local (0: Weft's
  // choice): Out[Offset + i] = In[Offset + i] + 1, the rest untouched.
  auto launch4 = [&](size_t Offset, size_t Global, size_t Local) {
    for (int I = 0; I < 4; ++I)
      ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Copy, 1, &Offset, &Global, Local ? &Local : nullptr,
                                       0, nullptr, nullptr),
                CL_SUCCESS);
    ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  };
  auto check = [&](const float *Got, const float *Src, size_t Offset, size_t Global,
                   const char *What) {
    size_t Wrong = 0, First = 0;
    for (size_t I = 0; I < N + 64; ++I) {
      const float Want = I >= Offset && I < Offset + Global ? Src[I] + 1.0f : -1.0f;
      if (Got[I] != Want && Wrong++ == 0)
        First = I;
    }
    EXPECT_EQ(Wrong, 0u) << What << ": first wrong element " << First;
  };

  ASSERT_EQ(clSetKernelArg(Copy, 0, sizeof(cl_mem), &In), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Copy, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
  // Aligned buffers, groups of 256 from 0.
  clear();
  launch4(0, N - 3, 256);
  check(read<float>(Out, N + 64).data(), Host.data(), 0, N - 3, "buffers, groups of 256");
  // Groups starting at odd ids: an offset of 5, groups of 64 and Weft's.
  clear();
  launch4(5, N, 64);
  check(read<float>(Out, N + 64).data(), Host.data(), 5, N, "an offset of 5");
  clear();
  launch4(0, N, 0);
  check(read<float>(Out, N + 64).data(), Host.data(), 0, N, "Weft's groups");

  // An aligned sub-buffer as the output (origin: the base address alignment).
  cl_buffer_region Region{BaseAlign, (N + 64) * sizeof(float)};
  cl_int Err;
  cl_mem Sub =
      clCreateSubBuffer(Out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &Region, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Copy, 1, sizeof(cl_mem), &Sub), CL_SUCCESS);
  clear();
  launch4(16, N, 16);
  check(read<float>(Sub, N + 64).data(), Host.data(), 16, N, "a sub-buffer");
  EXPECT_EQ(clReleaseMemObject(Sub), CL_SUCCESS);

  // The output a system SVM pointer one float past a cache line, the input
  // the aligned buffer: only the input is aligned.
  std::vector<float> SvmOut(N + 64 + 16);
  float *Off = SvmOut.data() + 1;
  while (reinterpret_cast<uintptr_t>(Off) % 64 != 4)
    ++Off;
  std::fill(SvmOut.begin(), SvmOut.end(), -1.0f);
  ASSERT_EQ(clSetKernelArg(Copy, 0, sizeof(cl_mem), &In), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(Copy, 1, Off), CL_SUCCESS);
  launch4(0, N, 256);
  check(Off, Host.data(), 0, N, "an SVM output one float off");
}

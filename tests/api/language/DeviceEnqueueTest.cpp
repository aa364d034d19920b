// Device-side enqueue through the ICD loader: device queues (creation
// rules, the default queue, queries, clSetDefaultDeviceCommandQueue) and
// kernels that enqueue kernels: enqueue_kernel in all its forms, ndrange_1D/
// 2D/3D with offsets and local sizes, the three flags and when a child may
// start, wait lists and returned events, device user events and markers,
// profiling capture, the block queries, blocks called as values, `__local`
// block arguments, recursion many levels deep and a parent whose thousands
// of work-items each enqueue children; the parent's event is Complete only
// when every descendant is.
#include "ApiTest.h"

#include <numeric>

using namespace weft::test;

namespace {

class DeviceEnqueue : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    cl_uint MaxSize = 0;
    ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(MaxSize), &MaxSize,
                              nullptr),
              CL_SUCCESS);
    cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                       CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_PROFILING_ENABLE,
                                   CL_QUEUE_SIZE, MaxSize, 0};
    cl_int Err;
    DeviceQueue = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
  }
  void TearDown() override {
    if (DeviceQueue)
      EXPECT_EQ(clReleaseCommandQueue(DeviceQueue), CL_SUCCESS);
    WithQueue::TearDown();
  }
  cl_kernel make(const std::string &Source, const char *Name) {
    return kernel(Source, Name, "-cl-std=CL2.0");
  }
  void run(cl_kernel K, size_t Global, size_t Local = 0, cl_event *Ev = nullptr) {
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, Local ? &Local : nullptr, 0,
                                     nullptr, Ev),
              CL_SUCCESS);
  }
  template <typename T> void setArg(cl_kernel K, cl_uint I, const T &V) {
    ASSERT_EQ(clSetKernelArg(K, I, sizeof(T), &V), CL_SUCCESS);
  }
  cl_mem zeros(size_t Ints) {
    std::vector<cl_int> Z(Ints, 0);
    return buffer(Ints * sizeof(cl_int), CL_MEM_COPY_HOST_PTR, Z.data());
  }
  /// Runs K, whose one argument is an output of Ints ints (zeroed first),
  /// over Global work-items in groups of Local; the output.
  std::vector<cl_int> runOnOutput(cl_kernel K, size_t Ints, size_t Global = 1, size_t Local = 1) {
    cl_mem Out = zeros(Ints);
    setArg(K, 0, Out);
    run(K, Global, Local);
    return read<cl_int>(Out, Ints);
  }
  cl_command_queue DeviceQueue = nullptr;
};

TEST_F(DeviceEnqueue, DeviceReportsDeviceQueuesAndOpenClC20) {
  cl_device_device_enqueue_capabilities Caps = 0;
  ASSERT_EQ(
      clGetDeviceInfo(Device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(Caps), &Caps, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(Caps, cl_device_device_enqueue_capabilities(CL_DEVICE_QUEUE_SUPPORTED |
                                                        CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT));
  cl_command_queue_properties Props = 0;
  ASSERT_EQ(
      clGetDeviceInfo(Device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(Props), &Props, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(Props, cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                               CL_QUEUE_PROFILING_ENABLE));
  // The full profile's minimums.
  const std::pair<cl_device_info, cl_uint> Minimums[] = {
      {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, 16u << 10},
      {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, 256u << 10},
      {CL_DEVICE_MAX_ON_DEVICE_QUEUES, 1},
      {CL_DEVICE_MAX_ON_DEVICE_EVENTS, 1024}};
  for (auto [Param, Min] : Minimums) {
    cl_uint V = 0;
    ASSERT_EQ(clGetDeviceInfo(Device, Param, sizeof(V), &V, nullptr), CL_SUCCESS);
    EXPECT_GE(V, Min) << Param;
  }
  std::string Version = infoString(clGetDeviceInfo, Device, CL_DEVICE_OPENCL_C_VERSION);
  EXPECT_EQ(Version.rfind("OpenCL C 2.0 ", 0), 0u) << Version;
  // CL_DEVICE_OPENCL_C_ALL_VERSIONS and -cl-std=CL2.0 agree
  // (Programs.OpenCLC20IsNotAcceptedWithoutDeviceSupport); every other test
  // here builds with -cl-std=CL2.0.
  // The feature macro and the device-enqueue types exist for OpenCL C 3.0.
  cl_kernel K = kernel(R"(
#ifndef __opencl_c_device_enqueue
#error no device enqueue
#endif
__kernel void k(__global int *o) { queue_t q = get_default_queue(); o[0] = q != 0; })",
                       "k", "-cl-std=CL3.0");
  ASSERT_NE(K, nullptr);
}

TEST_F(DeviceEnqueue, DeviceQueueCreationRulesAndQueries) {
  cl_int Err;
  // The default: created once, then returned again with its count raised.
  cl_queue_properties DefaultProps[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  cl_command_queue Again = clCreateCommandQueueWithProperties(Context, Device, DefaultProps, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(Again, DeviceQueue);
  cl_uint Count = 0;
  ASSERT_EQ(
      clGetCommandQueueInfo(DeviceQueue, CL_QUEUE_REFERENCE_COUNT, sizeof(Count), &Count, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(Count, 2u);
  EXPECT_EQ(clReleaseCommandQueue(Again), CL_SUCCESS);

  // A device queue with no size has the preferred size.
  cl_queue_properties Plain[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
  cl_command_queue Other = clCreateCommandQueueWithProperties(Context, Device, Plain, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_uint Size = 0, Preferred = 0, Max = 0;
  ASSERT_EQ(clGetCommandQueueInfo(Other, CL_QUEUE_SIZE, sizeof(Size), &Size, nullptr), CL_SUCCESS);
  clGetDeviceInfo(Device, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(Preferred), &Preferred,
                  nullptr);
  clGetDeviceInfo(Device, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(Max), &Max, nullptr);
  EXPECT_EQ(Size, Preferred);
  ASSERT_EQ(clGetCommandQueueInfo(DeviceQueue, CL_QUEUE_SIZE, sizeof(Size), &Size, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Size, Max);
  // Every queue names the default device queue; replacing it changes that.
  cl_command_queue Default = nullptr;
  ASSERT_EQ(
      clGetCommandQueueInfo(Queue, CL_QUEUE_DEVICE_DEFAULT, sizeof(Default), &Default, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(Default, DeviceQueue);
  ASSERT_EQ(clSetDefaultDeviceCommandQueue(Context, Device, Other), CL_SUCCESS);
  ASSERT_EQ(clGetCommandQueueInfo(DeviceQueue, CL_QUEUE_DEVICE_DEFAULT, sizeof(Default), &Default,
                                  nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Default, Other);
  ASSERT_EQ(clSetDefaultDeviceCommandQueue(Context, Device, DeviceQueue), CL_SUCCESS);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(Context, Device, Queue), CL_INVALID_COMMAND_QUEUE)
      << "a host queue cannot be the default device queue";
  EXPECT_EQ(clReleaseCommandQueue(Other), CL_SUCCESS);

  // The errors of creation.
  cl_queue_properties InOrder[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, Device, InOrder, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE) << "a device queue must be out-of-order";
  cl_queue_properties DefaultAlone[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, Device, DefaultAlone, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_queue_properties TooBig[] = {CL_QUEUE_PROPERTIES,
                                  CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                                  CL_QUEUE_SIZE, cl_queue_properties(Max) + 1, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, Device, TooBig, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);

  // The host enqueues nothing to a device queue.
  cl_mem B = buffer(16);
  int V = 0;
  EXPECT_EQ(clEnqueueWriteBuffer(DeviceQueue, B, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(DeviceQueue, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFinish(DeviceQueue), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFlush(DeviceQueue), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(DeviceEnqueue, ChildrenOfEveryFormRunAndCapture) {
  cl_kernel K = make(R"(
__kernel void parent(__global int *out, int bias) {
  size_t i = get_global_id(0);
  queue_t q = get_default_queue();
  // A captured value and pointer; a child with an event; __local arguments.
  int r0 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                          ^{ out[4 * i] = bias + (int)i; });
  clk_event_t e;
  int r1 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4, 4), 0, NULL, &e,
                          ^{ atomic_add(&out[4 * i + 1], (int)get_local_size(0)); });
  int r2 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 8),
                          ^(local void *a, local void *b) {
                            local int *x = a, *y = b;
                            x[get_local_id(0)] = (int)get_local_id(0);
                            y[get_local_id(0)] = 1;
                            barrier(CLK_LOCAL_MEM_FENCE);
                            if (get_local_id(0) == 0) {
                              int s = 0;
                              for (int j = 0; j < 8; ++j) s += x[j] + y[j];
                              out[4 * i + 2] = s;
                            }
                          }, 8u * sizeof(int), 8u * sizeof(int));
  int r3 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &e, NULL,
                          ^(local void *p) { ((local int *)p)[0] = 5; out[4 * i + 3] = ((local int *)p)[0]; },
                          4u);
  release_event(e);
  if (r0 | r1 | r2 | r3)
    out[4 * i] = -1000 + r0 + r1 + r2 + r3;
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  const size_t N = 64;
  cl_mem Out = zeros(4 * N);
  setArg(K, 0, Out);
  setArg(K, 1, cl_int(100));
  cl_event Ev;
  run(K, N, 16, &Ev);
  auto Got = read<cl_int>(Out, 4 * N);
  cl_int Status;
  ASSERT_EQ(clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status), &Status, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Status, CL_COMPLETE);
  clReleaseEvent(Ev);
  for (size_t I = 0; I < N; ++I) {
    EXPECT_EQ(Got[4 * I], 100 + cl_int(I)) << I;
    EXPECT_EQ(Got[4 * I + 1], 16) << I;
    EXPECT_EQ(Got[4 * I + 2], 28 + 8) << I;
    EXPECT_EQ(Got[4 * I + 3], 5) << I;
  }
}

TEST_F(DeviceEnqueue, NDRangesWithOffsetsLocalSizesAndNonUniformGroups) {
  cl_kernel K = make(R"(
__kernel void parent(__global int *out) {
  queue_t q = get_default_queue();
  size_t g2[2] = {5, 3}, l2[2] = {2, 3}, o2[2] = {10, 20};
  size_t g3[3] = {2, 3, 4}, l3[3] = {1, 3, 2}, o3[3] = {1, 2, 3};
  // 1D: offset 7, 10 items in groups of 4 (the last has 2).
  enqueue_kernel(q, 0, ndrange_1D(7, 10, 4), ^{
    atomic_add(&out[0], (int)get_global_id(0));
    atomic_add(&out[1], (int)get_local_size(0));
    atomic_max(&out[2], (int)get_enqueued_local_size(0));
  });
  enqueue_kernel(q, 0, ndrange_2D(o2, g2, l2), ^{
    atomic_add(&out[3], (int)(get_global_id(0) * 100 + get_global_id(1)));
    atomic_add(&out[4], (int)get_work_dim());
  });
  enqueue_kernel(q, 0, ndrange_3D(o3, g3, l3), ^{
    atomic_add(&out[5], (int)(get_global_id(0) + get_global_id(1) * 10 + get_global_id(2) * 100));
    atomic_add(&out[6], (int)get_global_linear_id());
  });
  enqueue_kernel(q, 0, ndrange_2D(g2), ^{ atomic_inc(&out[7]); });
  enqueue_kernel(q, 0, ndrange_3D(g3, l3), ^{ atomic_inc(&out[8]); });
  // Ranges a kernel cannot have.
  size_t bad[3] = {4, 0, 1};
  out[9] = enqueue_kernel(q, 0, ndrange_2D(bad), ^{ atomic_inc(&out[10]); });
  out[11] = enqueue_kernel(q, 0, ndrange_1D(16, 1 << 20), ^{ atomic_inc(&out[10]); });
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  auto Got = runOnOutput(K, 16);
  EXPECT_EQ(Got[0], 7 * 10 + 45);
  EXPECT_EQ(Got[1], 4 * 4 + 4 * 4 + 2 * 2);
  EXPECT_EQ(Got[2], 4);
  int Sum2 = 0;
  for (int X = 10; X < 15; ++X)
    for (int Y = 20; Y < 23; ++Y)
      Sum2 += X * 100 + Y;
  EXPECT_EQ(Got[3], Sum2);
  EXPECT_EQ(Got[4], 2 * 15);
  int Sum3 = 0;
  for (int X = 1; X < 3; ++X)
    for (int Y = 2; Y < 5; ++Y)
      for (int Z = 3; Z < 7; ++Z)
        Sum3 += X + Y * 10 + Z * 100;
  EXPECT_EQ(Got[5], Sum3);
  EXPECT_EQ(Got[6], 24 * 23 / 2) << "get_global_linear_id leaves the offset out";
  EXPECT_EQ(Got[7], 15);
  EXPECT_EQ(Got[8], 24);
  EXPECT_EQ(Got[9], -160) << "CLK_INVALID_NDRANGE for a zero size";
  EXPECT_EQ(Got[10], 0);
  EXPECT_EQ(Got[11], -160) << "CLK_INVALID_NDRANGE for a local size above the limit";
}

// A WAIT_KERNEL or WAIT_WORK_GROUP child reads what every work-group of its
// parent wrote after the enqueue; a NO_WAIT child behind a user event has
// not started when the parent looks.
TEST_F(DeviceEnqueue, FlagsSetWhenAChildMayStart) {
  cl_kernel K = make(R"(
__kernel void parent(__global int *data, __global int *res, __global int *seen) {
  size_t i = get_global_id(0), n = get_global_size(0);
  queue_t q = get_default_queue();
  if (i == 0) {
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(n), ^{
      size_t j = get_global_id(0);
      res[j] = data[j] == (int)j + 1 ? 1 : -1;
    });
  }
  if (get_local_id(0) == 0) {
    size_t g = get_group_id(0), l = get_local_size(0);
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(l), ^{
      size_t j = g * l + get_global_id(0);
      res[n + j] = data[j] == (int)j + 1 ? 1 : -1;
    });
    clk_event_t user = create_user_event();
    clk_event_t done;
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &user, &done,
                   ^{ atomic_inc(&seen[g]); });
    // The child waits for the user event: it cannot have run yet.
    for (int spin = 0; spin < 1000; ++spin)
      if (atomic_add(&seen[g], 0) != 0) break;
    seen[get_num_groups(0) + g] = atomic_add(&seen[g], 0);
    set_user_event_status(user, CL_COMPLETE);
    release_event(user);
    release_event(done);
  }
  // Written after the enqueues, by every work-group.
  data[i] = (int)i + 1;
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  const size_t N = 1024, L = 64, Groups = N / L;
  cl_mem Data = zeros(N), Res = zeros(2 * N), Seen = zeros(2 * Groups);
  setArg(K, 0, Data);
  setArg(K, 1, Res);
  setArg(K, 2, Seen);
  for (int Rep = 0; Rep < 4; ++Rep)
    run(K, N, L);
  auto Got = read<cl_int>(Res, 2 * N);
  EXPECT_EQ(std::count(Got.begin(), Got.end(), 1), long(2 * N));
  auto S = read<cl_int>(Seen, 2 * Groups);
  for (size_t G = 0; G < Groups; ++G) {
    EXPECT_EQ(S[G], 4) << "each NO_WAIT child ran once per launch";
    EXPECT_EQ(S[Groups + G], 3) << "the last launch's child had not run before its user event";
  }
}

TEST_F(DeviceEnqueue, EventsMarkersAndProfilingCapture) {
  cl_kernel K = make(R"(
__kernel void parent(__global int *order, __global ulong *times, __global int *ok) {
  queue_t q = get_default_queue();
  clk_event_t user = create_user_event();
  ok[0] = is_valid_event(user);
  ok[1] = is_valid_event(CLK_NULL_EVENT);
  clk_event_t a, m, b;
  enqueue_kernel(q, 0, ndrange_1D(1), 1, &user, &a, ^{ order[0] = atomic_inc(&order[3]) + 1; });
  capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, times);
  clk_event_t both[2] = {user, a};
  ok[2] = enqueue_marker(q, 2, both, &m);
  enqueue_kernel(q, 0, ndrange_1D(1), 1, &m, &b, ^{
    order[1] = atomic_inc(&order[3]) + 1;
    order[4] = times[0] > 0 && times[1] >= times[0];
  });
  ok[3] = enqueue_marker(q, 0, NULL, NULL);
  retain_event(b);
  release_event(b);
  set_user_event_status(user, CL_COMPLETE);
  release_event(user);
  release_event(a);
  release_event(m);
  release_event(b);
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  cl_mem Order = zeros(8), Times = zeros(4), Ok = zeros(4);
  setArg(K, 0, Order);
  setArg(K, 1, Times);
  setArg(K, 2, Ok);
  cl_event Ev;
  run(K, 1, 1, &Ev);
  auto O = read<cl_int>(Order, 8);
  EXPECT_EQ(O[0], 1);
  EXPECT_EQ(O[1], 2);
  EXPECT_EQ(O[4], 1) << "the child saw the captured profiling values";
  auto T = read<cl_ulong>(Times, 2);
  EXPECT_GT(T[0], 0u);
  EXPECT_GE(T[1], T[0]);
  auto Flags = read<cl_int>(Ok, 4);
  EXPECT_EQ(Flags[0], 1);
  EXPECT_EQ(Flags[1], 0);
  EXPECT_EQ(Flags[2], 0) << "enqueue_marker succeeded";
  EXPECT_EQ(Flags[3], -57) << "CLK_INVALID_EVENT_WAIT_LIST for a marker with no events";
  cl_ulong End = 0, Complete = 0;
  ASSERT_EQ(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_COMPLETE, sizeof(Complete), &Complete,
                                    nullptr),
            CL_SUCCESS);
  EXPECT_LE(End, Complete);
  clReleaseEvent(Ev);
}

TEST_F(DeviceEnqueue, BlockQueriesAndBlocksAsValues) {
  cl_kernel K = make(R"(
__kernel void parent(__global int *out) {
  queue_t q = get_default_queue();
  int k = 3;
  int (^triple)(int) = ^(int v) { return v * k; };
  out[0] = triple(7);
  void (^child)(void) = ^{ atomic_inc(&out[5]); };
  uint wg = get_kernel_work_group_size(child);
  uint mult = get_kernel_preferred_work_group_size_multiple(child);
  out[1] = wg;
  out[2] = mult;
  out[3] = wg > 0 && mult > 0 && mult <= wg;
  out[4] = enqueue_kernel(q, 0, ndrange_1D(4 * wg, wg), child);
  out[6] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(64, 32), child);
  out[7] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(64, 32), child);
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  auto Got = runOnOutput(K, 8);
  EXPECT_EQ(Got[0], 21);
  EXPECT_EQ(Got[3], 1) << Got[1] << " " << Got[2];
  EXPECT_EQ(Got[4], 0);
  EXPECT_EQ(Got[5], 4 * Got[1]);
  // The child's sub-groups are the size every kernel's are (the host's
  // query on the parent, for a group wider than any sub-group).
  size_t Wide = 1024, Width = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof(Wide), &Wide, sizeof(Width), &Width, nullptr),
            CL_SUCCESS);
  ASSERT_GE(Width, 4u);
  EXPECT_EQ(size_t(Got[6]), std::min<size_t>(32, Width));
  EXPECT_EQ(size_t(Got[7]), (32 + Width - 1) / Width);
}

// A block declared at program scope, called by a kernel and by a child
// (its literal is a constant of the program, not of a kernel's stack).
TEST_F(DeviceEnqueue, ProgramScopeBlocksAreCalledAndEnqueued) {
  cl_kernel K = make(R"(
int __constant scale = 7;
int (^__constant scaled)(int) = ^int(int v) { return scale * v * (1 + (int)get_global_id(0)); };
__kernel void parent(__global int *out) {
  size_t i = get_global_id(0);
  out[i] = scaled(3);
  if (i == 0)
    enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^{ out[8] = scaled(2); });
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  auto Got = runOnOutput(K, 9, 8, 4);
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Got[I], 21 * (1 + I));
  EXPECT_EQ(Got[8], 14);
}

// Recursion 12 levels deep, each level's two work-items enqueueing the
// next when their kernel has ended (4,095 child kernels); every descendant
// runs before the parent's event is Complete (the read after it sees every
// count).
TEST_F(DeviceEnqueue, RecursionManyLevelsDeep) {
  cl_kernel K = make(R"(
void level(queue_t q, __global int *counts, int depth, int max) {
  atomic_inc(&counts[depth]);
  if (depth + 1 < max)
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2),
                   ^{ level(q, counts, depth + 1, max); });
}
__kernel void parent(__global int *counts, int max) {
  level(get_default_queue(), counts, 0, max);
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  const int Depth = 13;
  cl_mem Counts = zeros(Depth);
  setArg(K, 0, Counts);
  setArg(K, 1, cl_int(Depth));
  cl_event Ev;
  run(K, 1, 1, &Ev);
  ASSERT_EQ(clWaitForEvents(1, &Ev), CL_SUCCESS);
  clReleaseEvent(Ev);
  auto Got = read<cl_int>(Counts, Depth);
  for (int D = 0; D < Depth; ++D)
    EXPECT_EQ(Got[D], 1 << D) << "level " << D;
}

// 50,000 work-items each enqueue a child that enqueues a grandchild:
// 100,000 child kernels in one launch, no worker ever waiting for one.
TEST_F(DeviceEnqueue, HundredThousandChildKernels) {
  cl_kernel K = make(R"(
__kernel void parent(__global int *counts) {
  atomic_inc(&counts[0]);
  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
    atomic_inc(&counts[1]);
    int r2 = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                            ^{ atomic_inc(&counts[2]); });
    if (r2) atomic_inc(&counts[3]);
  });
  if (r) atomic_inc(&counts[3]);
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  const size_t N = 50000;
  cl_mem Counts = zeros(4);
  setArg(K, 0, Counts);
  run(K, N, 100);
  auto Got = read<cl_int>(Counts, 4);
  EXPECT_EQ(Got[0], cl_int(N));
  EXPECT_EQ(Got[1], cl_int(N));
  EXPECT_EQ(Got[2], cl_int(N));
  EXPECT_EQ(Got[3], 0) << "no enqueue failed";
}

// A queue_t kernel argument names a device queue other than the default;
// a wait list may hold events of two device queues.
TEST_F(DeviceEnqueue, QueueArgumentsAndEventsAcrossDeviceQueues) {
  cl_kernel K = make(R"(
__kernel void parent(queue_t other, __global int *out) {
  clk_event_t a;
  enqueue_kernel(other, 0, ndrange_1D(1), 0, NULL, &a, ^{ out[0] = 1; });
  enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), 1, &a, NULL,
                 ^{ out[1] = out[0] + 1; });
  release_event(a);
})",
                     "parent");
  ASSERT_NE(K, nullptr);
  cl_int Err;
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
  cl_command_queue Other = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Out = zeros(2);
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_command_queue), &Queue), CL_INVALID_DEVICE_QUEUE)
      << "a host queue for a queue_t argument";
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_INVALID_DEVICE_QUEUE);
  setArg(K, 0, Other);
  setArg(K, 1, Out);
  run(K, 1, 1);
  auto Got = read<cl_int>(Out, 2);
  EXPECT_EQ(Got[0], 1);
  EXPECT_EQ(Got[1], 2);
  EXPECT_EQ(clReleaseCommandQueue(Other), CL_SUCCESS);
}

// The block kernels are the runtime's: the application sees its own.
TEST_F(DeviceEnqueue, BlockKernelsAreNotTheApplicationsKernels) {
  cl_program P = build(R"(
__kernel void parent(__global int *out) {
  enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^{ out[0] = 1; });
})",
                       "-cl-std=CL2.0");
  OwnedPrograms.push_back(P);
  cl_uint N = 0;
  ASSERT_EQ(clCreateKernelsInProgram(P, 0, nullptr, &N), CL_SUCCESS);
  EXPECT_EQ(N, 1u);
  EXPECT_EQ(infoString(clGetProgramInfo, P, CL_PROGRAM_KERNEL_NAMES), "parent");
  cl_int Err;
  EXPECT_EQ(clCreateKernel(P, "__parent_block_invoke_kernel", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_KERNEL_NAME);
}

} // namespace

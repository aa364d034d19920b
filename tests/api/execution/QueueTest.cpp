// Command queues: creation with and without properties, queries, reference
// counting, the ordering guarantees of in-order queues, and markers and
// barriers on out-of-order queues (checked with user events that hold a
// command back, so no test depends on timing), plus one negative test per
// error code of the queue entry points.
#include "ApiTest.h"

#include <chrono>
#include <thread>

using namespace weft::test;

namespace {

} // namespace

TEST_F(WithContext, QueueLifecycleAndInfo) {
  cl_int Err;
  cl_queue_properties Props[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue Q = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_context>(clGetCommandQueueInfo, Q, CL_QUEUE_CONTEXT), Context);
  EXPECT_EQ(info<cl_device_id>(clGetCommandQueueInfo, Q, CL_QUEUE_DEVICE), Device);
  EXPECT_EQ(info<cl_command_queue_properties>(clGetCommandQueueInfo, Q, CL_QUEUE_PROPERTIES),
            cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                        CL_QUEUE_PROFILING_ENABLE));
  size_t Size = 0;
  ASSERT_EQ(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &Size), CL_SUCCESS);
  ASSERT_EQ(Size, sizeof(Props));
  cl_queue_properties Got[3];
  ASSERT_EQ(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES_ARRAY, Size, Got, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::memcmp(Got, Props, sizeof(Props)), 0);
  EXPECT_EQ(info<cl_command_queue>(clGetCommandQueueInfo, Q, CL_QUEUE_DEVICE_DEFAULT), nullptr);
  cl_uint QueueSize;
  EXPECT_EQ(clGetCommandQueueInfo(Q, CL_QUEUE_SIZE, sizeof(QueueSize), &QueueSize, nullptr),
            CL_INVALID_COMMAND_QUEUE)
      << "CL_QUEUE_SIZE is an error on a host queue";

  EXPECT_EQ(info<cl_uint>(clGetCommandQueueInfo, Q, CL_QUEUE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainCommandQueue(Q), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetCommandQueueInfo, Q, CL_QUEUE_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetCommandQueueInfo, Q, CL_QUEUE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clFlush(Q), CL_SUCCESS);
  EXPECT_EQ(clFinish(Q), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);
}

TEST_F(WithContext, QueueWithoutProperties) {
  cl_int Err;
  cl_command_queue Q = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_command_queue_properties>(clGetCommandQueueInfo, Q, CL_QUEUE_PROPERTIES), 0u);
  size_t Size = 99;
  EXPECT_EQ(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &Size), CL_SUCCESS);
  EXPECT_EQ(Size, 0u);
  EXPECT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);

  // The OpenCL 1.x entry point.
  Q = clCreateCommandQueue(Context, Device, CL_QUEUE_PROFILING_ENABLE, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_command_queue_properties>(clGetCommandQueueInfo, Q, CL_QUEUE_PROPERTIES),
            cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
  EXPECT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);
}

TEST_F(WithContext, CreateQueueErrors) {
  cl_int Err = CL_SUCCESS;
  auto Fails = [&](cl_context C, cl_device_id D, const cl_queue_properties *P, cl_int Want) {
    cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, P, &Err);
    EXPECT_EQ(Q, nullptr);
    EXPECT_EQ(Err, Want);
    if (Q)
      clReleaseCommandQueue(Q);
  };
  Fails(wrongHandle<cl_context>(Device), Device, nullptr, CL_INVALID_CONTEXT);
  Fails(Context, wrongHandle<cl_device_id>(Context), nullptr, CL_INVALID_DEVICE);
  cl_queue_properties UnknownName[] = {0x7777, 0, 0};
  Fails(Context, Device, UnknownName, CL_INVALID_VALUE);
  cl_queue_properties UnknownBits[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 20, 0};
  Fails(Context, Device, UnknownBits, CL_INVALID_VALUE);
  cl_queue_properties InOrderOnDevice[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  Fails(Context, Device, InOrderOnDevice, CL_INVALID_VALUE);
  cl_queue_properties SizeOnHost[] = {CL_QUEUE_SIZE, 1024, 0};
  Fails(Context, Device, SizeOnHost, CL_INVALID_VALUE);
  cl_queue_properties Twice[] = {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0};
  Fails(Context, Device, Twice, CL_INVALID_VALUE);

  EXPECT_EQ(clCreateCommandQueue(Context, Device, cl_command_queue_properties(1) << 20, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateCommandQueue(wrongHandle<cl_context>(Device), Device, 0, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
}

TEST_F(WithQueue, QueueHandleErrors) {
  cl_command_queue NotQueue = wrongHandle<cl_command_queue>(Context);
  cl_uint V;
  EXPECT_EQ(clRetainCommandQueue(NotQueue), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clReleaseCommandQueue(NotQueue), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFlush(NotQueue), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFinish(NotQueue), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clGetCommandQueueInfo(NotQueue, CL_QUEUE_REFERENCE_COUNT, sizeof(V), &V, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clGetCommandQueueInfo(Queue, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetCommandQueueInfo(Queue, CL_QUEUE_REFERENCE_COUNT, 1, &V, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(NotQueue, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(NotQueue, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(Context, Device, Queue), CL_INVALID_COMMAND_QUEUE)
      << "a host queue cannot be the default device queue";
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(Context, Device, NotQueue), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(WithQueue, InOrderQueueRunsDependentCommandsInOrder) {
  // A chain of dependent commands with no events between them: each reads
  // what the one before wrote.
  const size_t N = 256;
  cl_kernel K = kernel(AddSource, "add");
  cl_mem A = buffer(N * sizeof(int)), B = buffer(N * sizeof(int));
  int Zero = 0;
  ASSERT_EQ(
      clEnqueueFillBuffer(Queue, A, &Zero, sizeof(Zero), 0, N * sizeof(int), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (int I = 1; I <= 50; ++I) {
    cl_mem From = I % 2 ? A : B, To = I % 2 ? B : A;
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &From), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &I), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyBuffer(Queue, From, To, 0, 0, N * sizeof(int), 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  // 1 + 2 + ... + 50 accumulated through the ping-pong.
  auto Got = read<int>(B, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], 50 * 51 / 2) << I;
}

class OutOfOrder : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    cl_int Err;
    cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    Ooo = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
    Gate = clCreateUserEvent(Context, &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
  }
  void TearDown() override {
    if (Gate) {
      // Never leave a command waiting on the gate.
      clSetUserEventStatus(Gate, CL_COMPLETE);
      EXPECT_EQ(clReleaseEvent(Gate), CL_SUCCESS);
    }
    if (Ooo) {
      EXPECT_EQ(clFinish(Ooo), CL_SUCCESS);
      EXPECT_EQ(clReleaseCommandQueue(Ooo), CL_SUCCESS);
    }
    WithQueue::TearDown();
  }
  /// A write of Value into M held back by the gate.
  cl_event gatedWrite(cl_mem M, const int *Value) {
    cl_event E = nullptr;
    EXPECT_EQ(clEnqueueWriteBuffer(Ooo, M, CL_FALSE, 0, sizeof(int), Value, 1, &Gate, &E),
              CL_SUCCESS);
    return E;
  }
  cl_command_queue Ooo = nullptr;
  cl_event Gate = nullptr;
};

TEST_F(OutOfOrder, IndependentCommandsDoNotWaitForEachOther) {
  cl_mem A = buffer(sizeof(int)), B = buffer(sizeof(int));
  const int One = 1, Two = 2;
  cl_event Held = gatedWrite(A, &One);
  cl_event Free;
  ASSERT_EQ(clEnqueueWriteBuffer(Ooo, B, CL_FALSE, 0, sizeof(int), &Two, 0, nullptr, &Free),
            CL_SUCCESS);
  // The second command does not wait for the first, held one.
  ASSERT_EQ(clWaitForEvents(1, &Free), CL_SUCCESS);
  EXPECT_GT(statusOf(Held), CL_COMPLETE);
  // A marker with a wait list waits only for what it lists.
  cl_event Marker;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Ooo, 1, &Free, &Marker), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Marker), CL_SUCCESS);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, Marker, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_MARKER));
  EXPECT_GT(statusOf(Held), CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Held), CL_SUCCESS);
  for (cl_event E : {Held, Free, Marker})
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(OutOfOrder, MarkerWithoutWaitListWaitsForEverythingBefore) {
  cl_mem A = buffer(sizeof(int));
  const int Seven = 7;
  cl_event Held = gatedWrite(A, &Seven);
  cl_event Marker;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, &Marker), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(statusOf(Marker), CL_COMPLETE) << "the marker passed a command still held back";
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Marker), CL_SUCCESS);
  EXPECT_EQ(statusOf(Held), CL_COMPLETE);
  EXPECT_EQ(clReleaseEvent(Held), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Marker), CL_SUCCESS);
}

// A marker waits for the commands before the previous marker through it:
// each marker depends on the last one and what came since, not on every
// pending command (regression: with a backlog of n commands and a marker
// every k, the dependencies grew as n^2 / k; a million commands from eight
// threads took 19 GiB and 168 s, StressTest's long run). The earlier
// marker is a dependency for order only: a command that failed before it
// does not fail the markers after it.
TEST_F(OutOfOrder, MarkersWaitForCommandsBeforeEarlierMarkers) {
  cl_mem A = buffer(sizeof(int)), B = buffer(sizeof(int));
  const int Seven = 7, Eight = 8;
  cl_event Held = gatedWrite(A, &Seven);
  cl_event First, Free, Second;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, &First), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(Ooo, B, CL_FALSE, 0, sizeof(int), &Eight, 0, nullptr, &Free),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, &Second), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Free), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(statusOf(Second), CL_COMPLETE) << "the second marker passed the held command";
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Second), CL_SUCCESS);
  EXPECT_EQ(statusOf(Held), CL_COMPLETE);
  EXPECT_EQ(statusOf(First), CL_COMPLETE);
  for (cl_event E : {Held, First, Free, Second})
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);

  // A failed command fails the marker after it, not a marker after that one.
  cl_int Err;
  cl_event Doom = clCreateUserEvent(Context, &Err);
  cl_event Failing, Third, Fourth;
  ASSERT_EQ(clEnqueueWriteBuffer(Ooo, A, CL_FALSE, 0, sizeof(int), &Seven, 1, &Doom, &Failing),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, &Third), CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, &Fourth), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(Doom, -7), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &Third), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(clWaitForEvents(1, &Fourth), CL_SUCCESS);
  for (cl_event E : {Doom, Failing, Third, Fourth})
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(OutOfOrder, BarrierOrdersCommandsOnBothSides) {
  cl_mem A = buffer(sizeof(int));
  const int Before = 11;
  cl_event Held = gatedWrite(A, &Before);
  cl_event Barrier;
  ASSERT_EQ(clEnqueueBarrierWithWaitList(Ooo, 0, nullptr, &Barrier), CL_SUCCESS);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, Barrier, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_BARRIER));
  // A read after the barrier, with no wait list of its own, must see the write.
  int Got = 0;
  cl_event Read;
  ASSERT_EQ(clEnqueueReadBuffer(Ooo, A, CL_FALSE, 0, sizeof(int), &Got, 0, nullptr, &Read),
            CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(statusOf(Read), CL_COMPLETE) << "a command overtook the barrier";
  EXPECT_EQ(Got, 0);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Read), CL_SUCCESS);
  EXPECT_EQ(Got, Before);
  for (cl_event E : {Held, Barrier, Read})
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(OutOfOrder, BarrierWithWaitListAndDeprecatedForms) {
  cl_mem A = buffer(sizeof(int));
  const int Value = 5;
  cl_event Held = gatedWrite(A, &Value);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(Ooo, 1, &Held, nullptr), CL_SUCCESS);
  cl_event Marker;
  ASSERT_EQ(clEnqueueMarker(Ooo, &Marker), CL_SUCCESS);
  EXPECT_EQ(clEnqueueMarker(Ooo, nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clEnqueueWaitForEvents(Ooo, 1, &Held), CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrier(Ooo), CL_SUCCESS);
  EXPECT_EQ(clEnqueueWaitForEvents(Ooo, 0, nullptr), CL_INVALID_VALUE);
  cl_event NotEvent = wrongHandle<cl_event>(Queue);
  EXPECT_EQ(clEnqueueWaitForEvents(Ooo, 1, &NotEvent), CL_INVALID_EVENT);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GT(statusOf(Marker), CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(Ooo), CL_SUCCESS);
  EXPECT_EQ(statusOf(Marker), CL_COMPLETE);
  int Got = 0;
  ASSERT_EQ(clEnqueueReadBuffer(Ooo, A, CL_TRUE, 0, sizeof(int), &Got, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Got, Value);
  EXPECT_EQ(clReleaseEvent(Held), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Marker), CL_SUCCESS);
}

TEST_F(OutOfOrder, ReleasedQueueStillRunsItsCommands) {
  cl_int Err;
  cl_command_queue Q = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem A = buffer(sizeof(int));
  const int Value = 42;
  cl_event E;
  ASSERT_EQ(clEnqueueWriteBuffer(Q, A, CL_FALSE, 0, sizeof(int), &Value, 1, &Gate, &E), CL_SUCCESS);
  ASSERT_EQ(clReleaseCommandQueue(Q), CL_SUCCESS);
  // The event still names its queue, which lives on while the command does.
  EXPECT_EQ(info<cl_command_queue>(clGetEventInfo, E, CL_EVENT_COMMAND_QUEUE), Q);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
  EXPECT_EQ(read<int>(A, 1)[0], Value);
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

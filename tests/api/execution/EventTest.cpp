// Events: user events that hold commands back and fail them, event
// callbacks for each status, profiling timestamps, waits across queues,
// and wait-list validation. (The many-thread stress test is StressTest.cpp.)
#include "ApiTest.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace weft::test;

namespace {

/// Spins (bounded) until Cond holds; callbacks may run on another thread
/// just after the status they report is visible.
template <typename F> bool eventually(F Cond) {
  for (int I = 0; I < 2000 && !Cond(); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return Cond();
}

struct CallbackRecord {
  std::atomic<int> Calls{0};
  std::atomic<cl_int> Status{12345};
  std::atomic<cl_event> Event{nullptr};
};

void CL_CALLBACK recordCallback(cl_event E, cl_int Status, void *Data) {
  auto *R = static_cast<CallbackRecord *>(Data);
  R->Status = Status;
  R->Event = E;
  R->Calls++;
}

class Events : public WithQueue {
protected:
  cl_event userEvent() {
    cl_int Err;
    cl_event E = clCreateUserEvent(Context, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    return E;
  }
};

} // namespace

TEST_F(Events, UserEventLifecycleAndInfo) {
  cl_event U = userEvent();
  EXPECT_EQ(statusOf(U), CL_SUBMITTED);
  EXPECT_EQ(info<cl_command_queue>(clGetEventInfo, U, CL_EVENT_COMMAND_QUEUE), nullptr);
  EXPECT_EQ(info<cl_context>(clGetEventInfo, U, CL_EVENT_CONTEXT), Context);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, U, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_USER));
  EXPECT_EQ(info<cl_uint>(clGetEventInfo, U, CL_EVENT_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainEvent(U), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetEventInfo, U, CL_EVENT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetEventInfo, U, CL_EVENT_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(statusOf(U), CL_COMPLETE);
  EXPECT_EQ(clWaitForEvents(1, &U), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, CommandEventInfo) {
  cl_mem M = buffer(16);
  int V = 3;
  cl_event E;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, sizeof(V), &V, 0, nullptr, &E), CL_SUCCESS);
  EXPECT_EQ(info<cl_command_queue>(clGetEventInfo, E, CL_EVENT_COMMAND_QUEUE), Queue);
  EXPECT_EQ(info<cl_context>(clGetEventInfo, E, CL_EVENT_CONTEXT), Context);
  EXPECT_EQ(info<cl_command_type>(clGetEventInfo, E, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_WRITE_BUFFER));
  EXPECT_EQ(statusOf(E), CL_COMPLETE) << "a blocking write returned before completing";
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(Events, EventHandleErrors) {
  cl_event NotEvent = wrongHandle<cl_event>(Queue);
  cl_uint V;
  EXPECT_EQ(clRetainEvent(NotEvent), CL_INVALID_EVENT);
  EXPECT_EQ(clReleaseEvent(NotEvent), CL_INVALID_EVENT);
  EXPECT_EQ(clGetEventInfo(NotEvent, CL_EVENT_REFERENCE_COUNT, sizeof(V), &V, nullptr),
            CL_INVALID_EVENT);
  EXPECT_EQ(clSetUserEventStatus(NotEvent, CL_COMPLETE), CL_INVALID_EVENT);
  EXPECT_EQ(clSetEventCallback(NotEvent, CL_COMPLETE, recordCallback, nullptr), CL_INVALID_EVENT);
  cl_ulong T;
  EXPECT_EQ(clGetEventProfilingInfo(NotEvent, CL_PROFILING_COMMAND_END, sizeof(T), &T, nullptr),
            CL_INVALID_EVENT);
  EXPECT_EQ(clWaitForEvents(1, &NotEvent), CL_INVALID_EVENT);
  cl_int Err;
  EXPECT_EQ(clCreateUserEvent(wrongHandle<cl_context>(Queue), &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);

  cl_event U = userEvent();
  EXPECT_EQ(clGetEventInfo(U, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetEventInfo(U, CL_EVENT_REFERENCE_COUNT, 1, &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(0, &U), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetEventCallback(U, CL_COMPLETE, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetEventCallback(U, CL_QUEUED, recordCallback, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetEventCallback(U, 77, recordCallback, nullptr), CL_INVALID_VALUE);
  // A status that is neither CL_COMPLETE nor negative.
  EXPECT_EQ(clSetUserEventStatus(U, CL_SUBMITTED), CL_INVALID_VALUE);
  EXPECT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  // The status can be set once.
  EXPECT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_INVALID_OPERATION);
  EXPECT_EQ(clSetUserEventStatus(U, -3), CL_INVALID_OPERATION);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);

  // Only user events take a status.
  cl_event Marker;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Queue, 0, nullptr, &Marker), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(Marker, CL_COMPLETE), CL_INVALID_EVENT);
  EXPECT_EQ(clReleaseEvent(Marker), CL_SUCCESS);
}

TEST_F(Events, WaitListErrors) {
  cl_mem M = buffer(16);
  int V = 0;
  cl_event U = userEvent();
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, 4, &V, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, 4, &V, 0, &U, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  cl_event Bad[] = {U, wrongHandle<cl_event>(M)};
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, 4, &V, 2, Bad, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(Queue, 2, Bad, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueBarrierWithWaitList(Queue, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);

  // An event of another context.
  cl_int Err;
  cl_context Other = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_event Foreign = clCreateUserEvent(Other, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, 4, &V, 1, &Foreign, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(Queue, 1, &Foreign, nullptr), CL_INVALID_CONTEXT);
  cl_event Mixed[] = {U, Foreign};
  EXPECT_EQ(clWaitForEvents(2, Mixed), CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetUserEventStatus(Foreign, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Foreign), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(Other), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, UserEventGatesACommand) {
  cl_mem M = buffer(sizeof(int));
  int Zero = 0, Value = 99;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, sizeof(int), &Zero, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_event U = userEvent();
  cl_event W;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, sizeof(int), &Value, 1, &U, &W),
            CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(statusOf(W), CL_RUNNING) << "the command ran before its user event completed";
  ASSERT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &W), CL_SUCCESS);
  EXPECT_EQ(read<int>(M, 1)[0], Value);
  EXPECT_EQ(clReleaseEvent(W), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, FailedUserEventFailsDependentCommands) {
  cl_mem M = buffer(sizeof(int));
  int Zero = 0, Value = 99;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, sizeof(int), &Zero, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_event U = userEvent();
  CallbackRecord OnUser;
  ASSERT_EQ(clSetEventCallback(U, CL_COMPLETE, recordCallback, &OnUser), CL_SUCCESS);
  cl_event W;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, sizeof(int), &Value, 1, &U, &W),
            CL_SUCCESS);
  CallbackRecord OnCommand;
  ASSERT_EQ(clSetEventCallback(W, CL_COMPLETE, recordCallback, &OnCommand), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(U, -42), CL_SUCCESS);
  EXPECT_EQ(statusOf(U), -42);
  EXPECT_EQ(clWaitForEvents(1, &W), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_LT(statusOf(W), 0);
  EXPECT_TRUE(eventually([&] { return OnUser.Calls == 1 && OnCommand.Calls == 1; }));
  EXPECT_EQ(OnUser.Status, -42) << "a CL_COMPLETE callback of a failed event gets its error";
  EXPECT_LT(OnCommand.Status, 0);
  EXPECT_EQ(OnCommand.Event, W);
  // A blocking command behind a failed event reports it.
  int Out = -1;
  EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, sizeof(int), &Out, 1, &U, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(Out, -1) << "a failed read copied data";

  // The failed write did not happen. (Checked through a second queue: what
  // an in-order queue does after a failed command is implementation-defined.)
  cl_int Err;
  cl_command_queue Fresh = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Fresh, M, CL_TRUE, 0, sizeof(int), &Out, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Out, 0);
  EXPECT_EQ(clReleaseCommandQueue(Fresh), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(W), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, CallbacksForEachStatus) {
  cl_mem M = buffer(sizeof(int));
  int Value = 5;
  cl_event U = userEvent();
  cl_event W;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, sizeof(int), &Value, 1, &U, &W),
            CL_SUCCESS);
  CallbackRecord Submitted, Running, Complete;
  ASSERT_EQ(clSetEventCallback(W, CL_SUBMITTED, recordCallback, &Submitted), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(W, CL_RUNNING, recordCallback, &Running), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(W, CL_COMPLETE, recordCallback, &Complete), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Running.Calls, 0) << "CL_RUNNING reported for a command still held back";
  EXPECT_EQ(Complete.Calls, 0);
  ASSERT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &W), CL_SUCCESS);
  EXPECT_TRUE(eventually(
      [&] { return Submitted.Calls == 1 && Running.Calls == 1 && Complete.Calls == 1; }));
  EXPECT_EQ(Submitted.Status, CL_SUBMITTED);
  EXPECT_EQ(Running.Status, CL_RUNNING);
  EXPECT_EQ(Complete.Status, CL_COMPLETE);
  EXPECT_EQ(Complete.Event, W);
  // Registered after the fact: called (once) anyway.
  CallbackRecord Late;
  ASSERT_EQ(clSetEventCallback(W, CL_COMPLETE, recordCallback, &Late), CL_SUCCESS);
  EXPECT_TRUE(eventually([&] { return Late.Calls == 1; }));
  EXPECT_EQ(Late.Status, CL_COMPLETE);
  EXPECT_EQ(clReleaseEvent(W), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, ReleasedEventStillCallsItsCallback) {
  cl_mem M = buffer(sizeof(int));
  int Value = 1;
  cl_event U = userEvent();
  cl_event W;
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, sizeof(int), &Value, 1, &U, &W),
            CL_SUCCESS);
  CallbackRecord Complete;
  ASSERT_EQ(clSetEventCallback(W, CL_COMPLETE, recordCallback, &Complete), CL_SUCCESS);
  ASSERT_EQ(clReleaseEvent(W), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_TRUE(eventually([&] { return Complete.Calls == 1; }));
  EXPECT_EQ(Complete.Status, CL_COMPLETE);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, ProfilingTimestampsAreOrdered) {
  cl_kernel K = kernel(AddSource, "add");
  const size_t N = 4096;
  cl_mem M = buffer(N * sizeof(int));
  int Amount = 1;
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &M), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Amount), CL_SUCCESS);
  std::vector<int> Host(N, 0);
  cl_event Events[4];
  ASSERT_EQ(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, N * sizeof(int), Host.data(), 0, nullptr,
                                 &Events[0]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, &Events[1]),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Queue, 0, nullptr, &Events[2]), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Queue, M, CL_FALSE, 0, N * sizeof(int), Host.data(), 0, nullptr,
                                &Events[3]),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(4, Events), CL_SUCCESS);
  cl_ulong PrevEnd = 0;
  for (cl_event E : Events) {
    cl_ulong T[5];
    cl_profiling_info Params[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                   CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                   CL_PROFILING_COMMAND_COMPLETE};
    for (int I = 0; I < 5; ++I)
      T[I] = info<cl_ulong>(clGetEventProfilingInfo, E, Params[I]);
    EXPECT_NE(T[0], 0u);
    for (int I = 0; I < 4; ++I)
      EXPECT_LE(T[I], T[I + 1]) << "profiling stage " << I;
    // In an in-order queue each command starts after the previous ended.
    EXPECT_LE(PrevEnd, T[2]);
    PrevEnd = T[3];
  }
  EXPECT_EQ(Host[0], 1);
  cl_ulong T;
  EXPECT_EQ(clGetEventProfilingInfo(Events[0], 0x7777, sizeof(T), &T, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetEventProfilingInfo(Events[0], CL_PROFILING_COMMAND_END, 1, &T, nullptr),
            CL_INVALID_VALUE);
  for (cl_event E : Events)
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
}

TEST_F(Events, ProfilingInfoNotAvailable) {
  cl_ulong T;
  // A user event.
  cl_event U = userEvent();
  EXPECT_EQ(clGetEventProfilingInfo(U, CL_PROFILING_COMMAND_QUEUED, sizeof(T), &T, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  // A command that has not completed.
  cl_event Marker;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Queue, 1, &U, &Marker), CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(Marker, CL_PROFILING_COMMAND_END, sizeof(T), &T, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  ASSERT_EQ(clSetUserEventStatus(U, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &Marker), CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(Marker, CL_PROFILING_COMMAND_END, sizeof(T), &T, nullptr),
            CL_SUCCESS);
  // A queue without CL_QUEUE_PROFILING_ENABLE.
  cl_int Err;
  cl_command_queue Plain = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_event E;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(Plain, 0, nullptr, &E), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_START, sizeof(T), &T, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(Plain), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Marker), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
}

TEST_F(Events, WaitForEventsAcrossTwoQueues) {
  cl_int Err;
  cl_command_queue Second = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_kernel K = kernel(AddSource, "add");
  cl_kernel K2 = clCloneKernel(K, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  const size_t N = 1024;
  cl_mem A = buffer(N * sizeof(int)), B = buffer(N * sizeof(int));
  int Zero = 0, Three = 3, Four = 4;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, A, &Zero, 4, 0, N * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(Queue, B, &Zero, 4, 0, N * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  cl_event U = userEvent();
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Three), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K2, 0, sizeof(cl_mem), &B), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K2, 1, sizeof(int), &Four), CL_SUCCESS);
  cl_event Done[2];
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 1, &U, &Done[0]), CL_SUCCESS);
  // The second queue's kernel waits for the first queue's one.
  ASSERT_EQ(clEnqueueNDRangeKernel(Second, K2, 1, nullptr, &N, nullptr, 1, &Done[0], &Done[1]),
            CL_SUCCESS);
  std::thread Releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    clSetUserEventStatus(U, CL_COMPLETE);
  });
  EXPECT_EQ(clWaitForEvents(2, Done), CL_SUCCESS);
  Releaser.join();
  for (cl_event E : Done)
    EXPECT_EQ(statusOf(E), CL_COMPLETE);
  auto GotA = read<int>(A, N), GotB = read<int>(B, N);
  for (size_t I = 0; I < N; ++I) {
    ASSERT_EQ(GotA[I], 3);
    ASSERT_EQ(GotB[I], 4);
  }
  for (cl_event E : Done)
    EXPECT_EQ(clReleaseEvent(E), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(U), CL_SUCCESS);
  EXPECT_EQ(clReleaseKernel(K2), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(Second), CL_SUCCESS);
}


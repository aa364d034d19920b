// Concurrency stress: eight host threads, each enqueuing thousands of
// kernels, copies and markers on their own queues, with cross-queue and
// cross-thread dependencies, a shared user event that holds everything back
// at the start and a failed user event whose dependents must all fail.
// Every copy's event also gets a completion callback. It passes when every
// event ends CL_COMPLETE or with the right negative status, every callback
// ran once, every result is right, and nothing deadlocks. (Leaks are
// checked by running it in the address-sanitizer build.)
//
// The test suite runs 1,200 iterations a thread (some 20,000 commands).
// The long run of docs/robustness.md sets WEFT_STRESS_ITERATIONS=62500
// (over a million commands) and also checks that resident memory stays
// flat once warm.
#include "ApiTest.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <thread>

using namespace weft::test;

namespace {

class Stress : public WithQueue {};

/// Resident memory of this process, in KiB.
long residentKiB() {
  std::ifstream Status("/proc/self/status");
  std::string Line;
  while (std::getline(Status, Line))
    if (Line.rfind("VmRSS:", 0) == 0)
      return std::atol(Line.c_str() + 6);
  return 0;
}

int iterations() {
  const char *V = std::getenv("WEFT_STRESS_ITERATIONS");
  int N = V ? std::atoi(V) : 0;
  return N >= 100 ? N / 100 * 100 : 1200;
}

void CL_CALLBACK countCompletion(cl_event, cl_int Status, void *Count) {
  if (Status == CL_COMPLETE)
    static_cast<std::atomic<int> *>(Count)->fetch_add(1);
}

TEST_F(Stress, EightThreadsThousandsOfCommands) {
  constexpr int Threads = 8, Width = 8, DoomedEvery = 100;
  const int Iterations = iterations();
  std::atomic<int> Callbacks{0};
  std::atomic<long> WarmKiB{0};
  cl_program P = build(AddSource);
  OwnedPrograms.push_back(P);
  cl_int Err;
  // Gate: every thread's first kernel waits for it, so thousands of
  // commands are queued before any runs. Poison: fails, and everything
  // that waits on it must fail with it.
  cl_event Gate = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_event Poison = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);

  std::atomic<int> Failures{0}, Enqueued{0};
  std::vector<std::vector<int>> Histories(Threads);
  std::vector<std::vector<cl_event>> Doomed(Threads);
  // Each thread publishes the event of its last copy; thread T's kernels
  // also wait on thread T-1's most recent copy (cross-thread dependency).
  std::vector<std::atomic<cl_event>> Published(Threads);
  for (auto &E : Published)
    E = nullptr;
  std::mutex PublishMutex;

  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T) {
    Pool.emplace_back([&, T] {
      auto Check = [&](cl_int E) {
        if (E != CL_SUCCESS)
          Failures++;
      };
      cl_int E;
      cl_command_queue KQ = clCreateCommandQueueWithProperties(Context, Device, nullptr, &E);
      Check(E);
      cl_queue_properties Ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
      cl_command_queue CQ = clCreateCommandQueueWithProperties(Context, Device, Ooo, &E);
      Check(E);
      cl_kernel K = clCreateKernel(P, "add", &E);
      Check(E);
      cl_mem Counter = clCreateBuffer(Context, CL_MEM_READ_WRITE, Width * 4, nullptr, &E);
      Check(E);
      cl_mem History = clCreateBuffer(Context, CL_MEM_READ_WRITE, Iterations * 4, nullptr, &E);
      Check(E);
      cl_mem Scratch = clCreateBuffer(Context, CL_MEM_READ_WRITE, Width * 4, nullptr, &E);
      Check(E);
      int Zero = 0, One = 1;
      Check(clEnqueueFillBuffer(KQ, Counter, &Zero, 4, 0, Width * 4, 0, nullptr, nullptr));
      Check(clSetKernelArg(K, 0, sizeof(cl_mem), &Counter));
      Check(clSetKernelArg(K, 1, sizeof(int), &One));
      const size_t Global = Width;
      cl_event LastCopy = nullptr;
      // The host keeps at most Window iterations ahead of the device, as a
      // real producer would: the backlog, and so the memory, stays bounded,
      // and what grows from then on is a leak.
      constexpr size_t Window = 512;
      std::deque<cl_event> InFlight;
      for (int I = 0; I < Iterations; ++I) {
        std::vector<cl_event> Wait;
        if (I == 0)
          Wait.push_back(Gate);
        if (LastCopy)
          Wait.push_back(LastCopy);
        cl_event Neighbour = nullptr;
        {
          std::lock_guard<std::mutex> Lock(PublishMutex);
          Neighbour = Published[(T + Threads - 1) % Threads].load();
          if (Neighbour)
            Check(clRetainEvent(Neighbour));
        }
        if (Neighbour)
          Wait.push_back(Neighbour);
        cl_event Kernel;
        Check(clEnqueueNDRangeKernel(KQ, K, 1, nullptr, &Global, nullptr, cl_uint(Wait.size()),
                                     Wait.data(), &Kernel));
        if (Neighbour)
          Check(clReleaseEvent(Neighbour));
        cl_event Copy;
        Check(clEnqueueCopyBuffer(CQ, Counter, History, 0, I * 4, 4, 1, &Kernel, &Copy));
        Check(clSetEventCallback(Copy, CL_COMPLETE, countCompletion, &Callbacks));
        Check(clRetainEvent(Copy));
        InFlight.push_back(Copy);
        if (InFlight.size() > Window) {
          // Fails only before the gate opens, which happens long before.
          Check(clWaitForEvents(1, &InFlight.front()));
          Check(clReleaseEvent(InFlight.front()));
          InFlight.pop_front();
        }
        if (T == 0 && I == Iterations / 10)
          WarmKiB = residentKiB();
        if (LastCopy)
          Check(clReleaseEvent(LastCopy));
        if (I % 50 == 49)
          Check(clEnqueueMarkerWithWaitList(CQ, 0, nullptr, nullptr));
        if (I % DoomedEvery == 0) {
          // A copy gated by the poisoned event, and a marker behind it.
          cl_event D1, D2;
          Check(clEnqueueCopyBuffer(CQ, Counter, Scratch, 0, 0, 4, 1, &Poison, &D1));
          Check(clEnqueueMarkerWithWaitList(CQ, 1, &D1, &D2));
          Doomed[T].push_back(D1);
          Doomed[T].push_back(D2);
        }
        Check(clReleaseEvent(Kernel));
        LastCopy = Copy;
        {
          std::lock_guard<std::mutex> Lock(PublishMutex);
          cl_event Old = Published[T].exchange(Copy);
          Check(clRetainEvent(Copy));
          if (Old)
            Check(clReleaseEvent(Old));
        }
        Enqueued++;
      }
      Check(clWaitForEvents(1, &LastCopy));
      Check(clReleaseEvent(LastCopy));
      for (cl_event E : InFlight)
        Check(clReleaseEvent(E));
      Histories[T].resize(Iterations);
      Check(clEnqueueReadBuffer(KQ, History, CL_TRUE, 0, Iterations * 4, Histories[T].data(), 1,
                                &Gate, nullptr));
      Check(clFinish(CQ));
      Check(clReleaseMemObject(Scratch));
      Check(clReleaseMemObject(History));
      Check(clReleaseMemObject(Counter));
      Check(clReleaseKernel(K));
      Check(clReleaseCommandQueue(CQ));
      Check(clReleaseCommandQueue(KQ));
    });
  }
  // Let a good part of the work pile up behind the gate, then open it and
  // fail the poison.
  while (Enqueued < Threads * 50)
    std::this_thread::yield();
  EXPECT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(Poison, -1234), CL_SUCCESS);
  for (auto &Th : Pool)
    Th.join();

  EXPECT_EQ(Failures, 0);
  // Callbacks may still be running on the pool after the last wait.
  const auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (Callbacks < Threads * Iterations && std::chrono::steady_clock::now() < Deadline)
    std::this_thread::yield();
  EXPECT_EQ(Callbacks, Threads * Iterations) << "every copy's completion callback, once";
  const long EndKiB = residentKiB();
  std::printf("stress: %d commands; resident %ld KiB when warm, %ld KiB at the end\n",
              Threads * Iterations * 2 + Threads * (Iterations / 50 + 2 * Iterations / DoomedEvery),
              long(WarmKiB), EndKiB);
  if (Iterations >= 10000) { // flat: what grows with the run is its own output (History)
    EXPECT_LT(EndKiB, WarmKiB + 64 * 1024 + long(Threads) * Iterations * 4 / 1024);
  }
  for (int T = 0; T < Threads; ++T) {
    for (int I = 0; I < Iterations; ++I)
      ASSERT_EQ(Histories[T][I], I + 1) << "thread " << T << " iteration " << I;
    ASSERT_EQ(Doomed[T].size(), size_t(2 * Iterations / DoomedEvery));
    for (cl_event D : Doomed[T]) {
      EXPECT_EQ(clWaitForEvents(1, &D), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      cl_int Status = info<cl_int>(clGetEventInfo, D, CL_EVENT_COMMAND_EXECUTION_STATUS);
      EXPECT_EQ(Status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      EXPECT_EQ(clReleaseEvent(D), CL_SUCCESS);
    }
    cl_event Last = Published[T].exchange(nullptr);
    EXPECT_EQ(info<cl_int>(clGetEventInfo, Last, CL_EVENT_COMMAND_EXECUTION_STATUS), CL_COMPLETE);
    EXPECT_EQ(clReleaseEvent(Last), CL_SUCCESS);
  }
  EXPECT_EQ(clReleaseEvent(Gate), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Poison), CL_SUCCESS);
}

} // namespace

// The OpenCL 2.x memory model across the host-device boundary: a kernel and
// host threads working on the same fine-grained SVM memory *at the same
// time*, with memory_scope_all_svm_devices atomics. Atomic updates from
// both sides lose nothing; a release store on one side makes plain writes
// before it visible to an acquire load on the other, in both directions;
// and the two sides can hand a value back and forth many times while the
// kernel runs.
//
// Every wait is bounded (an iteration limit in the kernel, a deadline on
// the host), so a broken runtime fails these tests instead of hanging them.
#include "ApiTest.h"

#include <chrono>
#include <thread>

using namespace weft::test;

namespace {

const char *Kernels = R"CLC(
#define SPIN_LIMIT (1L << 31)
#define SCOPE memory_scope_all_svm_devices

// Waits until *flag holds want (acquire); whether it did within the limit.
bool await(volatile __global atomic_int *flag, int want) {
  for (long spin = 0; spin < SPIN_LIMIT; ++spin)
    if (atomic_load_explicit(flag, memory_order_acquire, SCOPE) == want)
      return true;
  return false;
}

// Every work-item adds 1 to *counter iters times; work-item 0 first waits
// for the host threads to start, so both sides surely run at once.
__kernel void hammer(volatile __global atomic_int *counter,
                     volatile __global atomic_int *host_started,
                     __global int *saw_host, int iters) {
  if (get_global_id(0) == 0)
    *saw_host = await(host_started, 1);
  for (int i = 0; i < iters; ++i)
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, SCOPE);
}

// Kernel -> host: plain writes, then a release store of flags[0]. Host ->
// kernel: an acquire load of flags[1], then plain reads of what the host
// wrote before its release store.
__kernel void exchange(__global int *to_host, __global const int *from_host,
                       volatile __global atomic_int *flags, __global int *result, int n) {
  for (int i = 0; i < n; ++i)
    to_host[i] = 3 * i + 1;
  atomic_store_explicit(&flags[0], 1, memory_order_release, SCOPE);
  int seen = await(&flags[1], 1);
  int bad = 0;
  for (int i = 0; seen && i < n; ++i)
    bad += from_host[i] != 5 * i + 2;
  result[0] = seen;
  result[1] = bad;
}

// Ping-pong: the kernel turns every even value of *ball into the next odd
// one, the host every odd into the next even, rounds times each.
__kernel void ping(volatile __global atomic_int *ball, __global int *missed, int rounds) {
  int miss = 0;
  for (int r = 0; r < rounds && !miss; ++r) {
    miss = !await(ball, 2 * r);
    atomic_store_explicit(ball, 2 * r + 1, memory_order_release, SCOPE);
  }
  *missed = miss;
}
)CLC";

using Clock = std::chrono::steady_clock;

/// Spins until *Flag == Want (acquire) or the deadline passes.
bool awaitOnHost(int *Flag, int Want, std::chrono::seconds Limit = std::chrono::seconds(60)) {
  const auto Deadline = Clock::now() + Limit;
  while (__atomic_load_n(Flag, __ATOMIC_ACQUIRE) != Want)
    if (Clock::now() > Deadline)
      return false;
  return true;
}

class SvmConcurrency : public WithSvm {
protected:
  /// Zeroed fine-grained SVM with atomics, freed at TearDown.
  int *shared(size_t Count) {
    int *P = alloc<int>(Count * sizeof(int),
                        CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS);
    if (P)
      std::memset(P, 0, Count * sizeof(int));
    return P;
  }
  cl_kernel make(const char *Name) { return kernel(Kernels, Name, "-cl-std=CL3.0"); }
};

} // namespace

TEST_F(SvmConcurrency, HostThreadsAndKernelAddAtomicallyWithoutLosingAnUpdate) {
  int *Counter = shared(1), *HostStarted = shared(1), *SawHost = shared(1);
  cl_kernel K = make("hammer");
  const int Iters = 200, HostThreads = 2, HostIters = 200000;
  const size_t Global = 4096, Local = 64;
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, Counter), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, HostStarted), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 2, SawHost), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 3, sizeof(int), &Iters), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFlush(Queue), CL_SUCCESS);
  std::vector<std::thread> Threads;
  for (int T = 0; T < HostThreads; ++T)
    Threads.emplace_back([&] {
      __atomic_store_n(HostStarted, 1, __ATOMIC_RELEASE);
      for (int I = 0; I < HostIters; ++I)
        __atomic_fetch_add(Counter, 1, __ATOMIC_RELAXED);
    });
  for (auto &T : Threads)
    T.join();
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(*SawHost, 1) << "the kernel never saw the host threads start";
  EXPECT_EQ(*Counter, int(Global) * Iters + HostThreads * HostIters);
}

TEST_F(SvmConcurrency, ReleaseAcquireMakesPlainWritesVisibleInBothDirections) {
  const int N = 10000;
  int *ToHost = shared(N), *FromHost = shared(N), *Flags = shared(2), *Result = shared(2);
  cl_kernel K = make("exchange");
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, ToHost), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, FromHost), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 2, Flags), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 3, Result), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 4, sizeof(int), &N), CL_SUCCESS);
  cl_event Run;
  ASSERT_EQ(clEnqueueTask(Queue, K, 0, nullptr, &Run), CL_SUCCESS);
  ASSERT_EQ(clFlush(Queue), CL_SUCCESS);

  // Kernel -> host, read while the kernel is still running (it waits for
  // flags[1], which only the host sets below).
  ASSERT_TRUE(awaitOnHost(&Flags[0], 1)) << "the kernel's release store never arrived";
  EXPECT_NE(statusOf(Run), CL_COMPLETE);
  int BadOnHost = 0;
  for (int I = 0; I < N; ++I)
    BadOnHost += ToHost[I] != 3 * I + 1;
  EXPECT_EQ(BadOnHost, 0);

  // Host -> kernel.
  for (int I = 0; I < N; ++I)
    FromHost[I] = 5 * I + 2;
  __atomic_store_n(&Flags[1], 1, __ATOMIC_RELEASE);
  ASSERT_EQ(clWaitForEvents(1, &Run), CL_SUCCESS);
  EXPECT_EQ(Result[0], 1) << "the host's release store never arrived";
  EXPECT_EQ(Result[1], 0) << "plain writes before the release were not visible";
  clReleaseEvent(Run);
}

TEST_F(SvmConcurrency, HostAndKernelPassAValueBackAndForth) {
  const int Rounds = 2000;
  int *Ball = shared(1), *Missed = shared(1);
  cl_kernel K = make("ping");
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 0, Ball), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(K, 1, Missed), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, sizeof(int), &Rounds), CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(Queue, K, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFlush(Queue), CL_SUCCESS);
  int Round = 0;
  for (; Round < Rounds; ++Round) {
    if (!awaitOnHost(Ball, 2 * Round + 1))
      break;
    __atomic_store_n(Ball, 2 * Round + 2, __ATOMIC_RELEASE);
  }
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(Round, Rounds) << "the kernel's value stopped arriving";
  EXPECT_EQ(*Missed, 0) << "the host's value stopped arriving";
  EXPECT_EQ(*Ball, 2 * Rounds);
}

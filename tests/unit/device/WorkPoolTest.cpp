// The CPU device's work pool: where small work runs (CpuDevice.h). A host
// thread that waits runs ready work itself; work that a job's end makes
// Ready runs next on that job's thread.
#include "device/cpu/CpuDevice.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

/// Spins until Pred holds or ten seconds pass; whether it held.
template <typename P> bool eventually(P Pred) {
  const auto Until = std::chrono::steady_clock::now() + 10s;
  while (!Pred()) {
    if (std::chrono::steady_clock::now() > Until)
      return false;
    std::this_thread::sleep_for(100us);
  }
  return true;
}

/// Runs one item and returns as soon as it ran, without sleeping: the
/// worker that ran it lingers (polls the ready list) for 50 us after.
void wakeALingeringWorker(weft::cpu::CpuDevice &Dev) {
  std::atomic<bool> Ran{false};
  Dev.run([&] { Ran = true; });
  while (!Ran)
    std::this_thread::yield();
}

/// Keeps every worker of a device inside a job until release().
class BusyWorkers {
public:
  explicit BusyWorkers(weft::cpu::CpuDevice &Dev) : Units(Dev.properties().ComputeUnits) {
    for (unsigned I = 0; I < Units; ++I)
      Dev.run([this] {
        std::unique_lock<std::mutex> Lock(Mutex);
        ++Started;
        Cv.notify_all();
        Cv.wait(Lock, [this] { return Released; });
        ++Finished;
        Cv.notify_all();
      });
    std::unique_lock<std::mutex> Lock(Mutex);
    AllStarted = Cv.wait_for(Lock, 10s, [this] { return Started == Units; });
  }
  ~BusyWorkers() {
    std::unique_lock<std::mutex> Lock(Mutex);
    Released = true;
    Cv.notify_all();
    Cv.wait(Lock, [this] { return Finished == Started; });
  }
  bool allStarted() const { return AllStarted; }

private:
  const unsigned Units;
  std::mutex Mutex;
  std::condition_variable Cv;
  unsigned Started = 0, Finished = 0;
  bool Released = false, AllStarted = false;
};

/// Records a job in parts: when it started and ended, and each part.
class PartsObserver : public weft::rt::LaunchObserver {
public:
  explicit PartsObserver(size_t Parts) : Ran(Parts) {}
  void launchStarted() override { Started.fetch_add(1); }
  void launchEnded(weft::rt::Status) override {
    EndedAfter = 0;
    for (auto &R : Ran)
      EndedAfter += R.load();
    Ended.fetch_add(1);
  }
  void part(size_t I) {
    // Every part runs after the start and before the end.
    if (Started.load() != 1 || Ended.load() != 0)
      Misplaced.fetch_add(1);
    Ran[I].fetch_add(1);
  }
  std::vector<std::atomic<unsigned>> Ran;
  std::atomic<unsigned> Started{0}, Ended{0}, Misplaced{0};
  unsigned EndedAfter = 0;
};

TEST(WorkPool, APartedJobRunsEachPartOnceBetweenItsStartAndEnd) {
  weft::cpu::CpuDevice Dev;
  for (size_t Parts : {size_t(1), size_t(2), size_t(9)}) {
    auto Observer = std::make_shared<PartsObserver>(Parts);
    PartsObserver *O = Observer.get();
    Dev.runParts(
        Parts, [O](size_t I) { O->part(I); }, Observer);
    ASSERT_TRUE(eventually([&] { return O->Ended.load() == 1; })) << Parts;
    EXPECT_EQ(O->Started.load(), 1u);
    EXPECT_EQ(O->Misplaced.load(), 0u);
    EXPECT_EQ(O->EndedAfter, Parts);
    for (size_t I = 0; I < Parts; ++I)
      EXPECT_EQ(O->Ran[I].load(), 1u) << I;
  }
}

TEST(WorkPool, AWaitingHostThreadRunsReadyWorkItself) {
  weft::cpu::CpuDevice Dev;
  BusyWorkers Busy(Dev);
  ASSERT_TRUE(Busy.allStarted()) << "every worker should have taken a job";
  // No worker is free: only the waiting thread can run this.
  std::atomic<bool> Done{false};
  std::thread::id RanOn;
  Dev.run([&] {
    RanOn = std::this_thread::get_id();
    Done = true;
  });
  Dev.runReadyWorkUntil([&] { return Done.load(); });
  ASSERT_TRUE(Done.load());
  EXPECT_EQ(RanOn, std::this_thread::get_id());
}

TEST(WorkPool, WorkAJobsEndMakesReadyRunsNextOnItsThread) {
  weft::cpu::CpuDevice Dev;
  if (Dev.properties().ComputeUnits < 2)
    GTEST_SKIP() << "one worker runs everything in order anyway";
  std::atomic<bool> FirstEnded{false}, SawFirstEnded{false}, Done{false};
  std::thread::id First, Second;
  Dev.run([&] {
    First = std::this_thread::get_id();
    // As an in-order queue's next command is, at the end of this one. A
    // free worker would have time to take it before this job returns.
    Dev.run([&] {
      Second = std::this_thread::get_id();
      SawFirstEnded = FirstEnded.load();
      Done = true;
    });
    std::this_thread::sleep_for(20ms);
    FirstEnded = true;
  });
  ASSERT_TRUE(eventually([&] { return Done.load(); }));
  EXPECT_EQ(Second, First);
  EXPECT_TRUE(SawFirstEnded.load()) << "the second job ran before the first returned";
}

/// A one-work-group kernel of the tests below: it records the thread it ran
/// on, and runs 200 us when Slow is set.
struct TimedKernel {
  static inline std::atomic<bool> Slow{false};
  static inline std::thread::id RanOn;
  static void fn(void *const *, weft::rt::WorkGroupContext *) {
    RanOn = std::this_thread::get_id();
    if (Slow)
      std::this_thread::sleep_for(200us);
  }
};

/// Counts the launches that ended.
class EndCounter : public weft::rt::LaunchObserver {
public:
  void launchStarted() override {}
  void launchEnded(weft::rt::Status) override { Ended.fetch_add(1); }
  std::atomic<unsigned> Ended{0};
};

// A launch of one work-group whose kernel cannot wait, and one of whose
// last two launches was brief, runs on the host thread that makes it Ready
// (CpuDevice.cpp, "on the spot"): one slow launch (a timer tick in a
// stream of tiny kernels) does not send the next to the pool, two in a row
// do. (A brief launch measured long on a loaded machine throws the
// sequence off: it is tried again.)
TEST(WorkPool, OneSlowLaunchDoesNotSendABriefKernelToThePool) {
  weft::cpu::CpuDevice Dev;
  std::atomic<uint64_t> Record{UINT64_MAX};
  auto Observer = std::make_shared<EndCounter>();
  // Launches Slow or not; whether it ran on this thread inside launch().
  auto launch = [&](bool Slow) {
    auto L = std::make_shared<weft::rt::KernelLaunch>();
    L->Fn = &TimedKernel::fn;
    L->RunNanos = &Record;
    TimedKernel::Slow = Slow;
    TimedKernel::RanOn = {};
    const unsigned Before = Observer->Ended.load();
    Dev.launch(L, Observer);
    const bool Here =
        Observer->Ended.load() == Before + 1 && TimedKernel::RanOn == std::this_thread::get_id();
    Dev.runReadyWorkUntil([&] { return Observer->Ended.load() == Before + 1; });
    EXPECT_TRUE(eventually([&] { return Observer->Ended.load() == Before + 1; }));
    return Here;
  };
  bool Shown = false;
  for (int Attempt = 0; Attempt < 20 && !Shown; ++Attempt) {
    launch(false); // the first goes to the pool, and records a brief run
    const bool Brief = launch(false);
    const bool Slow = launch(true);
    const bool AfterOneSlow = launch(false);
    launch(true);
    launch(true);
    EXPECT_FALSE(launch(false)) << "both of the last two launches were slow";
    Shown = Brief && Slow && AfterOneSlow;
    Record = UINT64_MAX;
  }
  EXPECT_TRUE(Shown) << "a brief kernel went to the pool after one slow launch, every time";
}

// A launch a worker runs leaves the worker its scratch (the __local arena,
// the collectives' gather space), which it keeps for its next launch; the
// worker outlives main(). In the sanitizer builds, LeakSanitizer checks at
// this process's exit that the scratch is still reachable: it reported it
// as leaked while only the worker's thread-local storage held it.
TEST(WorkPool, ALaunchAWorkerRanLeavesItsScratchReachable) {
  weft::cpu::CpuDevice Dev;
  std::atomic<uint64_t> Record{UINT64_MAX}; // never run: to the pool
  auto Observer = std::make_shared<EndCounter>();
  auto L = std::make_shared<weft::rt::KernelLaunch>();
  L->Fn = &TimedKernel::fn;
  L->RunNanos = &Record;
  TimedKernel::Slow = false;
  Dev.launch(L, Observer);
  // Not waiting in the pool's sense (runReadyWorkUntil): a worker runs it.
  ASSERT_TRUE(eventually([&] { return Observer->Ended.load() == 1; }));
  EXPECT_NE(TimedKernel::RanOn, std::this_thread::get_id());
}

// A worker that lingers on the ready list (CpuDevice.h) and takes a job
// that runs long does not keep the work posted meanwhile from the other
// workers: a job that waits for a later one finishes.
TEST(WorkPool, ALongJobOfTheLingeringWorkerHoldsNoLaterWorkBack) {
  weft::cpu::CpuDevice Dev;
  if (Dev.properties().ComputeUnits < 2)
    GTEST_SKIP() << "no worker lingers with one compute unit";
  std::atomic<bool> Started{false}, SawLater{false}, Ended{false}, Later{false};
  wakeALingeringWorker(Dev);
  Dev.run([&] {
    Started = true;
    const auto Until = std::chrono::steady_clock::now() + 5s;
    while (!Later && std::chrono::steady_clock::now() < Until)
      std::this_thread::yield();
    SawLater = Later.load();
    Ended = true;
  });
  ASSERT_TRUE(eventually([&] { return Started.load(); }));
  Dev.run([&] { Later = true; });
  ASSERT_TRUE(eventually([&] { return Ended.load(); }));
  EXPECT_TRUE(SawLater.load()) << "the later job waited for the long one";
}

// A lingering worker leaves a lone item to the host threads while they keep
// enqueuing: the host that then waits runs it itself. (A host descheduled
// for longer than the grace, on a loaded machine, loses it to the worker:
// the attempt is made again.) Once the host is quiet, the worker runs it
// without anyone waiting.
TEST(WorkPool, WorkIsLeftToAHostThatKeepsEnqueuingAndRunOnceItIsQuiet) {
  weft::cpu::CpuDevice Dev;
  if (Dev.properties().ComputeUnits < 2)
    GTEST_SKIP() << "no worker lingers with one compute unit";
  bool RanOnHost = false;
  for (int Attempt = 0; Attempt < 10 && !RanOnHost; ++Attempt) {
    std::atomic<bool> Done{false};
    wakeALingeringWorker(Dev);
    std::thread::id RanOn;
    Dev.hostEnqueued();
    Dev.run([&] {
      RanOn = std::this_thread::get_id();
      Done = true;
    });
    const auto Until = std::chrono::steady_clock::now() + 1ms;
    while (std::chrono::steady_clock::now() < Until && !Done)
      Dev.hostEnqueued();
    Dev.runReadyWorkUntil([&] { return Done.load(); });
    ASSERT_TRUE(eventually([&] { return Done.load(); }));
    RanOnHost = RanOn == std::this_thread::get_id();
  }
  EXPECT_TRUE(RanOnHost) << "a worker took the item while the host enqueued, every time";

  std::atomic<bool> Done{false};
  Dev.hostEnqueued();
  Dev.run([&] { Done = true; });
  EXPECT_TRUE(eventually([&] { return Done.load(); })) << "nobody ran the work of a quiet host";
}

// The lingering worker's deadline: 50 us after its start or its last work;
// host activity moves it only while an item waits on the list.
TEST(WorkPool, HostActivityKeepsAWorkerLingeringOnlyWhileAnItemWaits) {
  using weft::cpu::LingerDeadline;
  const LingerDeadline::Clock::time_point T0{};
  LingerDeadline D(T0);
  EXPECT_FALSE(D.over(T0 + 50us));
  EXPECT_TRUE(D.over(T0 + 51us));
  D.hostMoved(T0 + 40us, /*Waiting=*/0);
  EXPECT_TRUE(D.over(T0 + 51us)) << "an enqueue that posted nothing kept the worker";
  D.hostMoved(T0 + 40us, /*Waiting=*/1);
  EXPECT_FALSE(D.over(T0 + 90us));
  EXPECT_TRUE(D.over(T0 + 91us));
  D.ran(T0 + 100us);
  EXPECT_FALSE(D.over(T0 + 150us));
  EXPECT_TRUE(D.over(T0 + 151us));
}

// Two items ready are parallelism (two queues, an out-of-order queue): the
// lingering worker takes one even while the host keeps enqueuing, and the
// host, which never waits here, runs neither.
TEST(WorkPool, ASecondReadyItemIsTakenWhileTheHostKeepsEnqueuing) {
  weft::cpu::CpuDevice Dev;
  if (Dev.properties().ComputeUnits < 2)
    GTEST_SKIP() << "no worker lingers with one compute unit";
  wakeALingeringWorker(Dev);
  std::atomic<int> Ran{0};
  std::atomic<bool> OnHost{false};
  const std::thread::id Host = std::this_thread::get_id();
  for (int I = 0; I < 2; ++I) {
    Dev.hostEnqueued();
    Dev.run([&] {
      OnHost = OnHost || std::this_thread::get_id() == Host;
      ++Ran;
    });
  }
  const auto Until = std::chrono::steady_clock::now() + 10s;
  while (Ran == 0 && std::chrono::steady_clock::now() < Until)
    Dev.hostEnqueued();
  EXPECT_GE(Ran.load(), 1) << "two ready items waited for a host that kept enqueuing";
  EXPECT_TRUE(eventually([&] { return Ran.load() == 2; }));
  EXPECT_FALSE(OnHost.load());
}

} // namespace

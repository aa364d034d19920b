// The CPU device: a oneTBB task arena that is the device's one work pool.
//
// Every queue of every context on the device hands its Ready commands here.
// A kernel command of several work-groups becomes one arena task that
// splits its work-groups with tbb::parallel_for, so work-groups of several
// commands interleave on the workers; so does a copy or fill of many
// megabytes, in parts (runParts). Small work (a one-work-group kernel,
// a copy, a fill) waits in the device's ready list, and one arena task per
// item takes the oldest; a host thread about to block in clFinish or
// clWaitForEvents takes from the same list and runs the work itself
// (runReadyWorkUntil). TBB workers never wait on events: they only run
// work that is already Ready.
//
// Bypass: work that a task's own completion makes Ready (the next command
// of an in-order queue) runs next on the same thread, the way a TBB task
// returns its successor, instead of going through the arena and waking
// another worker.
//
// Linger: with two or more compute units, one worker polls the ready list
// for a while (50 us after its last work, or after the host's last
// activity while an item waits) before it returns to TBB, and while it
// does, posting wakes nobody. A host whose commands all run on the spot
// (CpuDevice.cpp) does not keep it awake: polling beside such a stream
// cost the stream a quarter of its rate. A worker woken for a posted item
// lingers first. The lingering worker
// leaves a lone item to the host threads while they keep enqueuing (or
// run, waiting, what they enqueued) and for 5 us after: a host that
// enqueues and then waits runs its commands itself, with everything they
// touch in its own cache, instead of a worker on another core running
// each one as it comes while the host builds the next (the two then pull
// the same events, queue and allocator lines from each other's caches for
// every command: a stream of tiny kernels ran at two thirds of its
// one-core rate). Two items or more are taken at once. A waiting host
// thread in turn polls 20 us for its event before it sleeps. While the
// lingering worker runs an item it is not lingering, so that a long one
// holds no later work back.
#pragma once

#include "runtime/platform/DeviceBackend.h"

#include <tbb/global_control.h>
#include <tbb/spin_mutex.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>

namespace weft::cpu {

/// Work for the pool: a kernel launch, a task, or a task in parts
/// (runParts; reported to Observer, as a launch is). A launch is not
/// wrapped in a std::function, which would allocate for every command.
struct PoolJob {
  std::shared_ptr<const rt::KernelLaunch> Launch;
  std::shared_ptr<rt::LaunchObserver> Observer;
  std::function<void()> Task;
  std::function<void(size_t)> Part;
  size_t Parts = 0;

  explicit operator bool() const { return Launch || Task || Part; }
  /// A launch of several work-groups, or several parts: a parallel_for in
  /// the arena.
  bool needsArena() const;
  void run() const;
};

/// When a lingering worker goes back to TBB (CpuDevice::linger): 50 us
/// after its last work, or after the host's last activity while an item
/// waits on the list. A host streaming posted work (and running it in its
/// wait) keeps the worker polling; one whose commands all run on the spot
/// leaves the list empty, and does not.
class LingerDeadline {
public:
  using Clock = std::chrono::steady_clock;
  /// Several times the cost of a wake-up, a small fraction of any real
  /// kernel.
  static constexpr std::chrono::microseconds Time{50};

  explicit LingerDeadline(Clock::time_point Start) : Until(Start + Time) {}
  void ran(Clock::time_point Now) { Until = Now + Time; }
  void hostMoved(Clock::time_point Now, size_t Waiting) {
    if (Waiting)
      Until = Now + Time;
  }
  bool over(Clock::time_point Now) const { return Now > Until; }

private:
  Clock::time_point Until;
};

class CpuDevice final : public rt::DeviceBackend {
public:
  CpuDevice();
  ~CpuDevice() override;

  const rt::DeviceProperties &properties() const override { return Props; }
  void launch(std::shared_ptr<const rt::KernelLaunch> Launch,
              std::shared_ptr<rt::LaunchObserver> Observer) override;
  void run(std::function<void()> Task) override;
  void runParts(size_t Parts, std::function<void(size_t)> Part,
                std::shared_ptr<rt::LaunchObserver> Observer) override;
  void runReadyWorkUntil(const std::function<bool()> &Done) override;
  void hostEnqueued() override { noteHostActivity(); }

private:
  /// A host thread enqueues, or runs ready work itself. A plain store (no
  /// locked add): a count that changes is all linger() looks for, and a
  /// lost increment between two host threads is harmless.
  void noteHostActivity() {
    HostActivity.store(HostActivity.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  /// Runs J: next on this thread if the job running here may take it
  /// (bypass), else from the ready list or, if it needs the arena, as an
  /// arena task.
  void submit(PoolJob J);
  /// Puts small work on the ready list and an arena task to take it.
  void post(PoolJob J);
  /// Takes the oldest ready work and runs it (with what it bypasses to);
  /// false if the list was empty.
  bool runOneReady(bool InArena, const std::function<bool()> *Stop);
  /// Called by a worker (one at a time; false if another one is at it):
  /// polls the ready list for a short while before going back to TBB (and
  /// to sleep), so that a host enqueuing one small command after another
  /// hands each to a worker that is awake instead of waking one every
  /// time. Runs, before it returns, what was posted meanwhile.
  bool linger();
  /// Runs J in a frame that takes bypassed work; stops following the
  /// bypass (and posts it) once *Stop holds. OnTheSpot: a host thread runs
  /// a launch that became Ready on it (runsOnTheSpot in CpuDevice.cpp).
  void runJob(PoolJob J, bool InArena, const std::function<bool()> *Stop, bool OnTheSpot = false);

  rt::DeviceProperties Props;
  // TBB creates (hardware threads - 1) workers unless told otherwise; the
  // arena wants one worker per compute unit.
  std::unique_ptr<tbb::global_control> Parallelism;
  tbb::task_arena Arena;
  /// Held for a push or a pop only, by threads that poll: a lock that
  /// spins rather than putting the host thread to sleep. The ready list,
  /// the pool's flags and the host's enqueue count each have a cache line
  /// of their own: the host writes the count for every command, and a
  /// lingering worker that reads the flags should not take it each time.
  alignas(64) tbb::spin_mutex ReadyMutex;
  std::deque<PoolJob> Ready;
  /// Ready.size(), to look at without the lock.
  std::atomic<size_t> ReadyCount{0};
  /// Workers polling the ready list after their work (linger); while one
  /// does, post() wakes nobody.
  alignas(64) std::atomic<unsigned> Lingering{0};
  /// Commands host threads have enqueued or run (noteHostActivity), as a
  /// sign of a host streaming work, or working through it in a wait, that
  /// a lingering worker leaves alone.
  alignas(64) std::atomic<unsigned> HostActivity{0};
  /// Arena jobs (launches of several work-groups) not yet ended: a
  /// lingering worker leaves to help with them.
  alignas(64) std::atomic<unsigned> ParallelJobs{0};
  /// Arena tasks not yet finished, which the destructor waits for.
  std::atomic<size_t> ArenaTasks{0};
};

} // namespace weft::cpu

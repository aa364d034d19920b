// Work-group execution on the TBB arena.
#include "device/cpu/CpuDevice.h"
#include "device/cpu/CpuInfo.h"
#include "device/cpu/KernelFaultReport.h"
#include "device/cpu/Printf.h"
#include "runtime/TsanHandOff.h"
#include "runtime/commands/DeviceEnqueue.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::cpu {

namespace {

/// Per-thread memory for work-groups: the __local arena and the
/// work-item frames of barrier kernels. Grows on demand, never shrinks.
struct WorkerScratch {
  /// Every thread's, while the thread lives (ThreadScratch).
  WorkerScratch *Prev = nullptr, *Next = nullptr;
  char *Local = nullptr;
  size_t LocalSize = 0;
  char *Private = nullptr;
  size_t PrivateSize = 0;
  char *Collective = nullptr;
  size_t CollectiveSize = 0;
  ~WorkerScratch() {
    std::free(Local);
    std::free(Private);
    std::free(Collective);
  }
  static char *grow(char *Old, size_t &Have, size_t Want) {
    if (Want <= Have)
      return Old;
    std::free(Old);
    size_t Rounded = (Want + rt::LocalMemAlignment - 1) / rt::LocalMemAlignment *
                     rt::LocalMemAlignment;
    Have = Rounded;
    return static_cast<char *>(std::aligned_alloc(rt::LocalMemAlignment, Rounded));
  }
};

/// The calling thread's scratch, on the heap and linked into a list of
/// every thread's: oneTBB's workers outlive main(), and at the process's
/// exit their scratch is then reachable from a global, as it is in fact
/// from their threads' storage. (The sanitizer builds tell LeakSanitizer
/// not to scan thread-local storage, tests/support/SanitizerDefaults.cpp;
/// it reported a worker's scratch as leaked.) A thread that ends frees
/// its own.
class ThreadScratch {
public:
  WorkerScratch &get() {
    if (!Own) {
      Own = new WorkerScratch;
      std::lock_guard<std::mutex> Lock(ListMutex);
      Own->Next = List;
      if (List)
        List->Prev = Own;
      List = Own;
    }
    return *Own;
  }
  ~ThreadScratch() {
    if (!Own)
      return;
    {
      std::lock_guard<std::mutex> Lock(ListMutex);
      (Own->Prev ? Own->Prev->Next : List) = Own->Next;
      if (Own->Next)
        Own->Next->Prev = Own->Prev;
    }
    delete Own;
  }

private:
  WorkerScratch *Own = nullptr;
  static inline std::mutex ListMutex;
  static inline WorkerScratch *List = nullptr;
};

thread_local ThreadScratch Scratches;

/// The runtime services of every kernel this device runs (KernelAbi.h).
const rt::RuntimeServices Services{&PrintfOutput::print, &rt::services::enqueueKernel,
                                   &rt::services::enqueueMarker, &rt::services::deviceEvent,
                                   &rt::services::blockQuery};

/// How a launch's work-items are cut into the groups the device runs: the
/// launch's own groups, or for a group-free kernel (KernelLaunch::GroupFree)
/// runs of consecutive groups along x (groupsFor).
struct GroupShape {
  std::array<uint64_t, 3> LocalSize;
  std::array<uint64_t, 3> NumGroups;
};

/// Runs work-groups [Begin, End) of L, cut as Shape says, on the calling
/// worker.
void runGroups(const rt::KernelLaunch &L, const GroupShape &Shape, size_t Begin, size_t End,
               PrintfOutput *Printf) {
  const std::array<uint64_t, 3> &NumGroups = Shape.NumGroups;
  rt::WorkGroupContext Ctx{};
  Ctx.WorkDim = L.WorkDim;
  for (int D = 0; D < 3; ++D) {
    Ctx.EnqueuedLocalSize[D] = Shape.LocalSize[D];
    Ctx.GlobalSize[D] = L.GlobalSize[D];
    Ctx.GlobalOffset[D] = L.GlobalOffset[D];
    Ctx.NumGroups[D] = NumGroups[D];
  }

  WorkerScratch &Scratch = Scratches.get();
  Scratch.Local =
      WorkerScratch::grow(Scratch.Local, Scratch.LocalSize, std::max<size_t>(L.LocalMemSize, 1));
  size_t MaxItems = Shape.LocalSize[0] * Shape.LocalSize[1] * Shape.LocalSize[2];
  if (L.PrivateFrameSize)
    Scratch.Private =
        WorkerScratch::grow(Scratch.Private, Scratch.PrivateSize, MaxItems * L.PrivateFrameSize);
  Scratch.Collective = WorkerScratch::grow(Scratch.Collective, Scratch.CollectiveSize,
                                           rt::collectiveScratchBytes(MaxItems));
  Ctx.CollectiveScratch = Scratch.Collective;
  Ctx.LocalMem = Scratch.Local;
  Ctx.LocalMemSize = L.LocalMemSize;
  Ctx.PrivateMem = Scratch.Private;
  Ctx.PrivateMemSize = L.PrivateFrameSize ? MaxItems * L.PrivateFrameSize : 0;
  // Every frame of the work-group function lies below this one.
  Ctx.StackTop = static_cast<char *>(__builtin_frame_address(0));
  Ctx.Services = &Services;
  if (Printf)
    Ctx.PrintfSink = Printf->sink();
  Ctx.Enqueue = L.Enqueue.get();

  // Arguments point into the launch's storage, except __local ones, which
  // point at this worker's arena (at the offsets the runtime laid out).
  // (On the stack for the usual few arguments: a launch allocates nothing.)
  constexpr size_t InlineArgs = 32;
  void *ArgsInline[InlineArgs], *LocalInline[InlineArgs];
  std::vector<void *> ArgsHeap, LocalHeap;
  const size_t NumArgs = L.ArgOffsets.size();
  if (NumArgs > InlineArgs)
    ArgsHeap.resize(NumArgs);
  if (L.LocalArgs.size() > InlineArgs)
    LocalHeap.resize(L.LocalArgs.size());
  void **Args = NumArgs > InlineArgs ? ArgsHeap.data() : ArgsInline;
  void **LocalArgPtrs = L.LocalArgs.size() > InlineArgs ? LocalHeap.data() : LocalInline;
  for (size_t I = 0; I < NumArgs; ++I)
    Args[I] = const_cast<unsigned char *>(L.ArgStorage.data()) + L.ArgOffsets[I];
  for (size_t I = 0; I < L.LocalArgs.size(); ++I) {
    LocalArgPtrs[I] = Scratch.Local + L.LocalArgs[I].second;
    Args[L.LocalArgs[I].first] = &LocalArgPtrs[I];
  }

  RunningKernel Running(L.Name.c_str()); // for WEFT_DEBUG's fault report
  for (size_t G = Begin; G < End; ++G) {
    uint64_t Linear = G;
    for (int D = 0; D < 3; ++D) {
      Ctx.GroupId[D] = Linear % NumGroups[D];
      Linear /= NumGroups[D];
      uint64_t Start = Ctx.GroupId[D] * Shape.LocalSize[D];
      Ctx.LocalSize[D] = std::min<uint64_t>(Shape.LocalSize[D], L.GlobalSize[D] - Start);
      Running.Group[D] = Start / L.LocalSize[D]; // the launch's own group
    }
    L.Fn(Args, &Ctx);
  }
}

/// A job a thread runs for a CPU device (CpuDevice::runJob); frames nest
/// when a thread that runs a job helps with another (a callback that waits).
struct JobFrame {
  const CpuDevice *Owner = nullptr;
  /// A worker of the arena: may follow with work that needs the arena.
  bool InArena = false;
  /// False while the job runs work-groups: what they make Ready must not
  /// wait for the whole job to end.
  bool Open = true;
  /// Jobs followed in a row; bounded on a worker so that other Ready work
  /// is not starved by one long in-order queue.
  unsigned Followed = 0;
  /// A host thread running on the spot a launch that became Ready on it
  /// (runsOnTheSpot): it follows only with such launches.
  bool OnTheSpot = false;
  PoolJob Next;
  JobFrame *Outer = nullptr;
};

thread_local JobFrame *CurrentJob = nullptr;

/// Closes the running frame (if any) for its lifetime.
class ClosedFrame {
public:
  ClosedFrame() : Frame(CurrentJob) {
    if (Frame) {
      WasOpen = Frame->Open;
      Frame->Open = false;
    }
  }
  ~ClosedFrame() {
    if (Frame)
      Frame->Open = WasOpen;
  }
  ClosedFrame(const ClosedFrame &) = delete;
  ClosedFrame &operator=(const ClosedFrame &) = delete;

private:
  JobFrame *Frame;
  bool WasOpen = false;
};

/// A pause in a polling loop.
inline void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// How long a waiting host thread polls for its event before it sleeps
/// (as LingerDeadline::Time: several times the cost of a wake-up).
constexpr auto HostPollTime = std::chrono::microseconds(20);
/// How long after the host threads' last enqueue (or the item's posting)
/// a lingering worker leaves a lone item to them (linger).
constexpr auto PosterGrace = std::chrono::microseconds(5);

/// How often a lingering worker looks at the ready list while a host
/// thread is enqueuing: each look pulls the lines the host writes (the
/// enqueue count, the list) from its cache, and the host's next write
/// must take them back. The interval doubles, up to the maximum, while the
/// host stays busy and the worker leaves it its work: a host streaming
/// tiny commands into an in-order queue (which it runs itself once it
/// waits) would otherwise pay for a line taken back every other command.
constexpr auto ActiveHostPoll = std::chrono::microseconds(2);
constexpr auto MaxActiveHostPoll = std::chrono::microseconds(16);

/// A launch of one work-group whose kernel cannot wait for other work
/// (KernelDesc::MayWait false) and one of whose last two such launches ran
/// at most this long (RunRecord) runs on the spot when it becomes Ready on
/// a host thread outside any job (as it is enqueued, or as a user event
/// completes): the host gives up no more than this of overlap with its own
/// work, and a stream of tiny kernels runs where it is built. Left to the
/// pool, such a stream waits for the host's next wait, and thousands of
/// commands built and then run from a cold cache ran at 0.55-0.85 of the
/// rate of one core, where the only worker shares the host's core and runs
/// them as they come (on two cores, a worker running each beside the host
/// that builds the next pulled the same lines to and fro for every
/// command, session 8).
constexpr uint32_t OnTheSpotNanos = 5000;

/// A kernel's record of its last two one-group launches
/// (KernelLaunch::RunNanos). The shorter counts: one launch stretched by
/// an interrupt, a page fault or the host's scheduler (a timer tick every
/// few milliseconds of a stream) does not send the kernel to the pool.
/// Once one launch of an in-order stream went there, every later one
/// waited behind it for the host's wait and ran from a cold cache: 15-60 %
/// of the launches of streams of tiny kernels did, on two cores.
struct RunRecord {
  static uint32_t shorter(uint64_t Record) {
    return std::min(uint32_t(Record), uint32_t(Record >> 32));
  }
  static uint64_t add(uint64_t Record, std::chrono::nanoseconds Took) {
    const auto Nanos = uint32_t(std::min<int64_t>(Took.count(), UINT32_MAX - 1));
    return Record << 32 | Nanos;
  }
};

bool runsOnTheSpot(const PoolJob &J) {
  return J.Launch && J.Launch->RunNanos && !J.needsArena() &&
         RunRecord::shorter(J.Launch->RunNanos->load(std::memory_order_relaxed)) <= OnTheSpotNanos;
}

/// Bypassed jobs in a row on a worker before the next goes through the
/// ready list, so that one long in-order queue does not starve the rest.
/// A host thread in a wait follows its chain until the wait is over: what
/// else is Ready the workers take meanwhile, and sending every 64th
/// command of a stream of tiny kernels through the list woke a worker for
/// about one in five of them (on two cores such a stream ran at 0.55-0.7
/// of one core's rate, 0.85 with the host following its chain).
constexpr unsigned MaxFollowed = 64;

/// The hand-off to the arena, for ThreadSanitizer (TsanHandOff.h).
int ArenaSync;

} // namespace

CpuDevice::CpuDevice() : Props(probeHostCpu()) {
  installKernelFaultReport();
  int Units = int(Props.ComputeUnits);
  Parallelism = std::make_unique<tbb::global_control>(
      tbb::global_control::max_allowed_parallelism,
      std::max<size_t>(Units + 1, tbb::global_control::active_value(
                                      tbb::global_control::max_allowed_parallelism)));
  // No slot reserved for a host thread: host threads never enter the arena.
  Arena.initialize(Units, 0);
}

CpuDevice::~CpuDevice() {
  // The arena's tasks name this device: wait for those still queued or
  // running (a device of the platform lives as long as the process; one of
  // a unit test does not). Work still on the ready list is dropped.
  while (ArenaTasks.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
}

namespace {

/// The launch's work-groups in each dimension (the last may be smaller).
std::array<uint64_t, 3> numGroups(const rt::KernelLaunch &L) {
  std::array<uint64_t, 3> N{};
  for (int D = 0; D < 3; ++D)
    N[D] = L.LocalSize[D] ? (L.GlobalSize[D] + L.LocalSize[D] - 1) / L.LocalSize[D] : 0;
  return N;
}

uint64_t totalOf(const std::array<uint64_t, 3> &N) { return N[0] * N[1] * N[2]; }

/// Work-items a call of a group-free kernel's work-group function covers at
/// least, where the launch has groups enough: the call's own cost (the
/// context, the loop nest's set-up, the vectorizer's checks) is then
/// spread over a long x loop. With groups of 256 that cost was a fifth of
/// a copy kernel's time (stream.copy: 21.6-24.7 GB/s with groups of 256,
/// 27.3-28.7 with groups of 4096).
constexpr uint64_t GroupFreeItems = 4096;
/// Calls per compute unit a launch keeps at least, for the balance.
constexpr uint64_t GroupFreeCallsPerUnit = 16;

/// The groups the device runs L in: its own, or for a group-free kernel
/// with many groups along x, runs of several along x (the last run may
/// hold fewer). The work-group function computes global ids from the group
/// id, the enqueued local size and the local id, which the run's values
/// give alike, and a group-free kernel reads nothing else of its group.
GroupShape groupsFor(const rt::KernelLaunch &L, unsigned Units) {
  GroupShape S{L.LocalSize, numGroups(L)};
  if (!L.GroupFree || S.NumGroups[0] < 2 || L.LocalSize[0] >= GroupFreeItems)
    return S;
  const uint64_t Others = S.NumGroups[1] * S.NumGroups[2];
  const uint64_t Want = GroupFreeItems / L.LocalSize[0];
  const uint64_t Balance = S.NumGroups[0] * Others / (uint64_t(Units) * GroupFreeCallsPerUnit);
  const uint64_t Run = std::min(Want, Balance);
  if (Run < 2)
    return S;
  S.LocalSize[0] = Run * L.LocalSize[0];
  S.NumGroups[0] = (S.NumGroups[0] + Run - 1) / Run;
  return S;
}

/// Runs Body(Begin, End) over sub-ranges of [0, Count) on the arena. Every
/// chunk starts after the caller's work before it and ends before the
/// caller goes on (for TSan, which cannot see TBB's own synchronization;
/// see TsanHandOff.h).
template <typename F> void parallelChunks(size_t Count, F Body) {
  auto Chunk = [&](const tbb::blocked_range<size_t> &R) { Body(R.begin(), R.end()); };
  tbb::parallel_for(tbb::blocked_range<size_t>(0, Count), tsan::HandedOff(Chunk));
  tsan::acquire(&Chunk);
}

} // namespace

bool PoolJob::needsArena() const {
  return (Launch && totalOf(numGroups(*Launch)) > 1) || Parts > 1;
}

void PoolJob::run() const {
  if (Task) {
    Task();
    return;
  }
  if (Part) {
    Observer->launchStarted();
    {
      ClosedFrame Closed;
      parallelChunks(Parts, [&](size_t Begin, size_t End) {
        for (size_t I = Begin; I < End; ++I)
          Part(I);
      });
    }
    Observer->launchEnded({});
    return;
  }
  const rt::KernelLaunch &L = *Launch;
  const GroupShape Shape = groupsFor(L, unsigned(tbb::this_task_arena::max_concurrency()));
  const uint64_t Total = totalOf(Shape.NumGroups);
  std::unique_ptr<PrintfOutput> Printf;
  if (L.UsesPrintf)
    Printf = std::make_unique<PrintfOutput>();
  Observer->launchStarted();
  {
    ClosedFrame Closed;
    if (Total == 1) {
      // A kernel that may run on the spot records how long it ran.
      using Clock = std::chrono::steady_clock;
      const Clock::time_point Start = L.RunNanos ? Clock::now() : Clock::time_point{};
      runGroups(L, Shape, 0, 1, Printf.get());
      if (L.RunNanos) {
        const auto Took =
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - Start);
        // Two threads that record at once may lose one of the runs: a
        // record, not a count.
        L.RunNanos->store(RunRecord::add(L.RunNanos->load(std::memory_order_relaxed), Took),
                          std::memory_order_relaxed);
      }
    } else if (Total > 1) {
      parallelChunks(
          Total, [&](size_t Begin, size_t End) { runGroups(L, Shape, Begin, End, Printf.get()); });
    }
  }
  // The output is complete when the command ends (OpenCL C 6.15.14.3).
  if (Printf)
    Printf->flush();
  Observer->launchEnded({});
}

void CpuDevice::launch(std::shared_ptr<const rt::KernelLaunch> L,
                       std::shared_ptr<rt::LaunchObserver> Observer) {
  submit({std::move(L), std::move(Observer), {}, {}, 0});
}

void CpuDevice::run(std::function<void()> Task) { submit({{}, {}, std::move(Task), {}, 0}); }

void CpuDevice::runParts(size_t Parts, std::function<void(size_t)> Part,
                         std::shared_ptr<rt::LaunchObserver> Observer) {
  submit({{}, std::move(Observer), {}, std::move(Part), Parts});
}

void CpuDevice::runReadyWorkUntil(const std::function<bool()> &Done) {
  // Ready work first; then, where workers have cores of their own, a short
  // poll: small work a worker already took often ends within it, and the
  // host then returns without sleeping and being woken.
  using Clock = std::chrono::steady_clock;
  const bool Poll = Props.ComputeUnits >= 2;
  Clock::time_point Until{};
  for (unsigned Polls = 1; !Done(); ++Polls) {
    if (runOneReady(/*InArena=*/false, &Done)) {
      Until = {};
      continue;
    }
    if (!Poll)
      return;
    if (Until == Clock::time_point{})
      Until = Clock::now() + HostPollTime;
    else if (Polls % 64 == 0 && Clock::now() > Until)
      return;
    spinPause();
  }
}

void CpuDevice::submit(PoolJob J) {
  const bool NeedsArena = J.needsArena();
  JobFrame *Frame = CurrentJob;
  if (Frame && Frame->Owner == this && Frame->Open && !Frame->Next &&
      (Frame->InArena || !NeedsArena) && (!Frame->InArena || Frame->Followed < MaxFollowed) &&
      (!Frame->OnTheSpot || runsOnTheSpot(J))) {
    Frame->Next = std::move(J);
    return;
  }
  if (!Frame && runsOnTheSpot(J)) {
    runJob(std::move(J), /*InArena=*/false, nullptr, /*OnTheSpot=*/true);
    return;
  }
  if (!NeedsArena) {
    post(std::move(J));
    return;
  }
  // Several work-groups: a task of the arena, where parallel_for spreads
  // them over the workers.
  ParallelJobs.fetch_add(1, std::memory_order_relaxed);
  ArenaTasks.fetch_add(1, std::memory_order_relaxed);
  tsan::release(&ArenaSync);
  [[maybe_unused]] tsan::IgnoreScope Ignore; // TBB's copy of the task, not our memory
  // TBB runs the task as const: runJob gets a copy of the job.
  struct Held : tsan::PoolBlock {
    PoolJob J;
  };
  Arena.enqueue([this, H = Held{{}, std::move(J)}] {
    tsan::acquire(&ArenaSync);
    runJob(H.J, /*InArena=*/true, nullptr);
    ParallelJobs.fetch_sub(1, std::memory_order_relaxed);
    ArenaTasks.fetch_sub(1, std::memory_order_release);
  });
}

void CpuDevice::post(PoolJob J) {
  {
    tbb::spin_mutex::scoped_lock Lock(ReadyMutex);
    Ready.push_back(std::move(J));
    ReadyCount.store(Ready.size(), std::memory_order_relaxed);
  }
  // A lingering worker takes it: nobody to wake. (With linger()'s fence, a
  // worker that stops lingering either is seen here or sees this item.)
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (Lingering.load(std::memory_order_relaxed))
    return;
  // One arena task per item: it takes the oldest item, or nothing if
  // another thread took it first (there are never fewer of these tasks in
  // flight than items on the list while no worker lingers).
  ArenaTasks.fetch_add(1, std::memory_order_relaxed);
  tsan::release(&ArenaSync);
  [[maybe_unused]] tsan::IgnoreScope Ignore;
  Arena.enqueue([this] {
    tsan::acquire(&ArenaSync);
    // Lingering, the worker leaves the item to a host thread that is
    // still enqueuing (and will likely wait and run it), and runs it once
    // the host is quiet. If another worker lingers, the item is that
    // worker's (it runs what is left on the list when it stops): taken
    // here at once, it would be taken from a host that is still enqueuing,
    // and the rest of an in-order stream would follow it to this worker.
    if (!linger() && Props.ComputeUnits < 2 && runOneReady(/*InArena=*/true, nullptr))
      linger();
    ArenaTasks.fetch_sub(1, std::memory_order_release);
  });
}

bool CpuDevice::linger() {
  // One worker at a time, and none where the host thread would share its
  // core with it.
  unsigned None = 0;
  if (Props.ComputeUnits < 2 || !Lingering.compare_exchange_strong(None, 1))
    return false;
  using Clock = LingerDeadline::Clock;
  LingerDeadline Deadline(Clock::now());
  // A lone item is left to the host threads while they enqueue (or run
  // what they enqueued, waiting), and for a moment after: a host that
  // enqueues and then waits runs it itself. An item that waits longer, or
  // has another behind it, is taken.
  Clock::time_point Seen{};
  unsigned Activity = HostActivity.load(std::memory_order_relaxed);
  bool Owner = true;
  Clock::duration Backoff = ActiveHostPoll;
  for (unsigned Polls = 1;; ++Polls) {
    size_t Waiting = ReadyCount.load(std::memory_order_relaxed);
    const unsigned NowActivity = HostActivity.load(std::memory_order_relaxed);
    const bool HostMoved = NowActivity != Activity;
    if (HostMoved) {
      Activity = NowActivity;
      Seen = Clock::now();
      Deadline.hostMoved(Seen, Waiting);
    } else if (Waiting == 1 && Seen == Clock::time_point{}) {
      Seen = Clock::now();
    }
    const bool HostActive = Seen != Clock::time_point{} && Clock::now() - Seen < PosterGrace;
    if (Waiting >= 2 || (Waiting == 1 && !HostActive)) {
      Seen = {};
      Backoff = ActiveHostPoll;
      // Not lingering while it runs the item, which may take long: what is
      // posted meanwhile wakes another worker, as it would without linger.
      Lingering.store(0, std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_seq_cst);
      // A lone item taken from a host that went quiet: once the host is
      // back (its enqueues had stopped for a moment), what the item makes
      // Ready goes back through the list, to the host, instead of this
      // worker running an in-order stream beside the host that builds it.
      const unsigned AtTake = HostActivity.load(std::memory_order_relaxed);
      const std::function<bool()> HostBack = [this, AtTake] {
        return HostActivity.load(std::memory_order_relaxed) != AtTake;
      };
      const bool Ran = runOneReady(/*InArena=*/true, Waiting == 1 ? &HostBack : nullptr);
      unsigned Free = 0;
      Owner = Lingering.compare_exchange_strong(Free, 1);
      if (!Owner)
        break; // another worker lingers now
      if (Ran)
        Deadline.ran(Clock::now());
      continue;
    }
    if (!Waiting && !HostMoved)
      Seen = {};
    // (Backing off, each poll reads the clock anyway.)
    if (ParallelJobs.load(std::memory_order_relaxed) ||
        ((HostActive || Polls % 64 == 0) && Deadline.over(Clock::now())))
      break;
    if (HostActive) {
      // Nothing to take before the host is quiet: look again later, so
      // that the host's writes to the lines polled here stay in its cache.
      for (const auto Next = Clock::now() + Backoff; Clock::now() < Next;)
        spinPause();
      Backoff = std::min<Clock::duration>(2 * Backoff, MaxActiveHostPoll);
    } else {
      Backoff = ActiveHostPoll;
      spinPause();
    }
  }
  if (!Owner)
    return true; // what is on the list is the lingering worker's now
  Lingering.store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // What was posted while this worker lingered has no arena task of its own.
  while (runOneReady(/*InArena=*/true, nullptr)) {
  }
  return true;
}

bool CpuDevice::runOneReady(bool InArena, const std::function<bool()> *Stop) {
  if (!ReadyCount.load(std::memory_order_relaxed)) // polled: no lock for nothing
    return false;
  PoolJob J;
  {
    tbb::spin_mutex::scoped_lock Lock(ReadyMutex);
    if (Ready.empty())
      return false;
    J = std::move(Ready.front());
    Ready.pop_front();
    ReadyCount.store(Ready.size(), std::memory_order_relaxed);
  }
  runJob(std::move(J), InArena, Stop);
  return true;
}

void CpuDevice::runJob(PoolJob J, bool InArena, const std::function<bool()> *Stop, bool OnTheSpot) {
  JobFrame Frame;
  Frame.Owner = this;
  Frame.InArena = InArena;
  Frame.OnTheSpot = OnTheSpot;
  Frame.Outer = CurrentJob;
  CurrentJob = &Frame;
  for (;;) {
    // A host thread running its commands keeps the lingering worker off
    // them (linger) as its enqueues did.
    if (!InArena)
      noteHostActivity();
    J.run();
    if (!Frame.Next)
      break;
    J = std::move(Frame.Next);
    Frame.Next = {};
    ++Frame.Followed;
    // A host thread whose wait is over leaves the rest to the pool (a
    // host frame only takes small work).
    if (Stop && (*Stop)()) {
      CurrentJob = Frame.Outer;
      post(std::move(J));
      return;
    }
  }
  CurrentJob = Frame.Outer;
}

} // namespace weft::cpu

namespace weft::rt {
std::unique_ptr<DeviceBackend> createHostCpuBackend() {
  return std::make_unique<cpu::CpuDevice>();
}
} // namespace weft::rt

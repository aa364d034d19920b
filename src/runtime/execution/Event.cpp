// The event state machine: forward-only transitions, profiling timestamps,
// callbacks and dependents.
#include "runtime/execution/Event.h"
#include "runtime/execution/CommandQueue.h"
#include "runtime/platform/Device.h"
#include "runtime/platform/Platform.h"

#include <deque>

namespace weft::rt {

namespace {
/// runFlattened's backlog, kept per thread so that a call allocates
/// nothing when it has nothing to defer.
struct Deferred {
  std::function<void(cl_int)> Fn;
  cl_int Status;
};
thread_local bool Flattening = false;
thread_local std::deque<Deferred> Backlog;

cl_int statusOf(Event::Stage S) {
  switch (S) {
  case Event::Stage::Queued:
    return CL_QUEUED;
  case Event::Stage::Submitted:
  case Event::Stage::Ready:
    return CL_SUBMITTED;
  case Event::Stage::Running:
  case Event::Stage::Ended:
    return CL_RUNNING;
  case Event::Stage::Complete:
    return CL_COMPLETE;
  case Event::Stage::Failed:
    break;
  }
  return CL_INVALID_VALUE;
}
} // namespace

void runFlattened(std::function<void(cl_int)> Fn, cl_int Status) {
  if (Flattening) {
    Backlog.push_back({std::move(Fn), Status});
    return;
  }
  Flattening = true;
  Fn(Status);
  while (!Backlog.empty()) {
    Deferred Next = std::move(Backlog.front());
    Backlog.pop_front();
    Next.Fn(Next.Status);
  }
  Flattening = false;
}

Event::Event(Context &C, CommandQueue *Q, cl_command_type T)
    : Object(/*ListNow=*/!Q), Ctx(&C), Queue(Q), QueueRef(Q),
      Pool(Q ? &Q->device().backend() : nullptr), Type(T),
      Profiling(Q && (Q->properties() & CL_QUEUE_PROFILING_ENABLE)),
      Current(Q ? Stage::Queued : Stage::Submitted) {
  if (Profiling)
    Times[0] = Platform::nowNs();
}

Event::~Event() = default;

cl_int Event::status() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Current == Stage::Failed ? Error : statusOf(Current);
}

bool Event::isTerminal() const { return Terminal.load(std::memory_order_acquire); }

void Event::advance(Stage S) {
  Ref<Event> Self(this); // destroyed last: may delete the event on return
  Ref<CommandQueue> Queue;
  decltype(Dependents) Notify;
  cl_int Old, New;
  bool HasCallbacks;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Current == Stage::Failed || S <= Current)
      return;
    Old = statusOf(Current);
    uint64_t Now = Profiling ? Platform::nowNs() : 0;
    // Profiling stamps every stage passed, so a skipped stage (a marker goes
    // from Submitted straight to Complete) still reads monotonic times.
    for (int I = int(Current) + 1; I <= int(S); ++I) {
      switch (Stage(I)) {
      case Stage::Submitted:
        Times[1] = Now;
        break;
      case Stage::Running:
        Times[2] = Now;
        break;
      case Stage::Ended:
        Times[3] = Now;
        break;
      case Stage::Complete:
        Times[4] = Now;
        break;
      default:
        break;
      }
    }
    Current = S;
    New = statusOf(S);
    HasCallbacks = !Callbacks.empty(); // any added from now on see New
    if (S == Stage::Complete) {
      Notify.swap(Dependents);
      Queue = std::move(QueueRef); // terminal: let go of the queue (Event.h)
    }
  }
  // Waiters are let go with the lock free: a host thread that polls
  // isTerminal() must not find it held the moment it returns.
  if (S == Stage::Complete)
    becomeTerminal();
  if (Old != New && HasCallbacks)
    runCallbacks(Old, New);
  for (auto &Fn : Notify)
    runFlattened(std::move(Fn), CL_COMPLETE);
}

void Event::fail(cl_int Code) {
  Ref<Event> Self(this);
  Ref<CommandQueue> Queue;
  decltype(Dependents) Notify;
  cl_int Old;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Current == Stage::Complete || Current == Stage::Failed)
      return;
    Old = statusOf(Current);
    Current = Stage::Failed;
    Error = Code;
    Notify.swap(Dependents);
    Queue = std::move(QueueRef);
  }
  becomeTerminal();
  runCallbacks(Old, Code);
  for (auto &Fn : Notify)
    runFlattened(std::move(Fn), Code);
}

void Event::becomeTerminal() {
  Terminal.store(true, std::memory_order_release);
  // Current changed under the lock, which a waiter holds from its check of
  // the predicate to its sleep: notifying after the lock is released
  // misses nobody.
  Cv.notify_all();
}

cl_int Event::wait() {
  if (Pool)
    Pool->runReadyWorkUntil([this] { return isTerminal(); });
  // Terminal is final, and written after Current and Error: no lock needed
  // to read them then.
  if (isTerminal())
    return Current == Stage::Failed ? Error : CL_COMPLETE;
  std::unique_lock<std::mutex> Lock(Mutex);
  Cv.wait(Lock, [&] { return Current == Stage::Complete || Current == Stage::Failed; });
  return Current == Stage::Failed ? Error : CL_COMPLETE;
}

void Event::whenDone(std::function<void(cl_int)> Fn) {
  cl_int Final;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Current != Stage::Complete && Current != Stage::Failed) {
      Dependents.push_back(std::move(Fn));
      return;
    }
    Final = Current == Stage::Failed ? Error : CL_COMPLETE;
  }
  Fn(Final);
}

void Event::addCallback(cl_int OnStatus, CallbackFn Fn, void *Data) {
  cl_int Now;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Now = Current == Stage::Failed ? Error : statusOf(Current);
    // Not reached yet (statuses count down to CL_COMPLETE = 0).
    if (Now > OnStatus) {
      Callbacks.push_back({OnStatus, Fn, Data});
      return;
    }
  }
  Fn(handle(), Now < 0 ? Now : OnStatus, Data);
}

void Event::runCallbacks(cl_int Old, cl_int New) {
  std::vector<Callback> Due;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (auto It = Callbacks.begin(); It != Callbacks.end();) {
      if (New <= It->OnStatus) {
        Due.push_back(*It);
        It = Callbacks.erase(It);
      } else {
        ++It;
      }
    }
  }
  // Keep the event alive while the application's callbacks run.
  Ref<Event> Self(this);
  for (auto &C : Due)
    C.Fn(handle(), New < 0 ? New : C.OnStatus, C.Data);
}

cl_ulong Event::timestamp(cl_profiling_info Info) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Times[Info - CL_PROFILING_COMMAND_QUEUED];
}

} // namespace weft::rt

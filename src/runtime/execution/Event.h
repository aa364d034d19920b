// Events: the observable state of a command (or a user event).
//
// A command's event walks the six states of the execution model:
//   Queued -> Submitted -> Ready -> Running -> Ended -> Complete
// The application sees four of them through CL_EVENT_COMMAND_EXECUTION_STATUS
// (Ready reads as CL_SUBMITTED, Ended as CL_RUNNING) and five through
// profiling (QUEUED, SUBMIT, START, END, COMPLETE). A negative status is a
// failure; it is terminal like Complete, and dependents see it.
//
// The state moves forward only, in advance(). Callbacks and dependents run
// after the lock is dropped. Dependents (commands waiting on this event) are
// notified through a per-thread trampoline, so a long chain of commands that
// complete inline does not grow the stack.
#pragma once

#include "runtime/Object.h"
#include "runtime/platform/Context.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace weft::rt {

class CommandQueue;
class DeviceBackend;

class Event : public Object<_cl_event, HandleKind::Event> {
public:
  enum class Stage : uint8_t { Queued, Submitted, Ready, Running, Ended, Complete, Failed };
  using CallbackFn = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  /// A command's event (Queue non-null) or a user event (Queue null, starts
  /// CL_SUBMITTED as the specification says).
  Event(Context &Ctx, CommandQueue *Queue, cl_command_type Type);
  ~Event() override;

  Context &context() const { return *Ctx; }
  CommandQueue *queue() const { return Queue; }
  cl_command_type commandType() const { return Type; }
  bool isUserEvent() const { return Type == CL_COMMAND_USER; }

  /// CL_QUEUED, CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a negative error.
  cl_int status() const;
  bool isTerminal() const;

  /// Moves to stage S (ignored if already there or past it). Failing with a
  /// negative code is allowed from any non-terminal stage.
  void advance(Stage S);
  void fail(cl_int Code);

  /// Blocks the calling host thread until the event is terminal; returns
  /// the final status (CL_COMPLETE or negative). Before it blocks, the
  /// thread runs ready work of the command's device itself.
  cl_int wait();

  /// Calls Fn(final status) once the event is terminal: now if it is.
  void whenDone(std::function<void(cl_int)> Fn);

  void addCallback(cl_int OnStatus, CallbackFn Fn, void *Data);

  /// Profiling timestamp, or 0 if that stage has not been reached.
  bool profilingEnabled() const { return Profiling; }
  cl_ulong timestamp(cl_profiling_info Info) const;

private:
  void runCallbacks(cl_int Old, cl_int New);
  /// Publishes a terminal Current (set under the lock before): Terminal,
  /// then the waiters.
  void becomeTerminal();

  Ref<Context> Ctx;
  CommandQueue *Queue;
  /// Keeps the queue alive while the command is in flight. Dropped when the
  /// event is terminal: the queue holds its last event, and a reference
  /// back would keep both alive forever. (CL_EVENT_COMMAND_QUEUE stays
  /// valid as long as the application keeps its queue.)
  Ref<CommandQueue> QueueRef;
  /// The work pool of the command's device (devices live forever); a host
  /// thread that waits helps it run ready work.
  DeviceBackend *Pool;
  cl_command_type Type;
  bool Profiling;

  mutable std::mutex Mutex;
  std::condition_variable Cv;
  Stage Current;
  /// Current is Complete or Failed: read without the lock by threads that
  /// poll (a waiting host thread, the queue's pruning).
  std::atomic<bool> Terminal{false};
  cl_int Error = CL_SUCCESS;
  std::array<cl_ulong, 5> Times{}; // QUEUED, SUBMIT, START, END, COMPLETE
  struct Callback {
    cl_int OnStatus;
    CallbackFn Fn;
    void *Data;
  };
  std::vector<Callback> Callbacks;
  std::vector<std::function<void(cl_int)>, ObjectAllocator<std::function<void(cl_int)>>> Dependents;
};

/// Calls Fn(Status) now, or after the function already running on this
/// thread returns (used to notify dependents without recursion).
void runFlattened(std::function<void(cl_int)> Fn, cl_int Status);

} // namespace weft::rt

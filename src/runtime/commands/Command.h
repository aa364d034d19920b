// A command: the unit a queue schedules. Each command owns its event and
// the references it needs (queue, memory objects, kernel snapshot) until it
// is done.
//
// Subclasses implement execute(): called once, when the command is Ready,
// on whatever thread made it Ready. It must eventually call finish()
// exactly once, from any thread. Long work goes to the device's pool.
//
// Ended is not Complete: finish() ends the command's own work; work it
// started (child kernels of device-side enqueue) registers with addChild()
// before that and reports with childDone(). The event is Complete when the
// command has ended and its last child is done; a failed child fails it.
#pragma once

#include "runtime/execution/Event.h"
#include "runtime/platform/DeviceBackend.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace weft::rt {

class CommandQueue;
class Device;

class Command : public std::enable_shared_from_this<Command> {
public:
  Command(CommandQueue &Queue, cl_command_type Type);
  virtual ~Command();

  Event &event() const { return *Ev; }
  Ref<Event> eventRef() const { return Ev; }
  CommandQueue &queue() const { return *Queue; }
  Device &device() const;
  /// A marker or barrier: in an out-of-order queue it waits for everything
  /// enqueued before it (barrier: and everything after waits for it).
  virtual bool isSynchronization() const { return false; }

  /// Waits for Count prerequisites, each reported once with
  /// prerequisiteDone(), plus one the caller holds until it has registered
  /// them all and then reports itself. After the last the command starts,
  /// or fails if a prerequisite failed. Until then the command keeps
  /// itself alive, so a prerequisite's callback needs only a plain pointer
  /// to it (small enough for std::function to hold without allocating).
  void awaitPrerequisites(size_t Count);
  /// One prerequisite is terminal, with CL_COMPLETE or a negative error.
  void prerequisiteDone(cl_int Status);

  /// Registers work the command started that must be done before it is
  /// Complete. Called while the command runs (before finish()), or by a
  /// child that is itself not yet done.
  void addChild();
  /// One child registered with addChild() is done, with CL_COMPLETE or a
  /// negative error.
  void childDone(cl_int Status);

protected:
  virtual void execute() = 0;
  /// Ends the command: CL_COMPLETE or a negative error.
  void finish(cl_int Status);
  /// Runs Body on the device pool as this command's whole work: Running
  /// before it, Complete (or the returned error) after it.
  void runOnPool(std::function<cl_int()> Body);

private:
  /// Called when every prerequisite is met.
  void start();
  /// Drops one outstanding count; the last makes the event terminal.
  void settle();

  Ref<CommandQueue> Queue;
  Ref<Event> Ev;
  /// The command's own work (one, until finish()) plus outstanding children.
  std::atomic<uint32_t> Outstanding{1};
  /// The first error a child reported, or CL_SUCCESS.
  std::atomic<cl_int> ChildError{CL_SUCCESS};
  /// Prerequisites not yet terminal (awaitPrerequisites).
  std::atomic<size_t> Waiting{0};
  std::atomic<bool> PrerequisiteFailed{false};
  /// The command itself while it waits for prerequisites.
  std::shared_ptr<Command> Pinned;
};

/// A command whose whole work is one self-contained task on the pool (the
/// memory commands of MemoryCommands.h): run() returns CL_COMPLETE or a
/// negative error. A command whose work splits (a copy or a fill of many
/// megabytes) says into how many parts (parts()), and the pool runs them
/// side by side (DeviceBackend::runParts): Running before the first,
/// Ended after the last.
class PoolCommand : public Command, public LaunchObserver {
public:
  void launchStarted() override;
  void launchEnded(Status S) override;

protected:
  using Command::Command;
  void execute() override;
  virtual cl_int run() = 0;
  /// The parts the work splits into on a device of Units compute units; 1:
  /// run() does it all.
  virtual size_t parts(size_t Units) const {
    (void)Units;
    return 1;
  }
  /// Part I of Parts (parts() > 1); cannot fail.
  virtual void runPart(size_t I, size_t Parts) {
    (void)I;
    (void)Parts;
  }
};

/// A pool command whose work is a function given at construction.
class TaskCommand : public PoolCommand {
public:
  TaskCommand(CommandQueue &Q, cl_command_type Type, std::function<cl_int()> Body)
      : PoolCommand(Q, Type), Body(std::move(Body)) {}

protected:
  cl_int run() override { return Body(); }

private:
  std::function<cl_int()> Body;
};

/// Markers and barriers: no work, completes as soon as it is Ready.
class SyncCommand : public Command {
public:
  SyncCommand(CommandQueue &Q, cl_command_type Type) : Command(Q, Type) {}
  bool isSynchronization() const override { return true; }

protected:
  void execute() override { finish(CL_COMPLETE); }
};

} // namespace weft::rt

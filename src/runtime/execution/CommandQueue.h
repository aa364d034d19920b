// Command queues: in-order or out-of-order streams of commands on one device.
//
// A device queue (CL_QUEUE_ON_DEVICE) is where kernels enqueue kernels
// (runtime/commands/DeviceEnqueue.h): the host cannot enqueue to it, and its size
// bounds the bytes of the children in flight on it (CLK_DEVICE_QUEUE_FULL).
//
// Submission policy: a command is Submitted as soon as it is enqueued (the
// specification lets an implementation flush at any time), so clFlush has
// nothing left to do. A command becomes Ready when all its prerequisites
// are terminal: its wait list, the previous command (in-order queues), the
// last barrier (out-of-order queues). Readiness is event-driven: each
// prerequisite's completion counts down the command's pending count.
#pragma once

#include "runtime/Object.h"
#include "runtime/commands/Command.h"
#include "runtime/platform/Context.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace weft::rt {

class Device;

class CommandQueue : public Object<_cl_command_queue, HandleKind::CommandQueue> {
public:
  CommandQueue(Context &Ctx, Device &Dev, cl_command_queue_properties Props,
               std::vector<cl_queue_properties> PropertyList, cl_uint Size);

  Context &context() const { return *Ctx; }
  Device &device() const { return Dev; }
  cl_command_queue_properties properties() const { return Props; }
  const std::vector<cl_queue_properties> &propertyList() const { return PropertyList; }
  cl_uint size() const { return Size; }
  bool inOrder() const { return !(Props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
  bool onDevice() const { return Props & CL_QUEUE_ON_DEVICE; }

  /// A device queue: takes Bytes of the queue's size for a command enqueued
  /// from a kernel, or returns false if that would exceed it.
  bool claimDeviceSpace(size_t Bytes);
  /// Gives back what claimDeviceSpace took, once that command is complete.
  void releaseDeviceSpace(size_t Bytes);

  /// Queues Cmd behind WaitList (and the queue's own ordering) and submits
  /// it. Returns its event.
  Ref<Event> enqueue(std::shared_ptr<Command> Cmd, const std::vector<Ref<Event>> &WaitList);

  /// Blocks until every command enqueued so far is terminal.
  void finish();

protected:
  void lastAppReleased() override;

private:
  Ref<Context> Ctx;
  Device &Dev;
  cl_command_queue_properties Props;
  std::vector<cl_queue_properties> PropertyList;
  cl_uint Size;
  std::atomic<size_t> DeviceSpaceUsed{0};

  std::mutex Mutex;
  Ref<Event> Last;                 // in-order: the previous command
  Ref<Event> LastBarrier;          // out-of-order: what later commands wait for
  std::vector<Ref<Event>> Pending; // out-of-order: not known to be terminal yet
  size_t PruneAt = 64;             // prune Pending when it reaches this size
  // Out-of-order: the last marker or barrier that waited for everything
  // before it, and the commands enqueued since. The next such one waits
  // for these alone (the last covers all before it), so a queue with a
  // backlog of n commands and a marker every k pays O(n), not O(n^2 / k).
  Ref<Event> LastFullSync;
  std::vector<Ref<Event>> SinceFullSync;
};

} // namespace weft::rt

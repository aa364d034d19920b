// An NDRange kernel command: a snapshot of the kernel's arguments over a
// resolved range, run as work-groups on the device's pool.
#pragma once

#include "runtime/commands/Command.h"
#include "runtime/execution/NDRange.h"
#include "runtime/program/Kernel.h"

namespace weft::rt {

/// A command whose work is one launch of a kernel on the device: Running at
/// the first work-group, Ended after the last. A kernel that uses
/// device-side enqueue gets its launch's EnqueueScope here, and the
/// children waiting for the launch's end are let go after it
/// (runtime/commands/DeviceEnqueue.h).
class LaunchCommand : public Command, public LaunchObserver {
public:
  void launchStarted() override;
  void launchEnded(Status S) override;

protected:
  using Command::Command;
  void launch(std::shared_ptr<KernelLaunch> L, std::shared_ptr<const BlockKernels> Blocks);

private:
  /// The launch's device-side enqueue, if the kernel uses it.
  std::shared_ptr<EnqueueScope> Scope;
};

class KernelCommand : public LaunchCommand {
public:
  KernelCommand(CommandQueue &Q, Kernel &K, Kernel::Snapshot S, const NDRange &Range);

protected:
  void execute() override;

private:
  Ref<Kernel> Kern;
  Kernel::Snapshot Snap;
  bool Empty;
};

} // namespace weft::rt

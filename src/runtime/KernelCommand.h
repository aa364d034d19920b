// An NDRange kernel command: a snapshot of the kernel's arguments over a
// resolved range, run as work-groups on the device's pool.
#pragma once

#include "runtime/Command.h"
#include "runtime/Kernel.h"
#include "runtime/NDRange.h"

namespace weft::rt {

class KernelCommand : public Command {
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

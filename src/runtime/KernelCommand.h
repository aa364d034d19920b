// An NDRange kernel command: a snapshot of the kernel's arguments, run as
// work-groups on the device's pool.
#pragma once

#include "runtime/Command.h"
#include "runtime/Kernel.h"

namespace weft::rt {

class KernelCommand : public Command {
public:
  KernelCommand(CommandQueue &Q, cl_command_type Type, Kernel &K, Kernel::Snapshot S);

protected:
  void execute() override;

private:
  Ref<Kernel> Kern;
  Kernel::Snapshot Snap;
};

} // namespace weft::rt

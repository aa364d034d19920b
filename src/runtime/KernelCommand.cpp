// Handing an NDRange to the device: Running at the first work-group,
// Ended/Complete after the last.
#include "runtime/KernelCommand.h"
#include "runtime/Device.h"

namespace weft::rt {

KernelCommand::KernelCommand(CommandQueue &Q, cl_command_type Type, Kernel &K, Kernel::Snapshot S)
    : Command(Q, Type), Kern(&K), Snap(std::move(S)) {}

void KernelCommand::execute() {
  auto Self = std::static_pointer_cast<KernelCommand>(shared_from_this());
  uint64_t Items = 1;
  for (uint64_t G : Snap.Launch->GlobalSize)
    Items *= G;
  if (Items == 0) { // OpenCL 2.1+: a zero-sized NDRange does nothing.
    event().advance(Event::Stage::Running);
    finish(CL_COMPLETE);
    return;
  }
  device().backend().launch(
      Snap.Launch, [Self] { Self->event().advance(Event::Stage::Running); },
      [Self](Status S) { Self->finish(S ? CL_COMPLETE : S.error().Code); });
}

} // namespace weft::rt

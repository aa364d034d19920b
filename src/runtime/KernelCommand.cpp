// Handing an NDRange to the device: Running at the first work-group,
// Ended/Complete after the last.
#include "runtime/KernelCommand.h"
#include "runtime/Device.h"

namespace weft::rt {

KernelCommand::KernelCommand(CommandQueue &Q, Kernel &K, Kernel::Snapshot S, const NDRange &Range)
    : Command(Q, CL_COMMAND_NDRANGE_KERNEL), Kern(&K), Snap(std::move(S)), Empty(Range.empty()) {
  KernelLaunch &L = *Snap.Launch;
  L.WorkDim = Range.WorkDim;
  L.GlobalSize = Range.Global;
  L.GlobalOffset = Range.Offset;
  L.LocalSize = Range.Local;
}

void KernelCommand::execute() {
  auto Self = std::static_pointer_cast<KernelCommand>(shared_from_this());
  if (Empty) { // OpenCL 2.1+: a zero-sized NDRange does nothing.
    event().advance(Event::Stage::Running);
    finish(CL_COMPLETE);
    return;
  }
  device().backend().launch(
      Snap.Launch, [Self] { Self->event().advance(Event::Stage::Running); },
      [Self](Status S) { Self->finish(S ? CL_COMPLETE : S.error().Code); });
}

} // namespace weft::rt

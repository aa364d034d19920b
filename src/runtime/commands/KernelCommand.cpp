// Handing an NDRange to the device: Running at the first work-group,
// Ended/Complete after the last.
#include "runtime/commands/KernelCommand.h"
#include "runtime/commands/DeviceEnqueue.h"
#include "runtime/platform/Device.h"

namespace weft::rt {

KernelCommand::KernelCommand(CommandQueue &Q, Kernel &K, Kernel::Snapshot S, const NDRange &Range)
    : LaunchCommand(Q, CL_COMMAND_NDRANGE_KERNEL), Kern(&K), Snap(std::move(S)),
      Empty(Range.empty()) {
  KernelLaunch &L = *Snap.Launch;
  L.WorkDim = Range.WorkDim;
  L.GlobalSize = Range.Global;
  L.GlobalOffset = Range.Offset;
  L.LocalSize = Range.Local;
}

void LaunchCommand::launch(std::shared_ptr<KernelLaunch> L,
                           std::shared_ptr<const BlockKernels> Blocks) {
  if (Blocks) {
    Scope = std::make_shared<EnqueueScope>(*this, std::move(Blocks));
    L->Enqueue = Scope;
  }
  // The device holds the command (and so its references) until the end.
  device().backend().launch(std::move(L),
                            std::static_pointer_cast<LaunchCommand>(shared_from_this()));
}

void LaunchCommand::launchStarted() { event().advance(Event::Stage::Running); }

void LaunchCommand::launchEnded(Status S) {
  // Ended first, then the children waiting for the launch's end go; they
  // keep the command from Complete (addChild) until they are.
  cl_int Code = S ? CL_COMPLETE : S.error().Code;
  finish(Code);
  if (Scope)
    Scope->kernelEnded(Code);
}

void KernelCommand::execute() {
  if (Empty) { // OpenCL 2.1+: a zero-sized NDRange does nothing.
    event().advance(Event::Stage::Running);
    finish(CL_COMPLETE);
    return;
  }
  launch(Snap.Launch, Snap.Blocks);
}

} // namespace weft::rt

// Device-side enqueue: the services kernels call, the commands they make.
#include "runtime/commands/DeviceEnqueue.h"

#include "runtime/commands/KernelCommand.h"
#include "runtime/execution/CommandQueue.h"
#include "runtime/execution/NDRange.h"
#include "runtime/platform/Device.h"
#include "runtime/program/Kernel.h"

#include <cstdlib>
#include <cstring>

namespace weft::rt {

namespace {

// The values OpenCL C gives these names (Clang's opencl-c-base.h).
constexpr int32_t ClkSuccess = 0;
constexpr int32_t ClkInvalidQueue = -102;
constexpr int32_t ClkInvalidNDRange = -160;
constexpr int32_t ClkInvalidEventWaitList = -57;
constexpr int32_t ClkDeviceQueueFull = -161;
constexpr int32_t ClkInvalidArgSize = -51;
constexpr int32_t ClkOutOfResources = -5;
constexpr int32_t ClkEnqueueFailure = -101;
constexpr uint32_t ClkNoWait = 0, ClkWaitKernel = 1, ClkWaitWorkGroup = 2;
constexpr int64_t ClkProfilingCommandExecTime = 1;

/// The device-queue bytes a command takes beyond what it copies: its
/// command, event and launch.
constexpr size_t CommandBytes = 256;

/// An event the kernel holds (a clk_event_t), or null for anything else
/// (CLK_NULL_EVENT, all ones, is no live handle).
Event *eventOf(void *E) { return liveObject<Event>(E); }

/// The kernel's reference to an event of its own making.
void *handOut(const Ref<Event> &E) {
  E->addRef();
  E->list();
  return static_cast<_cl_event *>(E.get());
}

/// A command a kernel enqueued: a child kernel or a marker. It starts when
/// its prerequisites (wait list, parent launch) have all completed,
/// reports to its parent when it is Complete, and gives back its space on
/// the device queue then.
class DeviceCommand final : public LaunchCommand {
public:
  DeviceCommand(CommandQueue &Q, cl_command_type Type, size_t Bytes)
      : LaunchCommand(Q, Type), Bytes(Bytes) {
    event().release(); // the application never sees it
  }

  /// The launch this command runs (none: a marker).
  void setLaunch(std::shared_ptr<KernelLaunch> L, std::shared_ptr<const BlockKernels> B,
                 bool IsEmpty) {
    Launch = std::move(L);
    Blocks = std::move(B);
    Empty = IsEmpty;
  }

  /// Makes the command a child of Parent and submits it behind Count
  /// prerequisites, each reported with prerequisiteDone().
  void submit(std::shared_ptr<Command> Parent, size_t Count) {
    Parent->addChild();
    CommandQueue *Q = &queue();
    size_t Taken = Bytes;
    event().whenDone([Parent = std::move(Parent), Q, Taken](cl_int Status) {
      Q->releaseDeviceSpace(Taken);
      Parent->childDone(Status);
    });
    event().advance(Event::Stage::Submitted);
    awaitPrerequisites(Count);
    prerequisiteDone(CL_COMPLETE); // the one awaitPrerequisites() adds
  }

protected:
  void execute() override {
    if (!Launch || Empty) { // a marker, or an empty range: nothing to run
      event().advance(Event::Stage::Running);
      finish(CL_COMPLETE);
      return;
    }
    launch(Launch, Blocks);
  }

private:
  size_t Bytes;
  std::shared_ptr<KernelLaunch> Launch;
  std::shared_ptr<const BlockKernels> Blocks;
  bool Empty = false;
};

/// Checks a wait list of clk_event_t values; the events, or nothing.
bool waitEvents(uint32_t NumEvents, void *const *WaitList, std::vector<Ref<Event>> &Out) {
  if ((NumEvents == 0) != (WaitList == nullptr))
    return false;
  for (uint32_t I = 0; I < NumEvents; ++I) {
    Event *E = eventOf(WaitList[I]);
    if (!E)
      return false;
    Out.emplace_back(E);
  }
  return true;
}

/// Hands Cmd to its queue behind Waits (and the parent launch's end, when
/// AfterKernel), and its event to *RetEvent when asked.
void submit(EnqueueScope &Scope, const std::shared_ptr<DeviceCommand> &Cmd,
            const std::vector<Ref<Event>> &Waits, bool AfterKernel, void **RetEvent) {
  if (RetEvent)
    *RetEvent = handOut(Cmd->eventRef());
  Cmd->submit(Scope.owner().shared_from_this(), Waits.size() + (AfterKernel ? 1 : 0));
  // The command keeps itself alive until its prerequisites are met.
  auto Arrive = [C = Cmd.get()](cl_int S) { C->prerequisiteDone(S); };
  for (const Ref<Event> &E : Waits)
    E->whenDone(Arrive);
  if (AfterKernel)
    Scope.atKernelEnd(Arrive);
}

EnqueueScope &scopeOf(WorkGroupContext *Ctx) { return *static_cast<EnqueueScope *>(Ctx->Enqueue); }

/// The device queue of the launch's context a kernel names (a queue_t), or
/// null (CLK_INVALID_QUEUE).
CommandQueue *deviceQueueOf(const EnqueueScope &Scope, void *Handle) {
  CommandQueue *Q = liveObject<CommandQueue>(Handle);
  return Q && Q->onDevice() && &Q->context() == &Scope.owner().queue().context() ? Q : nullptr;
}

} // namespace

BlockKernels::BlockKernels(std::shared_ptr<Executable> E, std::vector<KernelDesc> Kernels)
    : Exe(std::move(E)) {
  if (!Exe)
    return;
  // Compiled now, on the thread creating the kernel that enqueues them:
  // the workers that run enqueue_kernel never compile.
  for (KernelDesc &D : Kernels)
    if (Result<WorkGroupFn> Fn = Exe->lookup(D.Name))
      Blocks.push_back({std::move(D), *Fn});
}

const BlockKernels::Block *BlockKernels::find(const char *Name) const {
  if (!Name)
    return nullptr;
  for (const Block &B : Blocks)
    if (B.Desc.Name == Name)
      return &B;
  return nullptr;
}

void EnqueueScope::atKernelEnd(std::function<void(cl_int)> Fn) {
  cl_int Status;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Ended) {
      Waiting.push_back(std::move(Fn));
      return;
    }
    Status = EndStatus;
  }
  Fn(Status);
}

void EnqueueScope::kernelEnded(cl_int Status) {
  std::vector<std::function<void(cl_int)>> Run;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Ended = true;
    EndStatus = Status;
    Run.swap(Waiting);
  }
  for (auto &Fn : Run)
    runFlattened(std::move(Fn), Status);
}

namespace services {

int32_t enqueueKernel(WorkGroupContext *Ctx, void *QueueHandle, uint32_t Flags,
                      const DeviceNDRange *Range, uint32_t NumEvents, void *const *WaitList,
                      void **RetEvent, const char *Kernel, const void *Block, uint32_t NumLocals,
                      const uint64_t *LocalSizes) {
  EnqueueScope &Scope = scopeOf(Ctx);
  CommandQueue *Queue = deviceQueueOf(Scope, QueueHandle);
  if (!Queue)
    return ClkInvalidQueue;
  if (Flags != ClkNoWait && Flags != ClkWaitKernel && Flags != ClkWaitWorkGroup)
    return ClkEnqueueFailure;
  std::vector<Ref<Event>> Waits;
  if (!waitEvents(NumEvents, WaitList, Waits))
    return ClkInvalidEventWaitList;
  const BlockKernels::Block *B = Scope.blocks().find(Kernel);
  if (!B || !Block || !Range || B->Desc.Args.size() != size_t(NumLocals) + 1)
    return ClkEnqueueFailure;
  for (uint32_t I = 0; I < NumLocals; ++I)
    if (LocalSizes[I] == 0)
      return ClkInvalidArgSize;

  // The range, by clEnqueueNDRangeKernel's rules (an empty one included:
  // a global size of 0 is not a range a kernel can ask for).
  Device &Dev = Queue->device();
  const DeviceProperties &P = Dev.props();
  if (Range->WorkDim < 1 || Range->WorkDim > 3)
    return ClkInvalidNDRange;
  NDRangeRequest Request;
  Request.WorkDim = Range->WorkDim;
  Size3 Global{1, 1, 1}, Offset{0, 0, 0}, Local{1, 1, 1};
  bool LocalGiven = false;
  for (uint32_t D = 0; D < Range->WorkDim; ++D) {
    Global[D] = Range->Global[D];
    Offset[D] = Range->Offset[D];
    Local[D] = Range->Local[D];
    LocalGiven |= Local[D] != 0;
    if (Global[D] == 0)
      return ClkInvalidNDRange;
  }
  Request.Global = Global;
  Request.Offset = Offset;
  if (LocalGiven)
    Request.Local = Local;
  const NDRangeLimits Limits{P.MaxWorkGroupSize, kernelMaxWorkGroupSize(B->Desc, P),
                             P.ComputeUnits};
  Result<NDRange> Resolved = resolveNDRange(Request, B->Desc, Limits);
  if (!Resolved)
    return ClkInvalidNDRange;

  // The literal: {size, align, invoke, captures...}, copied now (it lives
  // on the parent's stack).
  uint32_t LiteralSize, LiteralAlign;
  std::memcpy(&LiteralSize, Block, 4);
  std::memcpy(&LiteralAlign, static_cast<const char *>(Block) + 4, 4);
  LiteralAlign = std::max<uint32_t>(LiteralAlign, 16);
  if (LiteralSize < 16 || (LiteralAlign & (LiteralAlign - 1)))
    return ClkEnqueueFailure;

  auto L = std::make_shared<KernelLaunch>();
  L->Fn = B->Fn;
  L->Name = B->Desc.Name;
  L->PrivateFrameSize = B->Desc.PrivateFrameSize;
  L->UsesPrintf = B->Desc.UsesPrintf;
  L->WorkDim = Resolved->WorkDim;
  L->GlobalSize = Resolved->Global;
  L->GlobalOffset = Resolved->Offset;
  L->LocalSize = Resolved->Local;
  size_t Rounded = (LiteralSize + LiteralAlign - 1) / LiteralAlign * LiteralAlign;
  void *Literal = std::aligned_alloc(LiteralAlign, Rounded);
  if (!Literal)
    return ClkOutOfResources;
  std::memcpy(Literal, Block, LiteralSize);
  L->Captured = std::shared_ptr<void>(Literal, std::free);
  // Argument 0 is the literal's address, the others `__local` pointers
  // the device points at its arena (KernelLaunch::LocalArgs).
  L->ArgStorage.resize(16 * (size_t(NumLocals) + 1));
  std::memcpy(L->ArgStorage.data(), &Literal, sizeof(void *));
  L->ArgOffsets.push_back(0);
  size_t LocalTotal = B->Desc.StaticLocalSize;
  for (uint32_t I = 0; I < NumLocals; ++I) {
    L->ArgOffsets.push_back(16 * (size_t(I) + 1));
    L->LocalArgs.emplace_back(I + 1, placeLocalArg(LocalTotal, LocalSizes[I]));
  }
  L->LocalMemSize = LocalTotal;
  if (LocalTotal > P.LocalMemSize)
    return ClkOutOfResources;

  size_t Bytes = CommandBytes + Rounded + 8 * NumLocals;
  if (!Queue->claimDeviceSpace(Bytes))
    return ClkDeviceQueueFull;
  auto Cmd = std::make_shared<DeviceCommand>(*Queue, CL_COMMAND_NDRANGE_KERNEL, Bytes);
  Cmd->setLaunch(std::move(L), B->Desc.UsesDeviceEnqueue ? Scope.blocksRef() : nullptr,
                 Resolved->empty());
  // "CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP: the enqueued kernels wait for the
  // work-group that enqueued them to finish": Weft starts them when the
  // whole launch has ended, which is after that (the same as _WAIT_KERNEL).
  submit(Scope, Cmd, Waits, Flags != ClkNoWait, RetEvent);
  return ClkSuccess;
}

int32_t enqueueMarker(WorkGroupContext *Ctx, void *QueueHandle, uint32_t NumEvents,
                      void *const *WaitList, void **RetEvent) {
  EnqueueScope &Scope = scopeOf(Ctx);
  CommandQueue *Queue = deviceQueueOf(Scope, QueueHandle);
  if (!Queue)
    return ClkInvalidQueue;
  std::vector<Ref<Event>> Waits;
  // "CLK_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL, or if
  // event_wait_list is not NULL and num_events_in_wait_list is 0, or if
  // event objects in event_wait_list are not valid events."
  if (NumEvents == 0 || !waitEvents(NumEvents, WaitList, Waits))
    return ClkInvalidEventWaitList;
  if (!Queue->claimDeviceSpace(CommandBytes))
    return ClkDeviceQueueFull;
  auto Cmd = std::make_shared<DeviceCommand>(*Queue, CL_COMMAND_MARKER, CommandBytes);
  submit(Scope, Cmd, Waits, false, RetEvent);
  return ClkSuccess;
}

uint64_t deviceEvent(WorkGroupContext *Ctx, uint32_t Op, void *EventHandle, int64_t Value,
                     void *Out) {
  EnqueueScope &Scope = scopeOf(Ctx);
  Event *E = eventOf(EventHandle);
  switch (DeviceEventOp(Op)) {
  case DeviceEventOp::CreateUserEvent: {
    Ref<Event> User(new Event(Scope.owner().queue().context(), nullptr, CL_COMMAND_USER));
    User->release(); // born with an application reference no one holds
    return uint64_t(reinterpret_cast<uintptr_t>(handOut(User)));
  }
  case DeviceEventOp::RetainEvent:
    if (E)
      E->addRef();
    return 0;
  case DeviceEventOp::ReleaseEvent:
    if (E)
      E->dropRef();
    return 0;
  case DeviceEventOp::IsValidEvent:
    return E != nullptr;
  case DeviceEventOp::SetStatus:
    if (E && E->isUserEvent()) {
      if (Value == CL_COMPLETE)
        E->advance(Event::Stage::Complete);
      else if (Value < 0)
        E->fail(cl_int(Value));
    }
    return 0;
  case DeviceEventOp::CaptureProfiling:
    // Written when the command is Complete (before its dependents start:
    // they registered after this): END - START, and COMPLETE - START.
    if (E && Out && Value == ClkProfilingCommandExecTime) {
      Ref<Event> Keep(E);
      E->whenDone([Keep, Out](cl_int) {
        uint64_t Start = Keep->timestamp(CL_PROFILING_COMMAND_START);
        uint64_t Times[2] = {Keep->timestamp(CL_PROFILING_COMMAND_END) - Start,
                             Keep->timestamp(CL_PROFILING_COMMAND_COMPLETE) - Start};
        std::memcpy(Out, Times, sizeof(Times));
      });
    }
    return 0;
  case DeviceEventOp::DefaultQueue: {
    Command &Owner = Scope.owner();
    Ref<CommandQueue> Q = Owner.queue().context().defaultDeviceQueue(Owner.device());
    return uint64_t(reinterpret_cast<uintptr_t>(static_cast<_cl_command_queue *>(Q.get())));
  }
  }
  return 0;
}

uint32_t blockQuery(WorkGroupContext *Ctx, uint32_t Query, const char *Kernel,
                    const DeviceNDRange *Range) {
  EnqueueScope &Scope = scopeOf(Ctx);
  const BlockKernels::Block *B = Scope.blocks().find(Kernel);
  if (!B)
    return 0;
  const DeviceProperties &P = Scope.owner().device().props();
  const size_t Max = kernelMaxWorkGroupSize(B->Desc, P);
  switch (BlockQuery(Query)) {
  case BlockQuery::WorkGroupSize:
    return uint32_t(Max);
  case BlockQuery::PreferredMultiple:
    // What clGetKernelWorkGroupInfo reports for the host's kernels.
    return uint32_t(std::min<size_t>(Max, P.VectorWidths[4]));
  case BlockQuery::MaxSubGroupSize:
  case BlockQuery::SubGroupCount: {
    // Sub-groups of the block kernel's size (KernelDesc::SubGroupSize).
    if (!Range)
      return 0;
    uint64_t Items = 1;
    for (uint32_t D = 0; D < Range->WorkDim && D < 3; ++D)
      Items *= Range->Local[D] ? Range->Local[D] : 1;
    const uint64_t Width = B->Desc.SubGroupSize;
    return BlockQuery(Query) == BlockQuery::SubGroupCount
               ? uint32_t((Items + Width - 1) / Width)
               : uint32_t(std::min<uint64_t>(Items, Width));
  }
  }
  return 0;
}

} // namespace services

} // namespace weft::rt

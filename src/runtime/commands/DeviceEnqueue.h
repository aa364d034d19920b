// Device-side enqueue: kernels that enqueue kernels (OpenCL C 6.15.16).
//
// The compiler turns enqueue_kernel, enqueue_marker and the device-event
// built-ins into calls of the runtime services declared here
// (compiler/workgroup/DeviceEnqueuePass.cpp); the device puts them in its
// RuntimeServices table. A kernel that calls them is launched with an
// EnqueueScope (WorkGroupContext::Enqueue), which knows the command that
// runs the launch and the program's block kernels.
//
// A child is a Command on the device queue the kernel named, like a host
// command on a host queue: its event walks the same states, its work-groups
// go to the same work pool, and it registers with its parent
// (Command::addChild), so the parent is Complete only when every descendant
// is. Nothing ever blocks: a child waits for its wait list's events and, for
// CLK_ENQUEUE_FLAGS_WAIT_KERNEL and _WAIT_WORK_GROUP, for the end of the
// parent's launch, by being counted down from their completions, and then
// starts on whichever thread completed the last of them. The space it
// claims on its device queue (CL_QUEUE_SIZE) is given back when it is
// Complete; a full queue is CLK_DEVICE_QUEUE_FULL.
//
// clk_event_t values are event handles; the kernel's references are the
// event's internal references (retain_event / release_event), never the
// application's.
#pragma once

#include "runtime/commands/Command.h"
#include "runtime/platform/DeviceBackend.h"
#include "runtime/program/ProgramCompiler.h"

#include <memory>
#include <mutex>
#include <vector>

namespace weft::rt {

/// The block kernels of one build (KernelDesc::Block) and their code.
class BlockKernels {
public:
  BlockKernels(std::shared_ptr<Executable> Exe, std::vector<KernelDesc> Kernels);

  struct Block {
    KernelDesc Desc;
    WorkGroupFn Fn;
  };
  /// The block kernel with this name (DeviceEnqueuePass passes it), or null.
  const Block *find(const char *Name) const;

private:
  std::shared_ptr<Executable> Exe; // keeps the code of every Fn
  std::vector<Block> Blocks;
};

/// One launch of a kernel that uses device-side enqueue: the services'
/// state (Ctx->Enqueue).
class EnqueueScope {
public:
  EnqueueScope(Command &Owner, std::shared_ptr<const BlockKernels> Blocks)
      : Owner(Owner), Blocks(std::move(Blocks)) {}

  Command &owner() const { return Owner; }
  const BlockKernels &blocks() const { return *Blocks; }
  const std::shared_ptr<const BlockKernels> &blocksRef() const { return Blocks; }

  /// Runs Fn(status of the launch) once every work-group of the launch has
  /// ended: now, if they have.
  void atKernelEnd(std::function<void(cl_int)> Fn);
  /// The launch's work-groups have all ended, with CL_COMPLETE or an error.
  void kernelEnded(cl_int Status);

private:
  Command &Owner; // alive while the launch runs, which is when services run
  std::shared_ptr<const BlockKernels> Blocks;
  std::mutex Mutex;
  bool Ended = false;
  cl_int EndStatus = CL_COMPLETE;
  std::vector<std::function<void(cl_int)>> Waiting;
};

/// The services (runtime/program/KernelAbi.h) the device puts in its table.
namespace services {
int32_t enqueueKernel(WorkGroupContext *Ctx, void *Queue, uint32_t Flags,
                      const DeviceNDRange *Range, uint32_t NumEvents, void *const *WaitList,
                      void **RetEvent, const char *Kernel, const void *Block, uint32_t NumLocals,
                      const uint64_t *LocalSizes);
int32_t enqueueMarker(WorkGroupContext *Ctx, void *Queue, uint32_t NumEvents, void *const *WaitList,
                      void **RetEvent);
uint64_t deviceEvent(WorkGroupContext *Ctx, uint32_t Op, void *Event, int64_t Value, void *Out);
uint32_t blockQuery(WorkGroupContext *Ctx, uint32_t Query, const char *Kernel,
                    const DeviceNDRange *Range);
} // namespace services

} // namespace weft::rt

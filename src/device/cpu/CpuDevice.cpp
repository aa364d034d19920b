// Work-group execution on the TBB arena.
#include "device/cpu/CpuDevice.h"
#include "device/cpu/CpuInfo.h"
#include "device/cpu/KernelFaultReport.h"
#include "device/cpu/Printf.h"
#include "runtime/DeviceEnqueue.h"
#include "runtime/TsanHandOff.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace weft::cpu {

namespace {

/// Per-worker memory for work-groups: the __local arena and the
/// work-item frames of barrier kernels. Grows on demand, never shrinks.
struct WorkerScratch {
  char *Local = nullptr;
  size_t LocalSize = 0;
  char *Private = nullptr;
  size_t PrivateSize = 0;
  char *Collective = nullptr;
  size_t CollectiveSize = 0;
  ~WorkerScratch() {
    std::free(Local);
    std::free(Private);
    std::free(Collective);
  }
  static char *grow(char *Old, size_t &Have, size_t Want) {
    if (Want <= Have)
      return Old;
    std::free(Old);
    size_t Rounded = (Want + rt::LocalMemAlignment - 1) / rt::LocalMemAlignment *
                     rt::LocalMemAlignment;
    Have = Rounded;
    return static_cast<char *>(std::aligned_alloc(rt::LocalMemAlignment, Rounded));
  }
};

thread_local WorkerScratch Scratch;

/// The runtime services of every kernel this device runs (KernelAbi.h).
const rt::RuntimeServices Services{&PrintfOutput::print, &rt::services::enqueueKernel,
                                   &rt::services::enqueueMarker, &rt::services::deviceEvent,
                                   &rt::services::blockQuery};

/// Runs work-groups [Begin, End) of L on the calling worker.
void runGroups(const rt::KernelLaunch &L, const std::array<uint64_t, 3> &NumGroups, size_t Begin,
               size_t End, PrintfOutput *Printf) {
  rt::WorkGroupContext Ctx{};
  Ctx.WorkDim = L.WorkDim;
  for (int D = 0; D < 3; ++D) {
    Ctx.EnqueuedLocalSize[D] = L.LocalSize[D];
    Ctx.GlobalSize[D] = L.GlobalSize[D];
    Ctx.GlobalOffset[D] = L.GlobalOffset[D];
    Ctx.NumGroups[D] = NumGroups[D];
  }

  Scratch.Local =
      WorkerScratch::grow(Scratch.Local, Scratch.LocalSize, std::max<size_t>(L.LocalMemSize, 1));
  size_t MaxItems = L.LocalSize[0] * L.LocalSize[1] * L.LocalSize[2];
  if (L.PrivateFrameSize)
    Scratch.Private =
        WorkerScratch::grow(Scratch.Private, Scratch.PrivateSize, MaxItems * L.PrivateFrameSize);
  Scratch.Collective = WorkerScratch::grow(Scratch.Collective, Scratch.CollectiveSize,
                                           (MaxItems + 1) * rt::CollectiveScratchPerItem);
  Ctx.CollectiveScratch = Scratch.Collective;
  Ctx.LocalMem = Scratch.Local;
  Ctx.LocalMemSize = L.LocalMemSize;
  Ctx.PrivateMem = Scratch.Private;
  Ctx.PrivateMemSize = L.PrivateFrameSize ? MaxItems * L.PrivateFrameSize : 0;
  // Every frame of the work-group function lies below this one.
  Ctx.StackTop = static_cast<char *>(__builtin_frame_address(0));
  Ctx.Services = &Services;
  if (Printf)
    Ctx.PrintfSink = Printf->sink();
  Ctx.Enqueue = L.Enqueue.get();

  // Arguments point into the launch's storage, except __local ones, which
  // point at this worker's arena (at the offsets the runtime laid out).
  std::vector<void *> Args(L.ArgOffsets.size());
  for (size_t I = 0; I < Args.size(); ++I)
    Args[I] = const_cast<unsigned char *>(L.ArgStorage.data()) + L.ArgOffsets[I];
  std::vector<void *> LocalArgPtrs(L.LocalArgs.size());
  for (size_t I = 0; I < L.LocalArgs.size(); ++I) {
    LocalArgPtrs[I] = Scratch.Local + L.LocalArgs[I].second;
    Args[L.LocalArgs[I].first] = &LocalArgPtrs[I];
  }

  RunningKernel Running(L.Name.c_str()); // for WEFT_DEBUG's fault report
  for (size_t G = Begin; G < End; ++G) {
    uint64_t Linear = G;
    for (int D = 0; D < 3; ++D) {
      Ctx.GroupId[D] = Linear % NumGroups[D];
      Linear /= NumGroups[D];
      uint64_t Start = Ctx.GroupId[D] * L.LocalSize[D];
      Ctx.LocalSize[D] = std::min<uint64_t>(L.LocalSize[D], L.GlobalSize[D] - Start);
      Running.Group[D] = Ctx.GroupId[D];
    }
    L.Fn(Args.data(), &Ctx);
  }
}

} // namespace

CpuDevice::CpuDevice() : Props(probeHostCpu()) {
  installKernelFaultReport();
  int Units = int(Props.ComputeUnits);
  Parallelism = std::make_unique<tbb::global_control>(
      tbb::global_control::max_allowed_parallelism,
      std::max<size_t>(Units + 1, tbb::global_control::active_value(
                                      tbb::global_control::max_allowed_parallelism)));
  // No slot reserved for a host thread: host threads never enter the arena.
  Arena.initialize(Units, 0);
}

CpuDevice::~CpuDevice() = default;

void CpuDevice::launch(std::shared_ptr<const rt::KernelLaunch> L, std::function<void()> OnStart,
                       std::function<void(rt::Status)> Done) {
  run([L = std::move(L), OnStart = std::move(OnStart), Done = std::move(Done)] {
    std::array<uint64_t, 3> NumGroups{1, 1, 1};
    uint64_t Total = 1;
    for (int D = 0; D < 3; ++D) {
      NumGroups[D] = L->LocalSize[D] ? (L->GlobalSize[D] + L->LocalSize[D] - 1) / L->LocalSize[D]
                                     : 0;
      Total *= NumGroups[D];
    }
    std::unique_ptr<PrintfOutput> Printf;
    if (L->UsesPrintf)
      Printf = std::make_unique<PrintfOutput>();
    OnStart();
    if (Total == 1) {
      runGroups(*L, NumGroups, 0, 1, Printf.get());
    } else if (Total > 1) {
      // Every chunk starts after the launch and ends before Done (for TSan,
      // which cannot see TBB's own synchronization; see TsanHandOff.h).
      auto Chunk = [&](const tbb::blocked_range<size_t> &R) {
        runGroups(*L, NumGroups, R.begin(), R.end(), Printf.get());
      };
      tbb::parallel_for(tbb::blocked_range<size_t>(0, Total), tsan::HandedOff(Chunk));
      tsan::acquire(&Chunk);
    }
    // The output is complete when the command ends (OpenCL C 6.15.14.3).
    if (Printf)
      Printf->flush();
    Done({});
  });
}

void CpuDevice::run(std::function<void()> Task) {
  static int Sync;
  tsan::release(&Sync);
  [[maybe_unused]] tsan::IgnoreScope Ignore; // TBB's copy of the task, not our memory
  Arena.enqueue([Task = std::move(Task)] {
    tsan::acquire(&Sync);
    Task();
  });
}

} // namespace weft::cpu

namespace weft::rt {
std::unique_ptr<DeviceBackend> createHostCpuBackend() {
  return std::make_unique<cpu::CpuDevice>();
}
} // namespace weft::rt

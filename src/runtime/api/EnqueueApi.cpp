// Every clEnqueue* on buffers and kernels, markers and barriers.
//
// Each entry point validates handles, the wait list and the region, then
// makes one command of the runtime (MemoryCommands.h, KernelCommand.h,
// SyncCommand) and hands it to the queue.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/commands/KernelCommand.h"
#include "runtime/commands/MemoryCommands.h"

#include <algorithm>
#include <cstring>

namespace weft::api {

namespace {

/// A buffer that must belong to the queue's context.
Result<Buffer *> buffer(const Enqueue &E, cl_mem M) { return memObjectOf<Buffer>(E, M, "a buffer"); }

TransferDirection direction(bool IsRead) {
  return IsRead ? TransferDirection::ToHost : TransferDirection::FromHost;
}

/// Resolves default pitches and checks them against the region.
Result<BufferRect> rect(const size_t *Origin, size_t RowPitch, size_t SlicePitch,
                        const size_t *Region) {
  if (RowPitch == 0)
    RowPitch = Region[0];
  WEFT_CHECK(RowPitch < Region[0], CL_INVALID_VALUE, "row pitch is less than region[0]");
  // "if slice_pitch is not equal to zero and is not a multiple of row_pitch"
  // (the row pitch as resolved: region[0] for 0).
  WEFT_CHECK(SlicePitch != 0 && SlicePitch % RowPitch, CL_INVALID_VALUE,
             "slice pitch is not a multiple of the row pitch");
  if (SlicePitch == 0)
    SlicePitch = Region[1] * RowPitch;
  WEFT_CHECK(SlicePitch < Region[1] * RowPitch, CL_INVALID_VALUE,
             "slice pitch is less than region[1] * row pitch");
  return BufferRect{{Origin[0], Origin[1], Origin[2]}, RowPitch, SlicePitch};
}

Status checkRegion(const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region) {
  WEFT_CHECK(!BufferOrigin || !HostOrigin || !Region, CL_INVALID_VALUE,
             "an origin or the region is NULL");
  WEFT_CHECK(Region[0] == 0 || Region[1] == 0 || Region[2] == 0, CL_INVALID_VALUE,
             "a region dimension is 0");
  return {};
}

/// Whether two byte ranges of (possibly related) buffers overlap in memory.
bool overlaps(const MemObject &A, size_t AOff, size_t ALen, const MemObject &B, size_t BOff,
              size_t BLen) {
  const char *A0 = A.data() + AOff, *B0 = B.data() + BOff;
  return A0 < B0 + BLen && B0 < A0 + ALen;
}

Status rectTransfer(cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *BufferOrigin,
                    const size_t *HostOrigin, const size_t *Region, size_t BufferRowPitch,
                    size_t BufferSlicePitch, size_t HostRowPitch, size_t HostSlicePitch,
                    void *Ptr, cl_uint NumEvents, const cl_event *Events, cl_event *Out,
                    bool IsRead) {
  WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
  WEFT_TRY(Mem, buffer(E, M));
  if (auto S = checkRegion(BufferOrigin, HostOrigin, Region); !S)
    return S;
  WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "ptr is NULL");
  const Region3 Reg{Region[0], Region[1], Region[2]};
  WEFT_TRY(B, rect(BufferOrigin, BufferRowPitch, BufferSlicePitch, Region));
  WEFT_TRY(H, rect(HostOrigin, HostRowPitch, HostSlicePitch, Region));
  WEFT_CHECK(!rectFits(B, Reg, Mem->size()), CL_INVALID_VALUE,
             "the region is out of the buffer's bounds");
  if (IsRead)
    WEFT_CHECK(hostCannotRead(*Mem), CL_INVALID_OPERATION, "the host may not read the buffer");
  else
    WEFT_CHECK(hostCannotWrite(*Mem), CL_INVALID_OPERATION, "the host may not write the buffer");
  return submitNew<BufferRectTransferCommand>(E, Out, Blocking, direction(IsRead), *Mem, B, Ptr,
                                              H, Reg);
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: the same checks, the copy
/// in one direction or the other.
Status transfer(cl_command_queue Q, cl_mem M, bool Blocking, size_t Offset, size_t Size,
                void *Ptr, cl_uint NumEvents, const cl_event *Events, cl_event *Out,
                bool IsRead) {
  WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
  WEFT_TRY(Mem, buffer(E, M));
  WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "ptr is NULL");
  WEFT_CHECK(!Mem->contains(Offset, Size), CL_INVALID_VALUE,
             "offset + size is out of the buffer's bounds");
  if (IsRead)
    WEFT_CHECK(hostCannotRead(*Mem), CL_INVALID_OPERATION, "the host may not read the buffer");
  else
    WEFT_CHECK(hostCannotWrite(*Mem), CL_INVALID_OPERATION, "the host may not write the buffer");
  return submitNew<BufferTransferCommand>(E, Out, Blocking, direction(IsRead), *Mem, Offset, Size,
                                          Ptr);
}
} // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                       size_t Offset, size_t Size, void *Ptr, cl_uint NumEvents,
                                       const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return transfer(Q, M, Blocking, Offset, Size, Ptr, NumEvents, Events, Out, /*IsRead=*/true);
  });
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                        size_t Offset, size_t Size, const void *Ptr,
                                        cl_uint NumEvents, const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return transfer(Q, M, Blocking, Offset, Size, const_cast<void *>(Ptr), NumEvents, Events, Out,
                    /*IsRead=*/false);
  });
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                                       size_t SrcOffset, size_t DstOffset, size_t Size,
                                       cl_uint NumEvents, const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(S, buffer(E, Src));
    WEFT_TRY(D, buffer(E, Dst));
    WEFT_CHECK(Size == 0 || !S->contains(SrcOffset, Size) || !D->contains(DstOffset, Size),
               CL_INVALID_VALUE, "the copy is empty or out of bounds");
    WEFT_CHECK(overlaps(*S, SrcOffset, Size, *D, DstOffset, Size) &&
                   (S == D || S->parent() || D->parent()),
               CL_MEM_COPY_OVERLAP, "source and destination regions overlap");
    return submitNew<CopyBufferCommand>(E, Out, false, *S, *D, SrcOffset, DstOffset, Size);
  });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                           const size_t *BufferOrigin, const size_t *HostOrigin,
                                           const size_t *Region, size_t BufferRowPitch,
                                           size_t BufferSlicePitch, size_t HostRowPitch,
                                           size_t HostSlicePitch, void *Ptr, cl_uint NumEvents,
                                           const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return rectTransfer(Q, M, Blocking, BufferOrigin, HostOrigin, Region, BufferRowPitch,
                        BufferSlicePitch, HostRowPitch, HostSlicePitch, Ptr, NumEvents, Events,
                        Out, /*IsRead=*/true);
  });
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                            const size_t *BufferOrigin, const size_t *HostOrigin,
                                            const size_t *Region, size_t BufferRowPitch,
                                            size_t BufferSlicePitch, size_t HostRowPitch,
                                            size_t HostSlicePitch, const void *Ptr,
                                            cl_uint NumEvents, const cl_event *Events,
                                            cl_event *Out) {
  return entry([&] {
    return rectTransfer(Q, M, Blocking, BufferOrigin, HostOrigin, Region, BufferRowPitch,
                        BufferSlicePitch, HostRowPitch, HostSlicePitch, const_cast<void *>(Ptr),
                        NumEvents, Events, Out, /*IsRead=*/false);
  });
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                                           const size_t *SrcOrigin, const size_t *DstOrigin,
                                           const size_t *Region, size_t SrcRowPitch,
                                           size_t SrcSlicePitch, size_t DstRowPitch,
                                           size_t DstSlicePitch, cl_uint NumEvents,
                                           const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(S, buffer(E, Src));
    WEFT_TRY(D, buffer(E, Dst));
    if (auto St = checkRegion(SrcOrigin, DstOrigin, Region); !St)
      return St;
    const Region3 Reg{Region[0], Region[1], Region[2]};
    WEFT_TRY(SR, rect(SrcOrigin, SrcRowPitch, SrcSlicePitch, Region));
    WEFT_TRY(DR, rect(DstOrigin, DstRowPitch, DstSlicePitch, Region));
    WEFT_CHECK(!rectFits(SR, Reg, S->size()) || !rectFits(DR, Reg, D->size()),
               CL_INVALID_VALUE, "a region is out of its buffer's bounds");
    // Compared after 0 became the default pitch, so an explicit default and 0
    // agree. (Stricter than the specification, which only rejects both
    // pitches differing; the overlap test below needs equal pitches.)
    WEFT_CHECK(S == D && (SR.RowPitch != DR.RowPitch || SR.SlicePitch != DR.SlicePitch),
               CL_INVALID_VALUE, "same buffer with different pitches");
    // Same buffer, so the pitches are equal (checked above).
    WEFT_CHECK(S == D && rectsOverlap(SR, DR, Reg), CL_MEM_COPY_OVERLAP,
               "source and destination regions overlap");
    return submitNew<CopyBufferRectCommand>(E, Out, false, *S, SR, *D, DR, Reg);
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue Q, cl_mem M, const void *Pattern,
                                       size_t PatternSize, size_t Offset, size_t Size,
                                       cl_uint NumEvents, const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(Mem, buffer(E, M));
    WEFT_CHECK(!Pattern, CL_INVALID_VALUE, "pattern is NULL");
    WEFT_CHECK(PatternSize == 0 || PatternSize > 128 || (PatternSize & (PatternSize - 1)),
               CL_INVALID_VALUE, "pattern_size is not 1, 2, 4, ..., 128");
    WEFT_CHECK(Offset % PatternSize || Size % PatternSize, CL_INVALID_VALUE,
               "offset or size is not a multiple of pattern_size");
    WEFT_CHECK(!Mem->contains(Offset, Size), CL_INVALID_VALUE,
               "offset + size is out of the buffer's bounds");
    std::vector<char> Pat(static_cast<const char *>(Pattern),
                          static_cast<const char *>(Pattern) + PatternSize);
    return submitNew<FillBufferCommand>(E, Out, false, *Mem, std::move(Pat), Offset, Size);
  });
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                     cl_map_flags Flags, size_t Offset, size_t Size,
                                     cl_uint NumEvents, const cl_event *Events, cl_event *Out,
                                     cl_int *ErrcodeRet) {
  return create<void *>(ErrcodeRet, [&]() -> Result<void *> {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(Mem, buffer(E, M));
    if (Status S = checkMapFlags(Flags); !S)
      return S.error();
    WEFT_CHECK(Size == 0 || !Mem->contains(Offset, Size), CL_INVALID_VALUE,
               "the region is empty or out of the buffer's bounds");
    // Zero-copy: the mapped pointer is the buffer's memory (the host
    // pointer itself with CL_MEM_USE_HOST_PTR).
    return enqueueMap(E, *Mem, Flags, Mem->data() + Offset, CL_COMMAND_MAP_BUFFER, Blocking, Out);
  });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue Q, cl_mem M, void *Ptr,
                                           cl_uint NumEvents, const cl_event *Events,
                                           cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(Mem, memObject(E, M));
    WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "mapped_ptr is NULL");
    WEFT_CHECK(!Mem->removeMapping(Ptr), CL_INVALID_VALUE,
               "mapped_ptr was not returned by a map of this memory object");
    return submitNew<MemoryFenceCommand>(E, Out, false, CL_COMMAND_UNMAP_MEM_OBJECT,
                                         std::vector<Ref<MemObject>>{Ref<MemObject>(Mem)});
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue Q, cl_uint NumMemObjects,
                                              const cl_mem *MemObjects, cl_mem_migration_flags Flags,
                                              cl_uint NumEvents, const cl_event *Events,
                                              cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(NumMemObjects == 0 || !MemObjects, CL_INVALID_VALUE, "no memory objects");
    WEFT_CHECK(Flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
               CL_INVALID_VALUE, "unknown migration flags");
    std::vector<Ref<MemObject>> Keep;
    for (cl_uint I = 0; I < NumMemObjects; ++I) {
      WEFT_TRY(Mem, memObject(E, MemObjects[I]));
      Keep.emplace_back(Mem);
    }
    // Host and device share memory: nothing moves.
    return submitNew<MemoryFenceCommand>(E, Out, false, CL_COMMAND_MIGRATE_MEM_OBJECTS,
                                         std::move(Keep));
  });
}

namespace {
/// The NDRange clEnqueueNDRangeKernel runs for these arguments on Queue's
/// device (a NULL LocalSize chooses one), or the error it returns for them.
Result<NDRange> kernelRange(const CommandQueue &Queue, const Kernel &Kern, cl_uint WorkDim,
                            const size_t *GlobalOffset, const size_t *GlobalSize,
                            const size_t *LocalSize) {
  WEFT_CHECK(&Kern.program().context() != &Queue.context(), CL_INVALID_CONTEXT,
             "the kernel and the queue belong to different contexts");
  WEFT_CHECK(WorkDim < 1 || WorkDim > 3, CL_INVALID_WORK_DIMENSION, "work_dim is not 1, 2 or 3");
  const DeviceProperties &P = Queue.device().props();
  NDRangeRequest Request;
  Request.WorkDim = WorkDim;
  auto sizes = [WorkDim](const size_t *In) {
    Size3 S{1, 1, 1};
    std::copy(In, In + WorkDim, S.begin());
    return S;
  };
  if (GlobalSize)
    Request.Global = sizes(GlobalSize);
  if (GlobalOffset)
    Request.Offset = sizes(GlobalOffset);
  if (LocalSize)
    Request.Local = sizes(LocalSize);
  const NDRangeLimits Limits{P.MaxWorkGroupSize, Kern.maxWorkGroupSize(P), P.ComputeUnits};
  return resolveNDRange(Request, Kern.desc(), Limits);
}
} // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue Q, cl_kernel K, cl_uint WorkDim,
                                          const size_t *GlobalOffset, const size_t *GlobalSize,
                                          const size_t *LocalSize, cl_uint NumEvents,
                                          const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, hostQueue(Q));
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_TRY(Range, kernelRange(*Queue, *Kern, WorkDim, GlobalOffset, GlobalSize, LocalSize));
    const DeviceProperties &P = Queue->device().props();
    WEFT_TRY(Snap, Kern->snapshot(Range, P));
    WEFT_CHECK(Snap.Launch->LocalMemSize > P.LocalMemSize, CL_OUT_OF_RESOURCES,
               "the kernel uses more __local memory than the device has");
    WEFT_TRY(Wait, waitList(NumEvents, Events, &Queue->context()));
    Enqueue E{Queue, std::move(Wait)};
    return submitNew<KernelCommand>(E, Out, false, *Kern, std::move(Snap), Range);
  });
}

// cl_khr_suggested_local_work_size (core in OpenCL 3.1): the local size a
// NULL local_work_size gets for the same launch (resolveNDRange), so that
// the suggestion and the launch agree.
cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSize(cl_command_queue Q, cl_kernel K,
                                                     cl_uint WorkDim, const size_t *GlobalOffset,
                                                     const size_t *GlobalSize,
                                                     size_t *Suggested) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, hostQueue(Q));
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_CHECK(!GlobalSize, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
    for (cl_uint I = 0; I < WorkDim && I < 3; ++I)
      WEFT_CHECK(GlobalSize[I] == 0, CL_INVALID_GLOBAL_WORK_SIZE,
                 "a global_work_size value is 0");
    WEFT_TRY(Range, kernelRange(*Queue, *Kern, WorkDim, GlobalOffset, GlobalSize, nullptr));
    WEFT_CHECK(!Suggested, CL_INVALID_VALUE, "suggested_local_work_size is NULL");
    if (Status Ready = Kern->argumentsReady(); !Ready)
      return Ready;
    WEFT_CHECK(Kern->localMemSize() > Queue->device().props().LocalMemSize, CL_OUT_OF_RESOURCES,
               "the kernel uses more __local memory than the device has");
    std::copy(Range.Local.begin(), Range.Local.begin() + WorkDim, Suggested);
    return {};
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue Q, cl_kernel K, cl_uint NumEvents,
                                 const cl_event *Events, cl_event *Out) {
  const size_t One = 1;
  return api::clEnqueueNDRangeKernel(Q, K, 1, nullptr, &One, &One, NumEvents, Events, Out);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue Q, void(CL_CALLBACK *Fn)(void *),
                                         void *Args, size_t CbArgs, cl_uint NumMemObjects,
                                         const cl_mem *MemList, const void **ArgsMemLoc,
                                         cl_uint NumEvents, const cl_event *Events,
                                         cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(!Fn, CL_INVALID_VALUE, "user_func is NULL");
    WEFT_CHECK(!Args && (CbArgs > 0 || NumMemObjects > 0), CL_INVALID_VALUE,
               "args is NULL but cb_args or num_mem_objects is not 0");
    WEFT_CHECK(Args && CbArgs == 0, CL_INVALID_VALUE, "args is not NULL and cb_args is 0");
    WEFT_CHECK(NumMemObjects > 0 && (!MemList || !ArgsMemLoc), CL_INVALID_VALUE,
               "num_mem_objects > 0 and mem_list or args_mem_loc is NULL");
    WEFT_CHECK(NumMemObjects == 0 && (MemList || ArgsMemLoc), CL_INVALID_VALUE,
               "num_mem_objects is 0 and mem_list or args_mem_loc is not NULL");
    // The argument block is copied now; each memory object handle in it
    // (at args_mem_loc[i], an address inside args) is replaced in the copy
    // by a pointer to the object's memory.
    std::vector<char> Block(static_cast<char *>(Args), static_cast<char *>(Args) + CbArgs);
    std::vector<Ref<MemObject>> Keep;
    for (cl_uint I = 0; I < NumMemObjects; ++I) {
      // "CL_INVALID_MEM_OBJECT if one or more memory objects specified in
      // mem_list are not valid or are not buffer objects".
      WEFT_TRY(Mem, buffer(E, MemList[I]));
      size_t Off = static_cast<const char *>(ArgsMemLoc[I]) - static_cast<const char *>(Args);
      WEFT_CHECK(ArgsMemLoc[I] < Args || Off + sizeof(void *) > CbArgs, CL_INVALID_VALUE,
                 "args_mem_loc points outside args");
      void *Data = Mem->data();
      std::memcpy(Block.data() + Off, &Data, sizeof(void *));
      Keep.emplace_back(Mem);
    }
    return submitNew<NativeKernelCommand>(E, Out, false, Fn, std::move(Block), std::move(Keep));
  });
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue Q, cl_uint NumEvents,
                                               const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_MARKER), Out, false);
  });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue Q, cl_uint NumEvents,
                                                const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_BARRIER), Out, false);
  });
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue Q, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_CHECK(fromHandle<CommandQueue>(Q) && !Out, CL_INVALID_VALUE, "event is NULL");
    WEFT_TRY(E, beginEnqueue(Q, 0, nullptr));
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_MARKER), Out, false);
  });
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue Q) {
  return api::clEnqueueBarrierWithWaitList(Q, 0, nullptr, nullptr);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue Q, cl_uint NumEvents,
                                          const cl_event *Events) {
  return entry([&]() -> Status {
    WEFT_VALID(CommandQueue, Q);
    WEFT_CHECK(NumEvents == 0 || !Events, CL_INVALID_VALUE, "no events given");
    for (cl_uint I = 0; I < NumEvents; ++I)
      WEFT_VALID(Event, Events[I]);
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    // A barrier on exactly these events.
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_BARRIER), nullptr, false);
  });
}

} // namespace weft::api

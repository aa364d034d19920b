// Every clEnqueue* on buffers and kernels, markers and barriers.
//
// Each entry point validates handles, the wait list and the region, then
// builds one command whose body captures what it needs by value (and holds
// references to the memory objects), and hands it to the queue.
#include "runtime/KernelCommand.h"
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

#include <algorithm>
#include <cstring>

namespace weft::api {

namespace {

struct Enqueue {
  CommandQueue *Queue;
  std::vector<Ref<Event>> WaitList;
};

/// The checks every enqueue starts with: the queue, then the wait list.
Result<Enqueue> begin(cl_command_queue Q, cl_uint NumEvents, const cl_event *Events) {
  WEFT_TRY(Queue, get<CommandQueue>(Q));
  WEFT_TRY(Wait, waitList(NumEvents, Events, &Queue->context()));
  return Enqueue{Queue, std::move(Wait)};
}

/// A memory object that must belong to the queue's context.
Result<MemObject *> buffer(const Enqueue &E, cl_mem M) {
  WEFT_TRY(Mem, get<MemObject>(M));
  WEFT_CHECK(&Mem->context() != &E.Queue->context(), CL_INVALID_CONTEXT,
             "the memory object and the queue belong to different contexts");
  return Mem;
}

Status submit(Enqueue &E, std::shared_ptr<Command> Cmd, cl_event *Out, bool Blocking) {
  Ref<Event> Ev = E.Queue->enqueue(std::move(Cmd), E.WaitList);
  returnEvent(Ev, Out);
  return Blocking ? waitBlocking(Ev) : Status();
}

Status submitTask(Enqueue &E, cl_command_type Type, std::function<cl_int()> Body,
                  cl_event *Out, bool Blocking) {
  return submit(E, std::make_shared<TaskCommand>(*E.Queue, Type, std::move(Body)), Out,
                Blocking);
}

bool hostCannotRead(const MemObject &M) {
  return M.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
}
bool hostCannotWrite(const MemObject &M) {
  return M.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
}

/// A rectangle inside a linear allocation, pitches resolved.
struct Rect {
  size_t Origin[3];
  size_t RowPitch, SlicePitch;
  size_t offset() const { return Origin[2] * SlicePitch + Origin[1] * RowPitch + Origin[0]; }
};

/// Resolves default pitches and checks them against the region.
Result<Rect> rect(const size_t *Origin, size_t RowPitch, size_t SlicePitch,
                  const size_t *Region) {
  if (RowPitch == 0)
    RowPitch = Region[0];
  if (SlicePitch == 0)
    SlicePitch = Region[1] * RowPitch;
  WEFT_CHECK(RowPitch < Region[0], CL_INVALID_VALUE, "row pitch is less than region[0]");
  // A slice pitch need not be a multiple of the row pitch, but slices must
  // not overlap.
  WEFT_CHECK(SlicePitch < Region[1] * RowPitch, CL_INVALID_VALUE,
             "slice pitch is less than region[1] * row pitch");
  return Rect{{Origin[0], Origin[1], Origin[2]}, RowPitch, SlicePitch};
}

/// Whether a rectangle lies inside a Size-byte buffer. Computed with
/// overflow checks: huge origins or pitches must not wrap around into range.
bool rectFits(const Rect &R, const size_t *Region, size_t Size) {
  const size_t Terms[][2] = {
      {R.Origin[2], R.SlicePitch}, {R.Origin[1], R.RowPitch}, {Region[2] - 1, R.SlicePitch},
      {Region[1] - 1, R.RowPitch}, {R.Origin[0], 1},          {Region[0], 1}};
  size_t End = 0;
  for (const auto &T : Terms) {
    size_t Product;
    if (__builtin_mul_overflow(T[0], T[1], &Product) || __builtin_add_overflow(End, Product, &End))
      return false;
  }
  return End <= Size;
}

/// The specification's check_copy_overlap (appendix "Checking for Memory
/// Copy Overlap") for two rectangles of one buffer with the same pitches:
/// bounding ranges that intersect may still interleave without touching.
bool rectsOverlap(const Rect &Src, const Rect &Dst, const size_t *Region) {
  const size_t RowPitch = Src.RowPitch, SlicePitch = Src.SlicePitch;
  const size_t SliceSize = (Region[1] - 1) * RowPitch + Region[0];
  const size_t BlockSize = (Region[2] - 1) * SlicePitch + SliceSize;
  const size_t SrcStart = Src.offset(), SrcEnd = SrcStart + BlockSize;
  const size_t DstStart = Dst.offset(), DstEnd = DstStart + BlockSize;
  if (DstEnd <= SrcStart || SrcEnd <= DstStart)
    return false;
  const size_t SrcDx = Src.Origin[0] % RowPitch, DstDx = Dst.Origin[0] % RowPitch;
  if ((DstDx >= SrcDx + Region[0] && DstDx + Region[0] <= SrcDx + RowPitch) ||
      (SrcDx >= DstDx + Region[0] && SrcDx + Region[0] <= DstDx + RowPitch))
    return false;
  const size_t SrcDy = (Src.Origin[1] * RowPitch + Src.Origin[0]) % SlicePitch;
  const size_t DstDy = (Dst.Origin[1] * RowPitch + Dst.Origin[0]) % SlicePitch;
  if ((DstDy >= SrcDy + SliceSize && DstDy + SliceSize <= SrcDy + SlicePitch) ||
      (SrcDy >= DstDy + SliceSize && SrcDy + SliceSize <= DstDy + SlicePitch))
    return false;
  return true;
}

Status checkRegion(const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region) {
  WEFT_CHECK(!BufferOrigin || !HostOrigin || !Region, CL_INVALID_VALUE,
             "an origin or the region is NULL");
  WEFT_CHECK(Region[0] == 0 || Region[1] == 0 || Region[2] == 0, CL_INVALID_VALUE,
             "a region dimension is 0");
  return {};
}

/// Fills Size bytes at Dst with a pattern of PatternSize bytes (a power of
/// two up to 128; Size is a multiple of it). A pattern of one repeated byte
/// is a memset; any other is copied from a block of whole patterns, so the
/// copies are long ones, not one call per pattern.
void fillPattern(char *Dst, size_t Size, const char *Pattern, size_t PatternSize) {
  if (std::all_of(Pattern, Pattern + PatternSize, [&](char C) { return C == Pattern[0]; })) {
    std::memset(Dst, Pattern[0], Size);
    return;
  }
  alignas(64) char Block[4096];
  static_assert(sizeof(Block) % 128 == 0, "the block holds whole patterns of every size");
  for (size_t I = 0; I < sizeof(Block); I += PatternSize)
    std::memcpy(Block + I, Pattern, PatternSize);
  for (size_t Done = 0; Done < Size; Done += sizeof(Block))
    std::memcpy(Dst + Done, Block, std::min(sizeof(Block), Size - Done));
}

void copyRect(char *Dst, const Rect &D, const char *Src, const Rect &S, const size_t *Region) {
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      std::memmove(Dst + D.offset() + Z * D.SlicePitch + Y * D.RowPitch,
                   Src + S.offset() + Z * S.SlicePitch + Y * S.RowPitch, Region[0]);
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
  WEFT_TRY(E, begin(Q, NumEvents, Events));
  WEFT_TRY(Mem, buffer(E, M));
  if (auto S = checkRegion(BufferOrigin, HostOrigin, Region); !S)
    return S;
  WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "ptr is NULL");
  WEFT_TRY(B, rect(BufferOrigin, BufferRowPitch, BufferSlicePitch, Region));
  WEFT_TRY(H, rect(HostOrigin, HostRowPitch, HostSlicePitch, Region));
  WEFT_CHECK(!rectFits(B, Region, Mem->size()), CL_INVALID_VALUE,
             "the region is out of the buffer's bounds");
  if (IsRead)
    WEFT_CHECK(hostCannotRead(*Mem), CL_INVALID_OPERATION, "the host may not read the buffer");
  else
    WEFT_CHECK(hostCannotWrite(*Mem), CL_INVALID_OPERATION, "the host may not write the buffer");
  std::array<size_t, 3> Reg{Region[0], Region[1], Region[2]};
  Ref<MemObject> Keep(Mem);
  return submitTask(
      E, IsRead ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
      [Keep, B = B, H = H, Reg, Ptr, IsRead] {
        if (IsRead)
          copyRect(static_cast<char *>(Ptr), H, Keep->data(), B, Reg.data());
        else
          copyRect(Keep->data(), B, static_cast<const char *>(Ptr), H, Reg.data());
        return CL_COMPLETE;
      },
      Out, Blocking);
}

/// Picks a local size for a NULL local_work_size: up to 128 work-items (long
/// enough loops to vectorize) and KernelMax (CL_KERNEL_WORK_GROUP_SIZE),
/// small enough to leave every compute unit a few groups. A divisor of the
/// global size is preferred; a kernel that allows non-uniform work-groups
/// takes a smaller last group rather than a divisor less than half the size
/// it could have (a prime global size would otherwise run one work-item per
/// group).
std::array<uint64_t, 3> chooseLocalSize(const Device &D, size_t KernelMax, cl_uint Dim,
                                        const std::array<uint64_t, 3> &Global,
                                        bool AllowNonUniform) {
  auto Pick = [AllowNonUniform](uint64_t N, uint64_t Max) {
    const uint64_t Want = std::max<uint64_t>(1, std::min(N, Max));
    for (uint64_t L = Want; L > 1; --L)
      if (N % L == 0)
        return AllowNonUniform && 2 * L < Want ? Want : L;
    return AllowNonUniform ? Want : uint64_t(1);
  };
  std::array<uint64_t, 3> Local{1, 1, 1};
  uint64_t Budget = std::min<uint64_t>(128, KernelMax);
  for (cl_uint I = 0; I < Dim; ++I) {
    Local[I] = Pick(Global[I], Budget);
    Budget /= Local[I];
  }
  auto Groups = [&] {
    uint64_t N = 1;
    for (cl_uint I = 0; I < Dim; ++I)
      N *= (Global[I] + Local[I] - 1) / Local[I];
    return N;
  };
  const uint64_t WantGroups = uint64_t(D.props().ComputeUnits) * 4;
  for (cl_uint I = Dim; I-- > 0;)
    while (Groups() < WantGroups && Local[I] > 1)
      Local[I] = Pick(Global[I], Local[I] / 2);
  return Local;
}

} // namespace

namespace {
/// clEnqueueReadBuffer and clEnqueueWriteBuffer: the same checks, the copy
/// in one direction or the other.
Status transfer(cl_command_queue Q, cl_mem M, bool Blocking, size_t Offset, size_t Size,
                void *Ptr, cl_uint NumEvents, const cl_event *Events, cl_event *Out,
                bool IsRead) {
  WEFT_TRY(E, begin(Q, NumEvents, Events));
  WEFT_TRY(Mem, buffer(E, M));
  WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "ptr is NULL");
  WEFT_CHECK(!Mem->contains(Offset, Size), CL_INVALID_VALUE,
             "offset + size is out of the buffer's bounds");
  if (IsRead)
    WEFT_CHECK(hostCannotRead(*Mem), CL_INVALID_OPERATION, "the host may not read the buffer");
  else
    WEFT_CHECK(hostCannotWrite(*Mem), CL_INVALID_OPERATION, "the host may not write the buffer");
  Ref<MemObject> Keep(Mem);
  return submitTask(
      E, IsRead ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER,
      [Keep, Offset, Size, Ptr, IsRead] {
        if (IsRead)
          std::memcpy(Ptr, Keep->data() + Offset, Size);
        else
          std::memcpy(Keep->data() + Offset, Ptr, Size);
        return CL_COMPLETE;
      },
      Out, Blocking);
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
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    WEFT_TRY(S, buffer(E, Src));
    WEFT_TRY(D, buffer(E, Dst));
    WEFT_CHECK(Size == 0 || !S->contains(SrcOffset, Size) || !D->contains(DstOffset, Size),
               CL_INVALID_VALUE, "the copy is empty or out of bounds");
    WEFT_CHECK(overlaps(*S, SrcOffset, Size, *D, DstOffset, Size) &&
                   (S == D || S->parent() || D->parent()),
               CL_MEM_COPY_OVERLAP, "source and destination regions overlap");
    Ref<MemObject> KS(S), KD(D);
    return submitTask(
        E, CL_COMMAND_COPY_BUFFER,
        [KS, KD, SrcOffset, DstOffset, Size] {
          std::memcpy(KD->data() + DstOffset, KS->data() + SrcOffset, Size);
          return CL_COMPLETE;
        },
        Out, false);
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
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    WEFT_TRY(S, buffer(E, Src));
    WEFT_TRY(D, buffer(E, Dst));
    if (auto St = checkRegion(SrcOrigin, DstOrigin, Region); !St)
      return St;
    WEFT_TRY(SR, rect(SrcOrigin, SrcRowPitch, SrcSlicePitch, Region));
    WEFT_TRY(DR, rect(DstOrigin, DstRowPitch, DstSlicePitch, Region));
    WEFT_CHECK(!rectFits(SR, Region, S->size()) || !rectFits(DR, Region, D->size()),
               CL_INVALID_VALUE, "a region is out of its buffer's bounds");
    // Compared after 0 became the default pitch, so an explicit default and 0
    // agree. (Stricter than the specification, which only rejects both
    // pitches differing; the overlap test below needs equal pitches.)
    WEFT_CHECK(S == D && (SR.RowPitch != DR.RowPitch || SR.SlicePitch != DR.SlicePitch),
               CL_INVALID_VALUE, "same buffer with different pitches");
    // Same buffer, so the pitches are equal (checked above).
    WEFT_CHECK(S == D && rectsOverlap(SR, DR, Region), CL_MEM_COPY_OVERLAP,
               "source and destination regions overlap");
    std::array<size_t, 3> Reg{Region[0], Region[1], Region[2]};
    Ref<MemObject> KS(S), KD(D);
    return submitTask(
        E, CL_COMMAND_COPY_BUFFER_RECT,
        [KS, KD, SR = SR, DR = DR, Reg] {
          copyRect(KD->data(), DR, KS->data(), SR, Reg.data());
          return CL_COMPLETE;
        },
        Out, false);
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue Q, cl_mem M, const void *Pattern,
                                       size_t PatternSize, size_t Offset, size_t Size,
                                       cl_uint NumEvents, const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, begin(Q, NumEvents, Events));
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
    Ref<MemObject> Keep(Mem);
    return submitTask(
        E, CL_COMMAND_FILL_BUFFER,
        [Keep, Pat = std::move(Pat), Offset, Size] {
          fillPattern(Keep->data() + Offset, Size, Pat.data(), Pat.size());
          return CL_COMPLETE;
        },
        Out, false);
  });
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                     cl_map_flags Flags, size_t Offset, size_t Size,
                                     cl_uint NumEvents, const cl_event *Events, cl_event *Out,
                                     cl_int *ErrcodeRet) {
  return create<void *>(ErrcodeRet, [&]() -> Result<void *> {
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    WEFT_TRY(Mem, buffer(E, M));
    WEFT_CHECK(Flags & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION),
               CL_INVALID_VALUE, "unknown map flags");
    WEFT_CHECK((Flags & CL_MAP_WRITE_INVALIDATE_REGION) && (Flags & (CL_MAP_READ | CL_MAP_WRITE)),
               CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
    WEFT_CHECK(Size == 0 || !Mem->contains(Offset, Size), CL_INVALID_VALUE,
               "the region is empty or out of the buffer's bounds");
    WEFT_CHECK((Flags & CL_MAP_READ) && hostCannotRead(*Mem), CL_INVALID_OPERATION,
               "CL_MAP_READ on a buffer the host may not read");
    WEFT_CHECK((Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && hostCannotWrite(*Mem),
               CL_INVALID_OPERATION, "CL_MAP_WRITE on a buffer the host may not write");
    // Zero-copy: the mapped pointer is the buffer's memory (the host
    // pointer itself with CL_MEM_USE_HOST_PTR).
    void *Ptr = Mem->data() + Offset;
    Mem->addMapping(Ptr);
    Ref<MemObject> Keep(Mem);
    Status S = submitTask(
        E, CL_COMMAND_MAP_BUFFER, [Keep] { return CL_COMPLETE; }, Out, Blocking);
    if (!S) {
      // No pointer reaches the application, so no unmap will come.
      Mem->removeMapping(Ptr);
      return S.error();
    }
    return Ptr;
  });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue Q, cl_mem M, void *Ptr,
                                           cl_uint NumEvents, const cl_event *Events,
                                           cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    WEFT_TRY(Mem, buffer(E, M));
    WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "mapped_ptr is NULL");
    WEFT_CHECK(!Mem->removeMapping(Ptr), CL_INVALID_VALUE,
               "mapped_ptr was not returned by a map of this memory object");
    Ref<MemObject> Keep(Mem);
    return submitTask(
        E, CL_COMMAND_UNMAP_MEM_OBJECT, [Keep] { return CL_COMPLETE; }, Out, false);
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue Q, cl_uint NumMemObjects,
                                              const cl_mem *MemObjects, cl_mem_migration_flags Flags,
                                              cl_uint NumEvents, const cl_event *Events,
                                              cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    WEFT_CHECK(NumMemObjects == 0 || !MemObjects, CL_INVALID_VALUE, "no memory objects");
    WEFT_CHECK(Flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
               CL_INVALID_VALUE, "unknown migration flags");
    std::vector<Ref<MemObject>> Keep;
    for (cl_uint I = 0; I < NumMemObjects; ++I) {
      WEFT_TRY(Mem, buffer(E, MemObjects[I]));
      Keep.emplace_back(Mem);
    }
    // Host and device share memory: nothing moves.
    return submitTask(
        E, CL_COMMAND_MIGRATE_MEM_OBJECTS, [Keep] { return CL_COMPLETE; }, Out, false);
  });
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue Q, cl_kernel K, cl_uint WorkDim,
                                          const size_t *GlobalOffset, const size_t *GlobalSize,
                                          const size_t *LocalSize, cl_uint NumEvents,
                                          const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, get<CommandQueue>(Q));
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_CHECK(&Kern->program().context() != &Queue->context(), CL_INVALID_CONTEXT,
               "the kernel and the queue belong to different contexts");
    WEFT_CHECK(WorkDim < 1 || WorkDim > 3, CL_INVALID_WORK_DIMENSION,
               "work_dim is not 1, 2 or 3");
    const Device &D = Queue->device();
    const KernelDesc &Desc = Kern->desc();
    std::array<uint64_t, 3> Global{1, 1, 1}, Offset{0, 0, 0}, Local{1, 1, 1};
    // OpenCL 2.1+: a NULL global_work_size, like a 0 in it, is an empty
    // NDRange; the command does nothing but still orders and signals.
    bool Empty = !GlobalSize;
    if (Empty)
      Global[0] = 0;
    for (cl_uint I = 0; I < WorkDim && GlobalSize; ++I) {
      Global[I] = GlobalSize[I];
      Empty |= Global[I] == 0;
      if (GlobalOffset) {
        Offset[I] = GlobalOffset[I];
        WEFT_CHECK(Offset[I] + Global[I] < Offset[I], CL_INVALID_GLOBAL_OFFSET,
                   "global_work_offset + global_work_size overflows size_t");
      }
    }
    const bool HasReqd = Desc.ReqdWorkGroupSize[0] != 0;
    const size_t KernelMax = Kern->maxWorkGroupSize(D.props());
    if (LocalSize) {
      uint64_t Items = 1;
      for (cl_uint I = 0; I < WorkDim; ++I) {
        Local[I] = LocalSize[I];
        WEFT_CHECK(Local[I] == 0, CL_INVALID_WORK_GROUP_SIZE, "a local_work_size is 0");
        WEFT_CHECK(Local[I] > D.props().MaxWorkGroupSize, CL_INVALID_WORK_ITEM_SIZE,
                   "local_work_size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
        // The last work-group of a dimension may be smaller, except in
        // kernels that promised uniform work-groups.
        WEFT_CHECK(Desc.UniformWorkGroupSize && Global[I] % Local[I], CL_INVALID_WORK_GROUP_SIZE,
                   "global_work_size is not a multiple of local_work_size, and the kernel "
                   "requires uniform work-groups (OpenCL C 1.x or -cl-uniform-work-group-size)");
        Items *= Local[I];
      }
      WEFT_CHECK(Items > KernelMax, CL_INVALID_WORK_GROUP_SIZE,
                 "the work-group is larger than CL_KERNEL_WORK_GROUP_SIZE");
      if (HasReqd)
        for (int I = 0; I < 3; ++I)
          WEFT_CHECK(Local[I] != Desc.ReqdWorkGroupSize[I], CL_INVALID_WORK_GROUP_SIZE,
                     "local_work_size differs from reqd_work_group_size");
    } else if (HasReqd) {
      // A NULL local_work_size takes the kernel's reqd_work_group_size.
      for (int I = 0; I < 3; ++I)
        Local[I] = Desc.ReqdWorkGroupSize[I];
      // A kernel using sub-groups may require more than they allow.
      WEFT_CHECK(Local[0] * Local[1] * Local[2] > KernelMax, CL_INVALID_WORK_GROUP_SIZE,
                 "reqd_work_group_size is larger than CL_KERNEL_WORK_GROUP_SIZE");
      for (cl_uint I = 0; I < WorkDim; ++I)
        WEFT_CHECK(Desc.UniformWorkGroupSize && Global[I] % Local[I], CL_INVALID_WORK_GROUP_SIZE,
                   "global_work_size is not a multiple of reqd_work_group_size, and the kernel "
                   "requires uniform work-groups");
    } else if (!Empty) {
      Local = chooseLocalSize(D, KernelMax, WorkDim, Global, !Desc.UniformWorkGroupSize);
    }
    WEFT_CHECK(!Kern->allArgsSet(), CL_INVALID_KERNEL_ARGS, "not every argument is set");
    WEFT_CHECK(Kern->localMemSize() > D.props().LocalMemSize, CL_OUT_OF_RESOURCES,
               "the kernel uses more __local memory than the device has");
    WEFT_TRY(Wait, waitList(NumEvents, Events, &Queue->context()));

    Kernel::Snapshot Snap = Kern->snapshot();
    Snap.Launch->WorkDim = WorkDim;
    Snap.Launch->GlobalSize = Global;
    Snap.Launch->GlobalOffset = Offset;
    Snap.Launch->LocalSize = Local;
    Enqueue E{Queue, std::move(Wait)};
    cl_command_type Type = CL_COMMAND_NDRANGE_KERNEL;
    return submit(E, std::make_shared<KernelCommand>(*Queue, Type, *Kern, std::move(Snap)), Out,
                  false);
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
    WEFT_TRY(E, begin(Q, NumEvents, Events));
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
      WEFT_TRY(Mem, buffer(E, MemList[I]));
      size_t Off = static_cast<const char *>(ArgsMemLoc[I]) - static_cast<const char *>(Args);
      WEFT_CHECK(ArgsMemLoc[I] < Args || Off + sizeof(void *) > CbArgs, CL_INVALID_VALUE,
                 "args_mem_loc points outside args");
      void *Data = Mem->data();
      std::memcpy(Block.data() + Off, &Data, sizeof(void *));
      Keep.emplace_back(Mem);
    }
    return submitTask(
        E, CL_COMMAND_NATIVE_KERNEL,
        [Fn, Block = std::move(Block), Keep = std::move(Keep)]() mutable {
          Fn(Block.empty() ? nullptr : Block.data());
          return CL_COMPLETE;
        },
        Out, false);
  });
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue Q, cl_uint NumEvents,
                                               const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_MARKER), Out, false);
  });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue Q, cl_uint NumEvents,
                                                const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_BARRIER), Out, false);
  });
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue Q, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_CHECK(fromHandle<CommandQueue>(Q) && !Out, CL_INVALID_VALUE, "event is NULL");
    WEFT_TRY(E, begin(Q, 0, nullptr));
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
    WEFT_TRY(E, begin(Q, NumEvents, Events));
    // A barrier on exactly these events.
    return submit(E, std::make_shared<SyncCommand>(*E.Queue, CL_COMMAND_BARRIER), nullptr, false);
  });
}

} // namespace weft::api

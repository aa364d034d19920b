// Shared virtual memory: clSVMAlloc and clSVMFree, and the clEnqueueSVM*
// commands.
//
// Host and device share one address space, so every SVM capability is
// offered (Capabilities.h): coarse- and fine-grained buffers, fine-grained
// system memory (any host pointer is an SVM pointer) and SVM atomics.
// Allocations live in the context's SvmRegistry. Map, unmap and migrate
// move nothing; they order and signal like any command.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/commands/MemoryCommands.h"
#include "runtime/platform/Capabilities.h"

#include <algorithm>

namespace weft::api {

static_assert(SvmCapabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER,
              "these entry points implement SVM: the feature table must report it");

namespace {

constexpr cl_svm_mem_flags SvmAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

/// The largest OpenCL C type (long16): the default alignment.
constexpr size_t LargestTypeSize = 128;

Result<void *> svmAlloc(cl_context C, cl_svm_mem_flags Flags, size_t Size, cl_uint Alignment) {
  WEFT_TRY(Ctx, get<Context>(C));
  // "The values specified in flags are not valid" / "do not follow rules".
  WEFT_CHECK(Flags & ~(SvmAccessFlags | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS),
             CL_INVALID_VALUE, "unknown bits in cl_svm_mem_flags");
  const cl_svm_mem_flags Access = Flags & SvmAccessFlags;
  WEFT_CHECK(Access & (Access - 1), CL_INVALID_VALUE,
             "more than one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY");
  // "flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
  // CL_MEM_SVM_ATOMICS".
  WEFT_CHECK((Flags & CL_MEM_SVM_ATOMICS) && !(Flags & CL_MEM_SVM_FINE_GRAIN_BUFFER),
             CL_INVALID_VALUE, "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
  WEFT_CHECK((Flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) &&
                 !(SvmCapabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER),
             CL_INVALID_VALUE, "fine-grained SVM buffers are not supported");
  WEFT_CHECK((Flags & CL_MEM_SVM_ATOMICS) && !(SvmCapabilities & CL_DEVICE_SVM_ATOMICS),
             CL_INVALID_VALUE, "SVM atomics are not supported");
  // "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device".
  WEFT_CHECK(Size == 0, CL_INVALID_VALUE, "size is 0");
  for (Device *D : Ctx->devices())
    WEFT_CHECK(Size > D->props().MaxMemAllocSize, CL_INVALID_VALUE,
               "size exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  // "alignment is not a power of two"; 0 asks for the largest type's.
  WEFT_CHECK(Alignment & (Alignment - 1), CL_INVALID_VALUE, "alignment is not a power of two");
  const size_t Align = std::max<size_t>({Alignment, LargestTypeSize, BufferAlignment});
  void *P = Ctx->svm().allocate(Size, Align, Flags);
  WEFT_CHECK(!P, CL_OUT_OF_HOST_MEMORY,
             "cannot allocate " + std::to_string(Size) + " bytes of SVM");
  return P;
}

/// Whether [A, A + Len) and [B, B + Len) share a byte.
bool overlap(const void *A, const void *B, size_t Len) {
  const auto *X = static_cast<const char *>(A), *Y = static_cast<const char *>(B);
  return Len > 0 && X < Y + Len && Y < X + Len;
}

} // namespace

void *CL_API_CALL clSVMAlloc(cl_context C, cl_svm_mem_flags Flags, size_t Size,
                             cl_uint Alignment) {
  // Like malloc, clSVMAlloc has no error code: any failure returns NULL
  // (the reason goes to WEFT_DEBUG's log).
  return create<void *>(nullptr, [&] { return svmAlloc(C, Flags, Size, Alignment); });
}

void CL_API_CALL clSVMFree(cl_context C, void *Ptr) {
  // "If a NULL pointer is passed in svm_pointer, no action occurs." A pointer
  // that is no allocation's base of this context is undefined behaviour the
  // registry turns into no action, rather than freeing what is not ours.
  entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    if (Ptr)
      Ctx->svm().free(Ptr);
    return {};
  });
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue Q, cl_uint NumPointers, void *Pointers[],
                                    void(CL_CALLBACK *FreeFn)(cl_command_queue, cl_uint, void *[],
                                                              void *),
                                    void *UserData, cl_uint NumEvents, const cl_event *Events,
                                    cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    // "num_svm_pointers is 0 and svm_pointers is non-NULL, or svm_pointers
    // is NULL and num_svm_pointers is not 0".
    WEFT_CHECK((NumPointers == 0) != (Pointers == nullptr), CL_INVALID_VALUE,
               "svm_pointers and num_svm_pointers disagree");
    // "The memory associated with svm_pointers can be reused or freed after
    // the function returns": the command keeps a copy.
    std::vector<void *> Copy(Pointers, Pointers + NumPointers);
    return submitNew<SvmFreeCommand>(E, Out, false, std::move(Copy), FreeFn, UserData);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue Q, cl_bool Blocking, void *Dst,
                                      const void *Src, size_t Size, cl_uint NumEvents,
                                      const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(!Dst || !Src, CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
    WEFT_CHECK(overlap(Dst, Src, Size), CL_MEM_COPY_OVERLAP,
               "the source and destination regions overlap");
    return submitNew<SvmCopyCommand>(E, Out, Blocking, Dst, Src, Size);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue Q, void *Ptr, const void *Pattern,
                                       size_t PatternSize, size_t Size, cl_uint NumEvents,
                                       const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    WEFT_CHECK(!Pattern, CL_INVALID_VALUE, "pattern is NULL");
    WEFT_CHECK(PatternSize == 0 || PatternSize > 128 || (PatternSize & (PatternSize - 1)),
               CL_INVALID_VALUE, "pattern_size is not 1, 2, 4, ..., 128");
    WEFT_CHECK(reinterpret_cast<uintptr_t>(Ptr) % PatternSize, CL_INVALID_VALUE,
               "svm_ptr is not aligned to pattern_size bytes");
    WEFT_CHECK(Size % PatternSize, CL_INVALID_VALUE, "size is not a multiple of pattern_size");
    std::vector<char> Pat(static_cast<const char *>(Pattern),
                          static_cast<const char *>(Pattern) + PatternSize);
    return submitNew<SvmFillCommand>(E, Out, false, Ptr, std::move(Pat), Size);
  });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue Q, cl_bool Blocking, cl_map_flags Flags,
                                   void *Ptr, size_t Size, cl_uint NumEvents,
                                   const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    WEFT_CHECK(Size == 0, CL_INVALID_VALUE, "size is 0");
    if (Status S = checkMapFlags(Flags); !S)
      return S;
    // "the region is already mapped in the host address space".
    return submitNew<MemoryFenceCommand>(E, Out, Blocking, CL_COMMAND_SVM_MAP,
                                         std::vector<Ref<MemObject>>{});
  });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue Q, void *Ptr, cl_uint NumEvents,
                                     const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    return submitNew<MemoryFenceCommand>(E, Out, false, CL_COMMAND_SVM_UNMAP,
                                         std::vector<Ref<MemObject>>{});
  });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue Q, cl_uint NumPointers,
                                          const void **Pointers, const size_t *Sizes,
                                          cl_mem_migration_flags Flags, cl_uint NumEvents,
                                          const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_CHECK(NumPointers == 0 || !Pointers, CL_INVALID_VALUE,
               "num_svm_pointers is 0 or svm_pointers is NULL");
    WEFT_CHECK(Flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
               CL_INVALID_VALUE, "unknown migration flags");
    // "if sizes[i] is non-zero and the memory range described by
    // svm_pointers[i] and sizes[i] is not contained within an SVM
    // allocation returned by clSVMAlloc".
    for (cl_uint I = 0; Sizes && I < NumPointers; ++I) {
      if (Sizes[I] == 0)
        continue;
      auto In = E.Queue->context().svm().find(Pointers[I]);
      WEFT_CHECK(!In || Sizes[I] > In->Alloc.Size - In->Offset, CL_INVALID_VALUE,
                 "svm_pointers[" + std::to_string(I) + "] + sizes[" + std::to_string(I) +
                     "] is not inside one SVM allocation of the context");
    }
    // One address space: nothing moves.
    return submitNew<MemoryFenceCommand>(E, Out, false, CL_COMMAND_SVM_MIGRATE_MEM,
                                         std::vector<Ref<MemObject>>{});
  });
}

} // namespace weft::api

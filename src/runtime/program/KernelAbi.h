// The contract between compiled kernels and the runtime that launches them.
//
// The compiler turns every OpenCL C kernel into a *work-group function*: one
// call runs all work-items of one work-group. This header fixes the calling
// convention of those functions and the layout of the context block they
// read, so the compiler (which emits IR against this layout) and the CPU
// device (which fills it) agree without either knowing the other. It is
// plain C++ with no LLVM, TBB or OpenCL types on purpose.
#pragma once

#include "runtime/program/CollectiveScratch.h"

#include <cstddef>
#include <cstdint>

namespace weft::rt {

/// One argument of a printf call as the kernel hands it to PrintfFn: what
/// it is (Type, see printfArgType) and where its bytes are. A vector's
/// elements lie contiguously, element i at Data + i * element bytes.
struct PrintfArg {
  uint64_t Type;
  const void *Data;
};

enum class PrintfArgKind : uint8_t { Integer, Float, Pointer, Other };

/// Type = kind | element bytes << 8 | elements << 16 (1 for a scalar).
constexpr uint64_t printfArgType(PrintfArgKind Kind, unsigned ElementBytes, unsigned Elements) {
  return uint64_t(Kind) | uint64_t(ElementBytes & 0xff) << 8 | uint64_t(Elements & 0xffff) << 16;
}
constexpr PrintfArgKind printfArgKind(uint64_t Type) { return PrintfArgKind(Type & 0xff); }
constexpr unsigned printfArgElementBytes(uint64_t Type) { return unsigned(Type >> 8 & 0xff); }
constexpr unsigned printfArgElements(uint64_t Type) { return unsigned(Type >> 16 & 0xffff); }

/// A kernel's printf(Format, ...) becomes PrintfFn(PrintfSink, Format, Args,
/// Count) with the values of the variadic arguments; it returns printf's
/// result (0, or -1 on failure).
using PrintfFn = int (*)(void *Sink, const char *Format, const PrintfArg *Args, uint32_t Count);

/// ndrange_t as OpenCL C lays it out (Clang's opencl-c-base.h), which the
/// kernel hands to enqueue_kernel and the kernel queries by address.
struct DeviceNDRange {
  uint32_t WorkDim;
  uint64_t Offset[3];
  uint64_t Global[3];
  uint64_t Local[3]; ///< all 0: the runtime chooses
};
static_assert(sizeof(DeviceNDRange) == 80 && offsetof(DeviceNDRange, Offset) == 8);

/// enqueue_kernel in all its forms (the `__enqueue_kernel_*` calls Clang
/// and the SPIR-V translator emit): Queue is the queue_t, Kernel the name
/// of the block's kernel (DeviceEnqueuePass), Block the block literal to
/// copy, LocalSizes the sizes of the block's `__local` pointer arguments.
/// Returns CLK_SUCCESS or one of the CLK_* errors of enqueue_kernel.
using EnqueueKernelFn = int32_t (*)(struct WorkGroupContext *Ctx, void *Queue, uint32_t Flags,
                                    const DeviceNDRange *Range, uint32_t NumEvents,
                                    void *const *WaitList, void **RetEvent, const char *Kernel,
                                    const void *Block, uint32_t NumLocals,
                                    const uint64_t *LocalSizes);
/// enqueue_marker(Queue, NumEvents, WaitList, RetEvent).
using EnqueueMarkerFn = int32_t (*)(struct WorkGroupContext *Ctx, void *Queue, uint32_t NumEvents,
                                    void *const *WaitList, void **RetEvent);

/// The device-event and queue built-ins, one service with an operation code.
enum class DeviceEventOp : uint32_t {
  CreateUserEvent,  ///< returns the new event (CLK_NULL_EVENT if none can be made)
  RetainEvent,      ///< Event
  ReleaseEvent,     ///< Event
  IsValidEvent,     ///< Event; returns 0 or 1
  SetStatus,        ///< Event, Value = CL_COMPLETE or a negative error
  CaptureProfiling, ///< Event, Value = CLK_PROFILING_*, Out = 2 x uint64_t
  DefaultQueue,     ///< returns the default device queue or CLK_NULL_QUEUE
};
using DeviceEventFn = uint64_t (*)(struct WorkGroupContext *Ctx, uint32_t Op, void *Event,
                                   int64_t Value, void *Out);

/// The kernel queries of a block (get_kernel_work_group_size, ...).
enum class BlockQuery : uint32_t {
  WorkGroupSize,
  PreferredMultiple,
  MaxSubGroupSize, ///< for Range
  SubGroupCount,   ///< for Range
};
using BlockQueryFn = uint32_t (*)(struct WorkGroupContext *Ctx, uint32_t Query, const char *Kernel,
                                  const DeviceNDRange *Range);

/// The runtime services JIT'd kernels call, in one table: the device makes
/// one for the process and every WorkGroupContext points at it, so a kernel
/// reaches each service by a load from Ctx->Services at the service's
/// offset (compiler/workgroup/WorkGroupContextLayout.h), never through a function
/// pointer of its own in the context. A service that needs state of one
/// launch reads it from the context (printf's PrintfSink, device-side
/// enqueue's Enqueue).
///
/// A new service is a field appended here with its offset checked below,
/// the device's entry in its table, and the pass that emits the call.
/// Fields are never reordered. (Pipes and images need none: their
/// built-ins work on the object's memory, src/builtins/.)
struct RuntimeServices {
  /// printf(Format, ...) of a kernel that calls printf (PrintfPass): writes
  /// to Ctx->PrintfSink.
  PrintfFn Printf;
  /// Device-side enqueue (DeviceEnqueuePass, runtime/commands/DeviceEnqueue.h).
  EnqueueKernelFn EnqueueKernel;
  EnqueueMarkerFn EnqueueMarker;
  DeviceEventFn DeviceEvent;
  BlockQueryFn BlockQuery;
};

static_assert(offsetof(RuntimeServices, Printf) == 0);
static_assert(offsetof(RuntimeServices, EnqueueKernel) == 8);
static_assert(offsetof(RuntimeServices, EnqueueMarker) == 16);
static_assert(offsetof(RuntimeServices, DeviceEvent) == 24);
static_assert(offsetof(RuntimeServices, BlockQuery) == 32);

/// Everything a work-group function needs to know about the launch and the
/// work-group it runs. Field order and types are ABI: the compiler emits
/// loads at these offsets (see compiler/WorkGroupContextLayout). Dimensions
/// beyond WorkDim hold size 1, id 0 and offset 0, so builtins need no
/// special case for them.
struct WorkGroupContext {
  uint64_t WorkDim;
  uint64_t GroupId[3];
  uint64_t LocalSize[3];         ///< This group's size (smaller at a non-uniform edge).
  uint64_t EnqueuedLocalSize[3]; ///< The size every full group has.
  uint64_t GlobalSize[3];
  uint64_t GlobalOffset[3];
  uint64_t NumGroups[3];
  /// The worker's local-memory arena: static `__local` variables sit at the
  /// offsets the compiler chose, `__local` arguments after them.
  char *LocalMem;
  /// Per-work-item frames for values that live across a barrier:
  /// work-item L (linear local id) owns [L * FrameSize, (L + 1) * FrameSize).
  char *PrivateMem;
  /// The address-space queries of the generic address space (to_local,
  /// to_private, get_fence) classify a pointer by these ranges: __local is
  /// [LocalMem, LocalMem + LocalMemSize); __private is the frames at
  /// [PrivateMem, PrivateMem + PrivateMemSize) and the work-group function's
  /// stack, which lies between the current stack pointer and StackTop (an
  /// address in its caller's frame); everything else is __global.
  uint64_t LocalMemSize;
  uint64_t PrivateMemSize;
  char *StackTop;
  /// Where the work-group and sub-group collectives (work_group_reduce_add,
  /// sub_group_shuffle, ...) gather the work-items' values, laid out as
  /// CollectiveScratch.h says: the worker's collectiveScratchBytes(work-items).
  char *CollectiveScratch;
  /// The runtime's services (never null).
  const RuntimeServices *Services;
  /// printf's output: set for kernels that call printf (KernelDesc::UsesPrintf).
  void *PrintfSink;
  /// Device-side enqueue's state of this launch (runtime/commands/DeviceEnqueue.h):
  /// set for kernels that call its services (KernelDesc::UsesDeviceEnqueue).
  void *Enqueue;
};

static_assert(offsetof(WorkGroupContext, WorkDim) == 0);
static_assert(offsetof(WorkGroupContext, GroupId) == 8);
static_assert(offsetof(WorkGroupContext, LocalSize) == 32);
static_assert(offsetof(WorkGroupContext, EnqueuedLocalSize) == 56);
static_assert(offsetof(WorkGroupContext, GlobalSize) == 80);
static_assert(offsetof(WorkGroupContext, GlobalOffset) == 104);
static_assert(offsetof(WorkGroupContext, NumGroups) == 128);
static_assert(offsetof(WorkGroupContext, LocalMem) == 152);
static_assert(offsetof(WorkGroupContext, PrivateMem) == 160);
static_assert(offsetof(WorkGroupContext, LocalMemSize) == 168);
static_assert(offsetof(WorkGroupContext, PrivateMemSize) == 176);
static_assert(offsetof(WorkGroupContext, StackTop) == 184);
static_assert(offsetof(WorkGroupContext, CollectiveScratch) == 192);
static_assert(offsetof(WorkGroupContext, Services) == 200);
static_assert(offsetof(WorkGroupContext, PrintfSink) == 208);
static_assert(offsetof(WorkGroupContext, Enqueue) == 216);

/// The widest sub-group a kernel may have (KernelDesc::SubGroupSize).
constexpr size_t MaxSubGroupSize = 64;

/// Bytes of collective scratch a group of Items work-items needs, for any
/// sub-group size up to MaxSubGroupSize (CollectiveScratch.h).
constexpr size_t collectiveScratchBytes(size_t Items) {
  return WEFT_COLLECTIVE_SCRATCH_BYTES(Items);
}

/// A work-group function. Args[i] points at the value of kernel argument i:
/// for a pointer argument (global, constant or local) at a `void *` holding
/// the address; for a by-value argument (scalar, vector, struct) at its bytes.
using WorkGroupFn = void (*)(void *const *Args, WorkGroupContext *Ctx);

/// How the runtime must supply one kernel argument.
enum class ArgKind : uint8_t {
  GlobalPointer,   ///< `__global T*`: a buffer (or NULL).
  ConstantPointer, ///< `__constant T*`: a buffer (or NULL).
  LocalPointer,    ///< `__local T*`: the size comes from clSetKernelArg.
  ByValue,         ///< scalar, vector or struct, copied by value.
  Sampler,         ///< `sampler_t`.
  Image,           ///< `image*_t`: an image memory object.
  Pipe,            ///< `pipe T`: a pipe memory object.
  DeviceQueue,     ///< `queue_t`: a device command-queue.
};

/// Alignment every `__local` argument and the local arena get (the widest
/// vector type, 16 x double = 128 bytes).
constexpr size_t LocalMemAlignment = 128;

} // namespace weft::rt

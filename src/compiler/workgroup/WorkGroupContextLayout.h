// Byte offsets of the WorkGroupContext and RuntimeServices fields
// (runtime/program/KernelAbi.h) as the compiler's IR addresses them. Taken from the
// structs themselves with offsetof so the two cannot drift apart.
#pragma once

#include "runtime/program/KernelAbi.h"

#include <cstddef>
#include <cstdint>

namespace weft::compiler::ctx {

using weft::rt::WorkGroupContext;

constexpr uint64_t WorkDim = offsetof(WorkGroupContext, WorkDim);
constexpr uint64_t GroupId = offsetof(WorkGroupContext, GroupId);
constexpr uint64_t LocalSize = offsetof(WorkGroupContext, LocalSize);
constexpr uint64_t EnqueuedLocalSize = offsetof(WorkGroupContext, EnqueuedLocalSize);
constexpr uint64_t GlobalSize = offsetof(WorkGroupContext, GlobalSize);
constexpr uint64_t GlobalOffset = offsetof(WorkGroupContext, GlobalOffset);
constexpr uint64_t NumGroups = offsetof(WorkGroupContext, NumGroups);
constexpr uint64_t LocalMem = offsetof(WorkGroupContext, LocalMem);
constexpr uint64_t PrivateMem = offsetof(WorkGroupContext, PrivateMem);
constexpr uint64_t LocalMemSize = offsetof(WorkGroupContext, LocalMemSize);
constexpr uint64_t PrivateMemSize = offsetof(WorkGroupContext, PrivateMemSize);
constexpr uint64_t StackTop = offsetof(WorkGroupContext, StackTop);
constexpr uint64_t CollectiveScratch = offsetof(WorkGroupContext, CollectiveScratch);
constexpr uint64_t Services = offsetof(WorkGroupContext, Services);
constexpr uint64_t PrintfSink = offsetof(WorkGroupContext, PrintfSink);
constexpr uint64_t Enqueue = offsetof(WorkGroupContext, Enqueue);

} // namespace weft::compiler::ctx

namespace weft::compiler::svc {

using weft::rt::RuntimeServices;

constexpr uint64_t Printf = offsetof(RuntimeServices, Printf);
constexpr uint64_t EnqueueKernel = offsetof(RuntimeServices, EnqueueKernel);
constexpr uint64_t EnqueueMarker = offsetof(RuntimeServices, EnqueueMarker);
constexpr uint64_t DeviceEvent = offsetof(RuntimeServices, DeviceEvent);
constexpr uint64_t BlockQuery = offsetof(RuntimeServices, BlockQuery);

} // namespace weft::compiler::svc

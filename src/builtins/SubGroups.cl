// Sub-group functions (OpenCL C 6.15.x, cl_khr_subgroups and the OpenCL C
// 3.0 feature __opencl_c_subgroups): the work-item functions, the
// sub-group barrier, sub_group_all/any, sub_group_broadcast and the reduce
// and inclusive/exclusive scan of add, min and max on int, uint, long,
// ulong, float and double.
//
// The sub-groups of a work-group are its work-items in linear-id order,
// cut into runs of the kernel's sub-group size N (__weft_sub_group_width,
// a constant of the kernel: WorkItemBuiltinPass), the last one perhaps
// shorter. __weft_sub_group_sync is where every work-item of the caller's
// sub-group has run the code before it: BarrierStatePass splits the kernel
// there as at a barrier, and WorkGroupLoopPass runs each sub-group through
// its syncs on its own, so the work-items of a sub-group run each stretch
// between two syncs side by side in one loop, in vector lanes.
//
// A collective gathers the sub-group's values in the sub-group's slots of
// the collective scratch (after the work-group collectives' slots:
// runtime/program/KernelAbi.h, collectiveScratchBytes), the sub-group's
// first work-item combines them in order, and every work-item reads its
// result; the first sync keeps a collective from overwriting the slots
// while work-items still read the one before.
//
// All functions are inlined into the kernel before the barrier pass, like
// Collectives.cl's.
#include "BuiltinMacros.h"
#include "GatherOps.h"

#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__attribute__((const)) uint __weft_sub_group_width(void);
void __weft_sub_group_sync(void);
__local void *__weft_wg_scratch(void);

static INL uint width(void) { return __weft_sub_group_width(); }

static INL uint linearId(void) { return (uint)get_local_linear_id(); }

static INL uint groupItems(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

static INL uint enqueuedItems(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}

// The work-item functions. A group smaller than the enqueued size (the
// last of a dimension) has fewer sub-groups, its last one perhaps shorter.
OVL uint get_sub_group_size(void) {
  const uint N = width(), First = linearId() / N * N;
  return min(N, groupItems() - First);
}
OVL uint get_max_sub_group_size(void) { return min(width(), enqueuedItems()); }
OVL uint get_num_sub_groups(void) { return (groupItems() + width() - 1) / width(); }
OVL uint get_enqueued_num_sub_groups(void) { return (enqueuedItems() + width() - 1) / width(); }
OVL uint get_sub_group_id(void) { return linearId() / width(); }
OVL uint get_sub_group_local_id(void) { return linearId() % width(); }

// The slots of the caller's sub-group: N + 1 of 8 bytes.
static INL __local ulong *slots(void) {
  return (__local ulong *)__weft_wg_scratch() + groupItems() + 1 + get_sub_group_id() * (width() + 1);
}

// The work-items of a sub-group run on one thread, one stretch between
// syncs after the other: at the sync every write before it is done.
OVL void sub_group_barrier(cl_mem_fence_flags flags) { __weft_sub_group_sync(); }
OVL void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  __weft_sub_group_sync();
}

/// s[0..n) = each work-item's x, then BODY runs on the sub-group's first
/// work-item alone.
#define GATHER(T, x, BODY)                                                                         \
  __local T *s = (__local T *)slots();                                                             \
  uint l = get_sub_group_local_id(), n = get_sub_group_size();                                     \
  __weft_sub_group_sync();                                                                         \
  s[l] = x;                                                                                        \
  __weft_sub_group_sync();                                                                         \
  if (l == 0) {                                                                                    \
    BODY                                                                                           \
  }                                                                                                \
  __weft_sub_group_sync();

#define SUB_GROUP_BROADCAST(T)                                                                     \
  OVL T sub_group_broadcast(T x, uint sub_group_local_id) {                                        \
    __local T *s = (__local T *)slots();                                                           \
    __weft_sub_group_sync();                                                                       \
    if (get_sub_group_local_id() == sub_group_local_id)                                            \
      *s = x;                                                                                      \
    __weft_sub_group_sync();                                                                       \
    return *s;                                                                                     \
  }

SUB_GROUP_BROADCAST(int)
SUB_GROUP_BROADCAST(uint)
SUB_GROUP_BROADCAST(long)
SUB_GROUP_BROADCAST(ulong)
SUB_GROUP_BROADCAST(float)
SUB_GROUP_BROADCAST(double)
GATHER_ARITHMETIC_ALL_TYPES(sub_group)
GATHER_VOTES(sub_group)

// For the sub-group forms of the pipe built-ins (Pipes.cl): V of the
// sub-group's first work-item, in every work-item; and a sub-group sync.
ulong __weft_sub_group_first(ulong V) { return sub_group_broadcast(V, 0u); }
uint __weft_sub_group_leader(void) { return get_sub_group_local_id() == 0; }
void __weft_sub_group_barrier(void) { __weft_sub_group_sync(); }

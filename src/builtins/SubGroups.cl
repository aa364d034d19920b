// Sub-group functions (OpenCL C 6.15.x, cl_khr_subgroups and the OpenCL C
// 3.0 feature __opencl_c_subgroups): the work-item functions, the
// sub-group barrier, sub_group_all/any, sub_group_broadcast and the reduce
// and inclusive/exclusive scan of add, min and max on int, uint, long,
// ulong, float and double.
//
// A work-group runs as one loop over its work-items, with barriers as
// resume points for the whole group; only a sub-group that is the whole
// work-group is correct for every program (sub-group-uniform control flow
// is then work-group-uniform). So every work-group is one sub-group, in
// linear-id order, and each function here is its work-group counterpart:
// the collectives are Collectives.cl's (scratch buffer, work-group
// barriers, combined in order on work-item 0) and sub_group_barrier is a
// work-group barrier. The runtime limits kernels that call these functions
// to work-groups of rt::MaxSubGroupSize work-items.
//
// All functions are inlined into the kernel before the barrier pass, like
// Collectives.cl's.
#include "BuiltinMacros.h"

#pragma OPENCL EXTENSION cl_khr_subgroups : enable

static INL uint groupItems(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

// The work-item functions. The last work-group of a dimension may be
// smaller than the enqueued size: its one sub-group is too.
OVL uint get_sub_group_size(void) { return groupItems(); }
OVL uint get_max_sub_group_size(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}
OVL uint get_num_sub_groups(void) { return 1; }
OVL uint get_enqueued_num_sub_groups(void) { return 1; }
OVL uint get_sub_group_id(void) { return 0; }
OVL uint get_sub_group_local_id(void) { return (uint)get_local_linear_id(); }

// A work-group barrier orders memory for the work-group, which is also the
// sub-group; the scope is at most that wide.
OVL void sub_group_barrier(cl_mem_fence_flags flags) { barrier(flags); }
OVL void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) { barrier(flags); }

OVL int sub_group_all(int predicate) { return work_group_all(predicate); }
OVL int sub_group_any(int predicate) { return work_group_any(predicate); }

// sub_group_local_id is the linear local id, which is what the
// one-argument work_group_broadcast takes in Collectives.cl.
#define SUB_GROUP_OP(T, NAME)                                                                      \
  OVL T sub_group_reduce_##NAME(T x) { return work_group_reduce_##NAME(x); }                       \
  OVL T sub_group_scan_inclusive_##NAME(T x) { return work_group_scan_inclusive_##NAME(x); }       \
  OVL T sub_group_scan_exclusive_##NAME(T x) { return work_group_scan_exclusive_##NAME(x); }

#define SUB_GROUP_FUNCTIONS(T)                                                                     \
  OVL T sub_group_broadcast(T x, uint sub_group_local_id) {                                        \
    return work_group_broadcast(x, (size_t)sub_group_local_id);                                    \
  }                                                                                                \
  SUB_GROUP_OP(T, add)                                                                             \
  SUB_GROUP_OP(T, min)                                                                             \
  SUB_GROUP_OP(T, max)

SUB_GROUP_FUNCTIONS(int)
SUB_GROUP_FUNCTIONS(uint)
SUB_GROUP_FUNCTIONS(long)
SUB_GROUP_FUNCTIONS(ulong)
SUB_GROUP_FUNCTIONS(float)
SUB_GROUP_FUNCTIONS(double)

// Work-group collective functions (OpenCL C 6.15.16): work_group_all/any,
// work_group_broadcast and the reduce and inclusive/exclusive scan of add,
// min and max, on int, uint, long, ulong, float and double.
//
// Every work-item stores its value in the work-group's collective scratch
// (__weft_wg_scratch, which WorkItemBuiltinPass turns into the context's
// per-worker buffer, whose first (work-group size + 1) * 8 bytes these
// use: runtime/program/CollectiveScratch.h), work-item 0
// combines the values in linear-id order, and every work-item reads its
// result. The barriers are ordinary work-group barriers: the functions are
// inlined into the kernel before the barrier pass. The first barrier keeps
// a collective from overwriting the scratch while work-items still read the
// result of the one before. Combining in order makes float and double
// results the same on every run and for every local size split.
// The one-index work_group_broadcast takes the linear local id (the same
// as get_local_id(0) in the one-dimensional work-groups it is defined
// for). The reduce, scans and votes are GatherOps.h's over GATHER below.
#include "BuiltinMacros.h"
#include "GatherOps.h"

__attribute__((const)) __local void *__weft_wg_scratch(void);

static INL size_t groupSize(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

/// s[0..n) = each work-item's x, then BODY runs on work-item 0 alone
/// (GatherOps.h), and the result goes in s[n].
#define GATHER(T, x, BODY)                                                                         \
  __local T *s = (__local T *)__weft_wg_scratch();                                                \
  size_t l = get_local_linear_id(), n = groupSize();                                               \
  barrier(CLK_LOCAL_MEM_FENCE);                                                                    \
  s[l] = x;                                                                                        \
  barrier(CLK_LOCAL_MEM_FENCE);                                                                    \
  if (l == 0) {                                                                                    \
    BODY                                                                                           \
  }                                                                                                \
  barrier(CLK_LOCAL_MEM_FENCE);
#define FIRST 0
#define RESULT n
#define FOR_ALL(i) for (size_t i = 0; i < n; ++i)
#define FOR_REST(i) for (size_t i = 1; i < n; ++i)

#define BROADCAST(T)                                                                               \
  static INL T broadcastLinear(T x, size_t target) {                                               \
    __local T *s = (__local T *)__weft_wg_scratch();                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    if (get_local_linear_id() == target)                                                           \
      *s = x;                                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    return *s;                                                                                     \
  }                                                                                                \
  OVL T work_group_broadcast(T x, size_t lx) { return broadcastLinear(x, lx); }                    \
  OVL T work_group_broadcast(T x, size_t lx, size_t ly) {                                          \
    return broadcastLinear(x, ly * get_local_size(0) + lx);                                        \
  }                                                                                                \
  OVL T work_group_broadcast(T x, size_t lx, size_t ly, size_t lz) {                               \
    return broadcastLinear(x, (lz * get_local_size(1) + ly) * get_local_size(0) + lx);             \
  }

BROADCAST(int)
BROADCAST(uint)
BROADCAST(long)
BROADCAST(ulong)
BROADCAST(float)
BROADCAST(double)
GATHER_ARITHMETIC_ALL_TYPES(work_group)
GATHER_VOTES(work_group)

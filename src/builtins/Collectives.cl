// Work-group collective functions (OpenCL C 6.15.16): work_group_all/any,
// work_group_broadcast and the reduce and inclusive/exclusive scan of add,
// min and max, on int, uint, long, ulong, float and double.
//
// Every work-item stores its value in the work-group's collective scratch
// (__weft_wg_scratch, which WorkItemBuiltinPass turns into the context's
// per-worker buffer of (work-group size + 1) * 8 bytes), work-item 0
// combines the values in linear-id order, and every work-item reads its
// result. The barriers are ordinary work-group barriers: the functions are
// inlined into the kernel before the barrier pass. The first barrier keeps
// a collective from overwriting the scratch while work-items still read the
// result of the one before. Combining in order makes float and double
// results the same on every run and for every local size split.
// The one-index work_group_broadcast takes the linear local id (the same
// as get_local_id(0) in the one-dimensional work-groups it is defined
// for); SubGroups.cl's sub_group_broadcast relies on that.
#include "BuiltinMacros.h"

__local void *__weft_wg_scratch(void);

static INL size_t groupSize(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define ADD(a, b) ((a) + (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))

/// s[0..n) = each work-item's x, then BODY runs on work-item 0 alone.
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

#define COLLECTIVES_OP(T, NAME, OP, IDENTITY)                                                      \
  OVL T work_group_reduce_##NAME(T x) {                                                            \
    GATHER(T, x, {                                                                                 \
      T r = s[0];                                                                                  \
      for (size_t i = 1; i < n; ++i)                                                               \
        r = OP(r, s[i]);                                                                           \
      s[n] = r;                                                                                    \
    })                                                                                             \
    return s[n];                                                                                   \
  }                                                                                                \
  OVL T work_group_scan_inclusive_##NAME(T x) {                                                    \
    GATHER(T, x, {                                                                                 \
      for (size_t i = 1; i < n; ++i)                                                               \
        s[i] = OP(s[i - 1], s[i]);                                                                 \
    })                                                                                             \
    return s[l];                                                                                   \
  }                                                                                                \
  OVL T work_group_scan_exclusive_##NAME(T x) {                                                    \
    GATHER(T, x, {                                                                                 \
      T acc = IDENTITY;                                                                            \
      for (size_t i = 0; i < n; ++i) {                                                             \
        T v = s[i];                                                                                \
        s[i] = acc;                                                                                \
        acc = OP(acc, v);                                                                          \
      }                                                                                            \
    })                                                                                             \
    return s[l];                                                                                   \
  }

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

#define COLLECTIVES(T, MIN_VALUE, MAX_VALUE)                                                       \
  BROADCAST(T)                                                                                     \
  COLLECTIVES_OP(T, add, ADD, (T)0)                                                                \
  COLLECTIVES_OP(T, min, MIN, MAX_VALUE)                                                           \
  COLLECTIVES_OP(T, max, MAX, MIN_VALUE)

COLLECTIVES(int, INT_MIN, INT_MAX)
COLLECTIVES(uint, 0u, UINT_MAX)
COLLECTIVES(long, LONG_MIN, LONG_MAX)
COLLECTIVES(ulong, 0ul, ULONG_MAX)
COLLECTIVES(float, -INFINITY, INFINITY)
COLLECTIVES(double, -(double)INFINITY, (double)INFINITY)

OVL int work_group_all(int predicate) {
  GATHER(int, predicate != 0, {
    int r = 1;
    for (size_t i = 0; i < n; ++i)
      r &= s[i];
    s[n] = r;
  })
  return s[n];
}

OVL int work_group_any(int predicate) {
  GATHER(int, predicate != 0, {
    int r = 0;
    for (size_t i = 0; i < n; ++i)
      r |= s[i];
    s[n] = r;
  })
  return s[n];
}

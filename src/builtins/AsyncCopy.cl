// Asynchronous work-group copies, wait_group_events and prefetch (OpenCL C
// 6.15.11), for every scalar and vector type.
//
// A work-group function runs all work-items of a group on one thread, so
// there is nothing to overlap a copy with: each work-item copies the
// elements i with i % work-group size == its linear local id, and
// wait_group_events is a work-group barrier, after which every element is
// in place for every work-item. (All work-items must reach both calls with
// the same arguments, as the specification requires, which makes the
// barrier legal.) The event value is returned unchanged. prefetch is a hint
// the host's caches do not need.
#include "BuiltinMacros.h"

#define GROUP_ITEMS() (get_local_size(0) * get_local_size(1) * get_local_size(2))

#define ASYNC_COPY(T)                                                                              \
  OVL event_t async_work_group_copy(__local T *dst, const __global T *src, size_t n, event_t e) { \
    for (size_t i = get_local_linear_id(); i < n; i += GROUP_ITEMS())                              \
      dst[i] = src[i];                                                                             \
    return e;                                                                                      \
  }                                                                                                \
  OVL event_t async_work_group_copy(__global T *dst, const __local T *src, size_t n, event_t e) { \
    for (size_t i = get_local_linear_id(); i < n; i += GROUP_ITEMS())                              \
      dst[i] = src[i];                                                                             \
    return e;                                                                                      \
  }                                                                                                \
  OVL event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n,      \
                                            size_t stride, event_t e) {                           \
    for (size_t i = get_local_linear_id(); i < n; i += GROUP_ITEMS())                              \
      dst[i] = src[i * stride];                                                                    \
    return e;                                                                                      \
  }                                                                                                \
  OVL event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n,      \
                                            size_t stride, event_t e) {                           \
    for (size_t i = get_local_linear_id(); i < n; i += GROUP_ITEMS())                              \
      dst[i * stride] = src[i];                                                                    \
    return e;                                                                                      \
  }                                                                                                \
  OVL void prefetch(const __global T *p, size_t n) {}

#define ASYNC_COPY_WIDTHS(T) FOR_WIDTHS(ASYNC_COPY, T)
FOR_INT_TYPES(ASYNC_COPY_WIDTHS)
FOR_FLOAT_TYPES(ASYNC_COPY_WIDTHS)

OVL void wait_group_events(int num_events, event_t *event_list) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
// opencl-c.h declares the list private in OpenCL C 1.x (clang's builtin
// table, which source builds use, declares it generic in every version).
OVL void wait_group_events(int num_events, __private event_t *event_list) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

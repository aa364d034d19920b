// The ndrange_t constructors of device-side enqueue (OpenCL C 6.15.16.3).
// enqueue_kernel itself and the device-event built-ins are runtime
// services (DeviceEnqueuePass, runtime/commands/DeviceEnqueue.h); an ndrange is
// plain data: offsets, global sizes and local sizes (0: the runtime
// chooses), dimensions past work_dim size 1.

static ndrange_t make(uint dims, const size_t *off, const size_t *gws, const size_t *lws) {
  ndrange_t r;
  r.workDimension = dims;
  for (uint d = 0; d < MAX_WORK_DIM; ++d) {
    r.globalWorkOffset[d] = d < dims && off ? off[d] : 0;
    r.globalWorkSize[d] = d < dims ? gws[d] : 1;
    r.localWorkSize[d] = d < dims && lws ? lws[d] : (d < dims ? 0 : 1);
  }
  return r;
}

ndrange_t __attribute__((overloadable)) ndrange_1D(size_t gws) {
  return make(1, 0, &gws, 0);
}
ndrange_t __attribute__((overloadable)) ndrange_1D(size_t gws, size_t lws) {
  return make(1, 0, &gws, &lws);
}
ndrange_t __attribute__((overloadable)) ndrange_1D(size_t off, size_t gws, size_t lws) {
  return make(1, &off, &gws, &lws);
}

// ndrange_2D and ndrange_3D: global sizes, then local, then offsets too.
#define NDRANGE_ND(N)                                                                              \
  ndrange_t __attribute__((overloadable)) ndrange_##N##D(const size_t gws[N]) {                    \
    return make(N, 0, gws, 0);                                                                     \
  }                                                                                                \
  ndrange_t __attribute__((overloadable)) ndrange_##N##D(const size_t gws[N],                      \
                                                         const size_t lws[N]) {                    \
    return make(N, 0, gws, lws);                                                                   \
  }                                                                                                \
  ndrange_t __attribute__((overloadable)) ndrange_##N##D(                                          \
      const size_t off[N], const size_t gws[N], const size_t lws[N]) {                             \
    return make(N, off, gws, lws);                                                                 \
  }
NDRANGE_ND(2)
NDRANGE_ND(3)

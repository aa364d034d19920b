// Device-side enqueue through SPIR-V: OpEnqueueKernel with and without
// events and __local arguments, OpEnqueueMarker, device events, the block
// queries and ndranges.
__kernel void parent(__global int *out) {
  queue_t q = get_default_queue();
  size_t i = get_global_id(0);
  int bias = 10;
  clk_event_t e, m;
  out[16 + i] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4, 4), 0, NULL, &e,
                               ^{ atomic_add(&out[i], bias + (int)get_local_id(0)); });
  clk_event_t user = create_user_event();
  clk_event_t both[2] = {e, user};
  enqueue_marker(q, 2, both, &m);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2), 1, &m, NULL,
                 ^(local void *p) {
                   ((local int *)p)[get_local_id(0)] = 1;
                   atomic_add(&out[8 + i], ((local int *)p)[get_local_id(0)]);
                 }, 2u * sizeof(int));
  void (^b)(void) = ^{ atomic_inc(&out[24]); };
  out[32 + i] = get_kernel_work_group_size(b) > 0;
  enqueue_kernel(q, 0, ndrange_1D(1), b);
  set_user_event_status(user, CL_COMPLETE);
  release_event(user);
  release_event(e);
  release_event(m);
}

// A queue_t argument (the translator names its type opencl.queue_t) and an
// attribute, which a kernel from IL does not report.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void child_of(queue_t q,
                                                                      __global int *out) {
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[0] = 7; });
}

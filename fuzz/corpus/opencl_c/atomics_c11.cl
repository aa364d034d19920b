1
__kernel void a(volatile __global atomic_int *c, __global int *o) {
  int v = atomic_fetch_add_explicit(c, 1, memory_order_acq_rel, memory_scope_device);
  o[get_global_id(0)] = v + work_group_reduce_add(v);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
}

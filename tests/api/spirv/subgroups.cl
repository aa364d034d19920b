// The sub-group kernels of SubGroupTest.cpp, run twice: as OpenCL C source
// (read at run time, built with -cl-std=CL3.0) and as SPIR-V, compiled at
// build time (clang-15 -cl-std=CL2.0, llvm-spirv-15). In SPIR-V the
// sub-group work-item functions become the Subgroup* built-in variables,
// the collectives OpGroup* instructions with Subgroup scope and
// sub_group_barrier OpControlBarrier with Subgroup execution scope.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Before the extension pragma: the OpenCL C 3.0 feature alone must do
// (and cl_khr_subgroup_extended_types for the 8- and 16-bit types).
#define ALL(T)                                                                                     \
  kernel void collectives_##T(global const T *in, global T *out) {                                 \
    size_t g = get_global_linear_id();                                                             \
    T x = in[g];                                                                                   \
    global T *o = out + g * 10;                                                                    \
    o[0] = sub_group_broadcast(x, get_sub_group_size() - 1);                                      \
    o[1] = sub_group_reduce_add(x);                                                                \
    o[2] = sub_group_reduce_min(x);                                                                \
    o[3] = sub_group_reduce_max(x);                                                                \
    o[4] = sub_group_scan_inclusive_add(x);                                                        \
    o[5] = sub_group_scan_inclusive_min(x);                                                        \
    o[6] = sub_group_scan_inclusive_max(x);                                                        \
    o[7] = sub_group_scan_exclusive_add(x);                                                        \
    o[8] = sub_group_scan_exclusive_min(x);                                                        \
    o[9] = sub_group_scan_exclusive_max(x);                                                        \
  }
ALL(char)
ALL(uchar)
ALL(short)
ALL(ushort)
ALL(int)
ALL(uint)
ALL(long)
ALL(ulong)
ALL(float)
ALL(double)

#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel void items(global uint *out, global const int *pred) {
  size_t g = get_global_linear_id();
  global uint *o = out + g * 8;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
  o[6] = sub_group_all(pred[g]) != 0;
  o[7] = sub_group_any(pred[g]) != 0;
}

// Reverses each sub-group's values through __local memory, then rotates
// them by one: the barriers must order the stores before the loads. Each
// sub-group has its own part of tmp.
kernel void exchange(global const int *in, global int *out) {
  local int tmp[256];
  size_t g = get_global_linear_id();
  uint l = get_sub_group_local_id(), n = get_sub_group_size();
  local int *mine = tmp + get_sub_group_id() * get_max_sub_group_size();
  mine[l] = in[g];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int a = mine[n - 1 - l];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  mine[l] = a * 2;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  out[g] = mine[(l + 1) % n];
}

1
// Compiled to SPIR-V at build time (clang-15, llvm-spirv-15) for
// SpirvTest.cpp: barriers, __local memory, 1.x atomics and a helper function.
int group_total(local const int *tmp, size_t n) {
  int s = 0;
  for (size_t i = 0; i < n; ++i)
    s += tmp[i];
  return s;
}

kernel void group_sums(global const int *in, global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = group_total(tmp, get_local_size(0));
    atomic_add(&out[0], s);
    out[1 + get_group_id(0)] = s;
  }
}

kernel void scale(global float *x, float f) { x[get_global_id(0)] *= f; }

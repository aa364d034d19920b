0
__kernel void b(__global float *o, __local float *s, int n) {
  size_t l = get_local_id(0);
  s[l] = o[get_global_id(0)];
  for (int i = 0; i < n; ++i) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l > 0) s[l] += s[l - 1] * 0.5f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = s[l];
}

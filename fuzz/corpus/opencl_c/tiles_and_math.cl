1
#define T 8
__kernel void tiles(__global const float *a, __global float *c, int n, __constant float *k) {
  __local float tile[T][T + 1];
  int x = get_local_id(0), y = get_local_id(1);
  int gx = get_global_id(0), gy = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += T) {
    tile[y][x] = a[(gy * n + t + x) % 4096];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < T; ++i)
      acc = fma(tile[y][i], k[i & 3], acc);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
  }
  float s, co = 0;
  s = sincos(acc, &co);
  c[(gy * get_global_size(0) + gx) % 4096] = exp(-acc) * s + pow(fabs(co) + 1.0f, 1.3f) +
                                              atan2(acc, 1.5f) + tanh(acc) + cbrt(acc);
}

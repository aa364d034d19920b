0
#define ITERS 8

// ITERS dependent multiply-adds per element: one float per work-item ...
__kernel void madFloat(__global const float *In, __global float *Out, float A, float B) {
  size_t I = get_global_id(0);
  float V = In[I];
  for (int K = 0; K < ITERS; ++K)
    V = V * A + B;
  Out[I] = V;
}

// ... or four per work-item, a quarter of the work-items.
__kernel void madFloat4(__global const float4 *In, __global float4 *Out, float A, float B) {
  size_t I = get_global_id(0);
  float4 V = In[I];
  for (int K = 0; K < ITERS; ++K)
    V = V * A + B;
  Out[I] = V;
}

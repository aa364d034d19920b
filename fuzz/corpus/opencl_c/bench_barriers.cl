0
#define WG 64

// A ring of WG values in __local memory, iterated Steps times: a 3-point
// stencil, then a permutation (17 is odd, so L * 17 mod WG is one), each
// read and each write separated by a barrier: four barriers an iteration.
__kernel void barrierStencil(__global const uint *In, __global uint *Out, uint Steps) {
  __local uint Ring[WG];
  uint L = get_local_id(0);
  Ring[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint S = 0; S < Steps; ++S) {
    uint V = Ring[(L + WG - 1) % WG] + 2u * Ring[L] + Ring[(L + 1) % WG] + S;
    barrier(CLK_LOCAL_MEM_FENCE);
    Ring[L] = V ^ (V >> 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint P = Ring[(L * 17u) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    Ring[L] = P * 3u + L;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[get_global_id(0)] = Ring[L];
}

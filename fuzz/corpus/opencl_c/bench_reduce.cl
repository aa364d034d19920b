0

// Each work-item sums PerItem elements strided by the global size, then the
// work-group halves its partial sums in __local memory, one barrier a step.
__kernel void reduceSum(__global const uint *In, __global uint *Partial, __local uint *Scratch,
                        uint PerItem) {
  size_t Gid = get_global_id(0), GlobalSize = get_global_size(0);
  uint Sum = 0;
  for (uint I = 0; I < PerItem; ++I)
    Sum += In[Gid + I * GlobalSize];
  size_t L = get_local_id(0);
  Scratch[L] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Stride = get_local_size(0) / 2; Stride > 0; Stride >>= 1) {
    if (L < Stride)
      Scratch[L] += Scratch[L + Stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Partial[get_group_id(0)] = Scratch[0];
}

// The textbook tree reduction, as GPU code writes it (bench/Kernels.cpp's
// reduceTree): kernel `tree`, one element a work-item into __local memory,
// then `if (L < K) S[L] += S[L + K]` for K = size / 2, ..., 1.
#pragma once

namespace weft::compiler::test {

inline const char *const TreeReduction = R"CLC(
__kernel void tree(__global const uint *In, __global uint *Partial, __local uint *S) {
  size_t L = get_local_id(0);
  S[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t K = get_local_size(0) / 2; K > 0; K >>= 1) {
    if (L < K)
      S[L] += S[L + K];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Partial[get_group_id(0)] = S[0];
}
)CLC";

} // namespace weft::compiler::test

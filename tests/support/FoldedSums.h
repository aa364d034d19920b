// A work-group sum in __local memory for groups of any size, as tests of
// kernels with barriers run it at several layers (the compiler's
// work-group functions, the API): each step folds the upper part of the
// live range onto the lower (the middle element stays while the range is
// odd), one barrier a step. Kernel `folded_sums(in, out, scratch)`: out
// gets one sum per group; scratch holds one int per work-item.
#pragma once

namespace weft::test {

inline constexpr const char *FoldedSumsSource = R"CLC(
kernel void folded_sums(global const int *in, global int *out, local int *s) {
  size_t l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t live = get_local_size(0); live > 1;) {
    size_t up = (live + 1) >> 1;
    if (l < live - up)
      s[l] += s[l + up];
    live = up;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = s[0];
}
)CLC";

} // namespace weft::test

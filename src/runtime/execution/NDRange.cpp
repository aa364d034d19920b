// The rules of clEnqueueNDRangeKernel's sizes, and Weft's local-size choice.
#include "runtime/execution/NDRange.h"

#include <algorithm>

namespace weft::rt {

Size3 chooseLocalSize(const NDRangeLimits &Limits, cl_uint Dim, const Size3 &Global,
                      bool AllowNonUniform) {
  // A prime global size would otherwise run one work-item per group.
  auto Pick = [AllowNonUniform](uint64_t N, uint64_t Max) {
    const uint64_t Want = std::max<uint64_t>(1, std::min(N, Max));
    for (uint64_t L = Want; L > 1; --L)
      if (N % L == 0)
        return AllowNonUniform && 2 * L < Want ? Want : L;
    return AllowNonUniform ? Want : uint64_t(1);
  };
  Size3 Local{1, 1, 1};
  uint64_t Budget = std::min<uint64_t>(128, Limits.KernelMax);
  for (cl_uint I = 0; I < Dim; ++I) {
    Local[I] = Pick(Global[I], Budget);
    Budget /= Local[I];
  }
  auto Groups = [&] {
    uint64_t N = 1;
    for (cl_uint I = 0; I < Dim; ++I)
      N *= (Global[I] + Local[I] - 1) / Local[I];
    return N;
  };
  const uint64_t WantGroups = uint64_t(Limits.ComputeUnits) * 4;
  for (cl_uint I = Dim; I-- > 0;)
    while (Groups() < WantGroups && Local[I] > 1)
      Local[I] = Pick(Global[I], Local[I] / 2);
  return Local;
}

Result<NDRange> resolveNDRange(const NDRangeRequest &R, const KernelDesc &K,
                               const NDRangeLimits &Limits) {
  NDRange N;
  N.WorkDim = R.WorkDim;
  // OpenCL 2.1+: a NULL global_work_size, like a 0 in it, is an empty
  // NDRange; the command does nothing but still orders and signals.
  if (!R.Global)
    N.Global[0] = 0;
  for (cl_uint I = 0; I < R.WorkDim && R.Global; ++I) {
    N.Global[I] = (*R.Global)[I];
    if (R.Offset) {
      N.Offset[I] = (*R.Offset)[I];
      if (N.Offset[I] + N.Global[I] < N.Offset[I])
        return makeError(CL_INVALID_GLOBAL_OFFSET,
                         "global_work_offset + global_work_size overflows size_t");
    }
  }
  const bool HasReqd = K.ReqdWorkGroupSize[0] != 0;
  if (R.Local) {
    uint64_t Items = 1;
    for (cl_uint I = 0; I < R.WorkDim; ++I) {
      N.Local[I] = (*R.Local)[I];
      if (N.Local[I] == 0)
        return makeError(CL_INVALID_WORK_GROUP_SIZE, "a local_work_size is 0");
      if (N.Local[I] > Limits.MaxWorkItemSize)
        return makeError(CL_INVALID_WORK_ITEM_SIZE,
                         "local_work_size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
      // The last work-group of a dimension may be smaller, except in
      // kernels that promised uniform work-groups.
      if (K.UniformWorkGroupSize && N.Global[I] % N.Local[I])
        return makeError(CL_INVALID_WORK_GROUP_SIZE,
                         "global_work_size is not a multiple of local_work_size, and the kernel "
                         "requires uniform work-groups (OpenCL C 1.x or "
                         "-cl-uniform-work-group-size)");
      Items *= N.Local[I];
    }
    if (Items > Limits.KernelMax)
      return makeError(CL_INVALID_WORK_GROUP_SIZE,
                       "the work-group is larger than CL_KERNEL_WORK_GROUP_SIZE");
    if (HasReqd)
      for (int I = 0; I < 3; ++I)
        if (N.Local[I] != K.ReqdWorkGroupSize[I])
          return makeError(CL_INVALID_WORK_GROUP_SIZE,
                           "local_work_size differs from reqd_work_group_size");
  } else if (HasReqd) {
    // A NULL local_work_size takes the kernel's reqd_work_group_size.
    for (int I = 0; I < 3; ++I)
      N.Local[I] = K.ReqdWorkGroupSize[I];
    // A kernel using sub-groups may require more than they allow.
    if (N.Local[0] * N.Local[1] * N.Local[2] > Limits.KernelMax)
      return makeError(CL_INVALID_WORK_GROUP_SIZE,
                       "reqd_work_group_size is larger than CL_KERNEL_WORK_GROUP_SIZE");
    for (cl_uint I = 0; I < R.WorkDim; ++I)
      if (K.UniformWorkGroupSize && N.Global[I] % N.Local[I])
        return makeError(CL_INVALID_WORK_GROUP_SIZE,
                         "global_work_size is not a multiple of reqd_work_group_size, and the "
                         "kernel requires uniform work-groups");
  } else if (!N.empty()) {
    N.Local = chooseLocalSize(Limits, R.WorkDim, N.Global, !K.UniformWorkGroupSize);
  }
  return N;
}

} // namespace weft::rt

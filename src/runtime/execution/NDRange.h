// NDRange resolution: clEnqueueNDRangeKernel's global size, offset and local
// size turned into the range a launch runs, by the rules of the
// specification: the empty range (OpenCL 2.1+), non-uniform work-groups
// where the kernel allows them, reqd_work_group_size, the device's and the
// kernel's work-group limits, and the local size Weft chooses when the
// application gives none. Kernel commands and (later) device-side enqueue
// resolve ranges here; unit tests cover each rule.
#pragma once

#include "runtime/Result.h"
#include "runtime/program/ProgramCompiler.h"

#include <array>
#include <cstdint>
#include <optional>

namespace weft::rt {

using Size3 = std::array<uint64_t, 3>;

/// What the application asked for; dimensions past WorkDim are ignored.
struct NDRangeRequest {
  cl_uint WorkDim = 1;          ///< 1, 2 or 3 (checked by the caller)
  std::optional<Size3> Global;  ///< none: the empty range
  std::optional<Size3> Offset;  ///< none: zero
  std::optional<Size3> Local;   ///< none: reqd_work_group_size, or Weft's choice
};

/// A resolved range: dimensions past WorkDim hold size 1 and offset 0.
struct NDRange {
  cl_uint WorkDim = 1;
  Size3 Global{1, 1, 1};
  Size3 Offset{0, 0, 0};
  Size3 Local{1, 1, 1}; ///< the enqueued local size
  bool empty() const { return Global[0] == 0 || Global[1] == 0 || Global[2] == 0; }
};

/// What the device and kernel allow.
struct NDRangeLimits {
  size_t MaxWorkItemSize = 0; ///< CL_DEVICE_MAX_WORK_ITEM_SIZES (each dimension)
  size_t KernelMax = 0;       ///< CL_KERNEL_WORK_GROUP_SIZE
  cl_uint ComputeUnits = 1;
};

/// The range R asks for, or the error clEnqueueNDRangeKernel returns
/// (CL_INVALID_GLOBAL_OFFSET, CL_INVALID_WORK_GROUP_SIZE,
/// CL_INVALID_WORK_ITEM_SIZE).
Result<NDRange> resolveNDRange(const NDRangeRequest &R, const KernelDesc &K,
                               const NDRangeLimits &Limits);

/// The local size Weft picks for a NULL local_work_size: up to 128
/// work-items (long enough loops to vectorize) and KernelMax, small enough
/// to leave every compute unit a few groups. A divisor of the global size is
/// preferred; with AllowNonUniform a smaller last group is taken rather than
/// a divisor less than half the size it could have.
Size3 chooseLocalSize(const NDRangeLimits &Limits, cl_uint WorkDim, const Size3 &Global,
                      bool AllowNonUniform);

} // namespace weft::rt

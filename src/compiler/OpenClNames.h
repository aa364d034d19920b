// Recognition of OpenCL C builtins by their Itanium-mangled names
// (_Z13get_global_idj -> get_global_id): the work-item functions the
// work-group passes replace, the barriers that split kernels, the fences,
// and the sub-group functions (which limit a kernel's work-group size).
// Matching on the unmangled base name covers every overload and spelling
// (barrier(j), work_group_barrier(j), work_group_barrier(j, memory_scope)).
#pragma once

#include <CL/cl.h>
#include <llvm/ADT/StringRef.h>

namespace weft::compiler {

enum class WorkItemFn {
  None,
  WorkDim,
  GlobalSize,
  GlobalId,
  LocalSize,
  EnqueuedLocalSize,
  LocalId,
  NumGroups,
  GroupId,
  GlobalOffset,
  GlobalLinearId,
  LocalLinearId,
};

/// The generic address space's queries: to_global, to_local and to_private
/// (which Clang emits as calls to __to_global, __to_local, __to_private) and
/// get_fence; and the builtin library's __weft_wg_scratch (the collectives'
/// __local buffer).
enum class AddressSpaceFn { None, ToGlobal, ToLocal, ToPrivate, GetFence, CollectiveScratch };

/// The unmangled name of an Itanium-mangled function ("" if not mangled).
llvm::StringRef demangledBaseName(llvm::StringRef Mangled);
WorkItemFn classifyWorkItemFn(llvm::StringRef Mangled);
AddressSpaceFn classifyAddressSpaceFn(llvm::StringRef Name);
bool isBarrierName(llvm::StringRef Mangled);
bool isFenceName(llvm::StringRef Mangled);
/// The sub-group functions of OpenCL C 3.0 (6.15.x): the get_*sub_group*
/// work-item functions and every sub_group_* function (barrier, vote,
/// broadcast, reduce, scan).
bool isSubGroupName(llvm::StringRef Mangled);
/// The builtin library's sub-group primitives (src/builtins/SubGroups.cl):
/// __weft_sub_group_sync, the point where every work-item of a sub-group
/// has run the code before it (BarrierStatePass splits the kernel there, as
/// at a barrier, with the scope of a sub-group), and __weft_sub_group_width,
/// the kernel's sub-group size (WorkItemBuiltinPass).
bool isSubGroupSyncName(llvm::StringRef Name);
bool isSubGroupWidthName(llvm::StringRef Name);
/// __weft_sub_group_area, the caller's sub-group's area of the collective
/// scratch (runtime/program/CollectiveScratch.h; WorkItemBuiltinPass).
bool isSubGroupAreaName(llvm::StringRef Name);

/// Kernel argument types by their OpenCL C names (kernel_arg_base_type,
/// typedefs resolved): one of the image types (image1d_t ... image3d_t,
/// the depth and multi-sample forms), and sampler_t.
bool isImageTypeName(llvm::StringRef TypeName);
bool isSamplerTypeName(llvm::StringRef TypeName);
/// The CL_MEM_OBJECT_IMAGE* an argument of image type TypeName takes (a
/// depth image is a 2D image or 2D array); 0 for other names, the
/// multi-sample types included.
cl_mem_object_type imageObjectType(llvm::StringRef TypeName);

} // namespace weft::compiler

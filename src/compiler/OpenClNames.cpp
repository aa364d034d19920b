// Name matching for OpenCL builtins; see OpenClNames.h.
#include "compiler/OpenClNames.h"

#include <llvm/ADT/StringSwitch.h>

namespace weft::compiler {

llvm::StringRef demangledBaseName(llvm::StringRef Mangled) {
  if (!Mangled.consume_front("_Z"))
    return {};
  unsigned Len = 0;
  size_t Digits = 0;
  while (Digits < Mangled.size() && Mangled[Digits] >= '0' && Mangled[Digits] <= '9')
    Len = Len * 10 + (Mangled[Digits++] - '0');
  if (Digits == 0 || Digits + Len > Mangled.size())
    return {};
  return Mangled.substr(Digits, Len);
}

WorkItemFn classifyWorkItemFn(llvm::StringRef Mangled) {
  return llvm::StringSwitch<WorkItemFn>(demangledBaseName(Mangled))
      .Case("get_work_dim", WorkItemFn::WorkDim)
      .Case("get_global_size", WorkItemFn::GlobalSize)
      .Case("get_global_id", WorkItemFn::GlobalId)
      .Case("get_local_size", WorkItemFn::LocalSize)
      .Case("get_enqueued_local_size", WorkItemFn::EnqueuedLocalSize)
      .Case("get_local_id", WorkItemFn::LocalId)
      .Case("get_num_groups", WorkItemFn::NumGroups)
      .Case("get_group_id", WorkItemFn::GroupId)
      .Case("get_global_offset", WorkItemFn::GlobalOffset)
      .Case("get_global_linear_id", WorkItemFn::GlobalLinearId)
      .Case("get_local_linear_id", WorkItemFn::LocalLinearId)
      .Default(WorkItemFn::None);
}

AddressSpaceFn classifyAddressSpaceFn(llvm::StringRef Name) {
  if (demangledBaseName(Name) == "get_fence")
    return AddressSpaceFn::GetFence;
  return llvm::StringSwitch<AddressSpaceFn>(Name)
      .Case("__to_global", AddressSpaceFn::ToGlobal)
      .Case("__to_local", AddressSpaceFn::ToLocal)
      .Case("__to_private", AddressSpaceFn::ToPrivate)
      .Case("__weft_wg_scratch", AddressSpaceFn::CollectiveScratch)
      .Default(AddressSpaceFn::None);
}

bool isBarrierName(llvm::StringRef Mangled) {
  llvm::StringRef Base = demangledBaseName(Mangled);
  return Base == "barrier" || Base == "work_group_barrier";
}

bool isSubGroupName(llvm::StringRef Mangled) {
  llvm::StringRef Base = demangledBaseName(Mangled);
  return Base.startswith("sub_group_") || Base == "get_sub_group_size" ||
         Base == "get_max_sub_group_size" || Base == "get_num_sub_groups" ||
         Base == "get_enqueued_num_sub_groups" || Base == "get_sub_group_id" ||
         Base == "get_sub_group_local_id";
}

bool isSubGroupSyncName(llvm::StringRef Name) { return Name == "__weft_sub_group_sync"; }

bool isSubGroupWidthName(llvm::StringRef Name) { return Name == "__weft_sub_group_width"; }

bool isSubGroupAreaName(llvm::StringRef Name) { return Name == "__weft_sub_group_area"; }

bool isFenceName(llvm::StringRef Mangled) {
  llvm::StringRef Base = demangledBaseName(Mangled);
  return Base == "mem_fence" || Base == "read_mem_fence" || Base == "write_mem_fence" ||
         Base == "atomic_work_item_fence";
}

bool isImageTypeName(llvm::StringRef TypeName) {
  return llvm::StringSwitch<bool>(TypeName)
      .Cases("image1d_t", "image1d_array_t", "image1d_buffer_t", "image2d_t", true)
      .Cases("image2d_array_t", "image2d_depth_t", "image2d_array_depth_t", "image3d_t", true)
      .Cases("image2d_msaa_t", "image2d_array_msaa_t", "image2d_msaa_depth_t",
             "image2d_array_msaa_depth_t", true)
      .Default(false);
}

cl_mem_object_type imageObjectType(llvm::StringRef TypeName) {
  return llvm::StringSwitch<cl_mem_object_type>(TypeName)
      .Case("image1d_t", CL_MEM_OBJECT_IMAGE1D)
      .Case("image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY)
      .Case("image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER)
      .Cases("image2d_t", "image2d_depth_t", CL_MEM_OBJECT_IMAGE2D)
      .Cases("image2d_array_t", "image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY)
      .Case("image3d_t", CL_MEM_OBJECT_IMAGE3D)
      .Default(0);
}

bool isSamplerTypeName(llvm::StringRef TypeName) { return TypeName == "sampler_t"; }

} // namespace weft::compiler

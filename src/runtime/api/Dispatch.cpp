// The ICD dispatch table and the four symbols libweft.so exports.
//
// The ICD loader finds us through clIcdGetPlatformIDsKHR (cl_khr_icd) and
// then calls every other entry point through the table each handle points
// at. The table is filled here, by slot name, from ApiList.def; slots for
// interop extensions we do not offer (GL, D3D, EGL, DX9) stay null.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace weft::rt {

namespace {
/// Whether the system's cl_icd_dispatch already has OpenCL 3.1's slot
/// (Khronos headers from 2025 on have it, Debian 12's do not).
template <typename T, typename = void> struct HasSlot31 : std::false_type {};
template <typename T>
struct HasSlot31<T, std::void_t<decltype(&T::clGetKernelSuggestedLocalWorkSize)>>
    : std::true_type {};

/// The 3.0 table of the system headers followed by the slot OpenCL 3.1
/// added at its end (cl_icd.h of the Khronos headers): a loader built for
/// 3.1 reads it.
struct DispatchWith31 {
  cl_icd_dispatch Core;
  void *clGetKernelSuggestedLocalWorkSize;
};
using DispatchTable =
    std::conditional_t<HasSlot31<cl_icd_dispatch>::value, cl_icd_dispatch, DispatchWith31>;

// A pointer to the table is a pointer to its first member.
static_assert(std::is_standard_layout_v<DispatchWith31> && offsetof(DispatchWith31, Core) == 0);
} // namespace

const cl_icd_dispatch *icdDispatchTable() {
  static const DispatchTable Table = [] {
    DispatchTable T;
    std::memset(&T, 0, sizeof(T));
    auto &C = reinterpret_cast<cl_icd_dispatch &>(T);
#define WEFT_API(Name) C.Name = &api::Name;
#include "runtime/api/ApiList.def"
#undef WEFT_API
    // cl_khr_subgroups: the same function under its extension name.
    C.clGetKernelSubGroupInfoKHR = &api::clGetKernelSubGroupInfo;
    T.clGetKernelSuggestedLocalWorkSize =
        reinterpret_cast<decltype(T.clGetKernelSuggestedLocalWorkSize)>(
            &api::clGetKernelSuggestedLocalWorkSize);
    return T;
  }();
  return reinterpret_cast<const cl_icd_dispatch *>(&Table);
}

} // namespace weft::rt

namespace weft::api {

namespace {
struct ExtensionFunction {
  const char *Name;
  void *Address;
};
// Functions reachable through clGetExtensionFunctionAddress(ForPlatform).
const ExtensionFunction ExtensionFunctions[] = {
    {"clIcdGetPlatformIDsKHR", reinterpret_cast<void *>(&icdGetPlatformIDs)},
    {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void *>(&clGetKernelSubGroupInfo)},
    // cl_khr_suggested_local_work_size, also OpenCL 3.1's core function.
    {"clGetKernelSuggestedLocalWorkSizeKHR",
     reinterpret_cast<void *>(&clGetKernelSuggestedLocalWorkSize)},
};
} // namespace

cl_int icdGetPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms, cl_uint *NumPlatforms) {
  return api::clGetPlatformIDs(NumEntries, Platforms, NumPlatforms);
}

void *CL_API_CALL clGetExtensionFunctionAddress(const char *Name) {
  if (!Name)
    return nullptr;
  for (const auto &F : ExtensionFunctions)
    if (std::strcmp(F.Name, Name) == 0)
      return F.Address;
  return nullptr;
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id P, const char *Name) {
  if (!fromHandle<Platform>(P))
    return nullptr;
  return api::clGetExtensionFunctionAddress(Name);
}

} // namespace weft::api

// The exported symbols (see src/runtime/weft.exports).
extern "C" {
__attribute__((visibility("default"))) cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint NumEntries, cl_platform_id *Platforms, cl_uint *NumPlatforms) {
  return weft::api::icdGetPlatformIDs(NumEntries, Platforms, NumPlatforms);
}

__attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddress(const char *Name) {
  return weft::api::clGetExtensionFunctionAddress(Name);
}

__attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id P, const char *Name) {
  return weft::api::clGetExtensionFunctionAddressForPlatform(P, Name);
}

// ocl-icd 2.3 (Debian 12) refuses a vendor library that does not export
// clGetPlatformInfo: it reads CL_PLATFORM_ICD_SUFFIX_KHR through it.
__attribute__((visibility("default"))) cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id P, cl_platform_info Param, size_t Size, void *Value,
                  size_t *SizeRet) {
  return weft::api::clGetPlatformInfo(P, Param, Size, Value, SizeRet);
}
}

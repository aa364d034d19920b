// The ICD dispatch table and the four symbols libweft.so exports.
//
// The ICD loader finds us through clIcdGetPlatformIDsKHR (cl_khr_icd) and
// then calls every other entry point through the table each handle points
// at. The table is filled here, by slot name, from ApiList.def; slots for
// interop extensions we do not offer (GL, D3D, EGL, DX9) stay null.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

#include <cstring>

namespace weft::rt {

const cl_icd_dispatch *icdDispatchTable() {
  static const cl_icd_dispatch Table = [] {
    cl_icd_dispatch T;
    std::memset(&T, 0, sizeof(T));
#define WEFT_API(Name) T.Name = &api::Name;
#include "runtime/api/ApiList.def"
#undef WEFT_API
    // cl_khr_subgroups: the same function under its extension name.
    T.clGetKernelSubGroupInfoKHR = &api::clGetKernelSubGroupInfo;
    return T;
  }();
  return &Table;
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

// Declarations of Weft's implementations of the OpenCL entry points.
//
// They live in weft::api with the specification's names and exact types
// (taken from the CL headers by decltype, so a signature cannot drift). They
// are hidden: the only way in is the ICD dispatch table (Dispatch.cpp).
#pragma once

#include "weft/OpenCLNames.h"

#include <CL/cl_icd.h>

namespace weft::api {
#define WEFT_API(Name) decltype(::Name) Name;
#include "runtime/api/ApiList.def"
#undef WEFT_API
/// OpenCL 3.1 (and cl_khr_suggested_local_work_size): a slot after the end
/// of the system headers' dispatch table (Dispatch.cpp).
decltype(::clGetKernelSuggestedLocalWorkSize) clGetKernelSuggestedLocalWorkSize;

/// clIcdGetPlatformIDsKHR, the loader's way in (exported).
cl_int icdGetPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms, cl_uint *NumPlatforms);
} // namespace weft::api

// The OpenCL names Weft uses that Debian 12's OpenCL headers (Khronos
// headers of 2023-02-06) lack: OpenCL 3.1's and those of extensions newer
// than those headers, with the values of the current Khronos headers
// (KhronosGroup/OpenCL-Headers) and specification. Each is defined only
// where the system headers have not, so that newer headers take over
// unchanged. Weft's sources and tests include this instead of naming a
// value the system headers may lack.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

// ---- OpenCL 3.1 (cl.h, under CL_VERSION_3_1) -----------------------------

#ifndef CL_VERSION_3_1
/// CL_DEVICE_MAX_WORK_ITEM_SIZES under its 3.1 name (the same query).
#define CL_DEVICE_MAX_WORK_GROUP_SIZES 0x1005
#define CL_DEVICE_UUID 0x106A
#define CL_DRIVER_UUID 0x106B
#define CL_DEVICE_LUID_VALID 0x106C
#define CL_DEVICE_LUID 0x106D
#define CL_DEVICE_NODE_MASK 0x106E
#define CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES 0x1073
#define CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT 0x1074
#define CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED 0x1075
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES 0x12BB
#define CL_UUID_SIZE 16
#define CL_LUID_SIZE 8
#define CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED (1 << 0)
#define CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT (1 << 1)

typedef cl_bitfield cl_device_integer_dot_product_capabilities;
typedef cl_device_integer_dot_product_acceleration_properties_khr
    cl_device_integer_dot_product_acceleration_properties;

#ifdef __cplusplus
extern "C" {
#endif
/// The core form of cl_khr_suggested_local_work_size's entry point.
extern CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSize(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    size_t *suggested_local_work_size);
#ifdef __cplusplus
}
#endif
#endif // CL_VERSION_3_1

// ---- cl_khr_spirv_queries ------------------------------------------------

#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

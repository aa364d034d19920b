// What Weft implements today, in one place: the platform and device report
// these lists, and the compiler enables exactly these extensions and
// OpenCL C features. Grow them only together with the implementation.
#pragma once

#include <CL/cl.h>

namespace weft::rt {

struct NamedVersion {
  const char *Name;
  cl_version Version;
};

constexpr cl_version WeftVersion = CL_MAKE_VERSION(0, 1, 0);
#define WEFT_VERSION_STRING "0.1.0"

/// Platform extensions.
constexpr NamedVersion PlatformExtensions[] = {
    {"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)},
};

/// Device extensions (also OpenCL C extension pragmas the compiler enables).
constexpr NamedVersion DeviceExtensions[] = {
    {"cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroups", CL_MAKE_VERSION(1, 0, 0)},
};

/// OpenCL C 3.0 optional features.
constexpr NamedVersion OpenCLCFeatures[] = {
    {"__opencl_c_int64", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_fp64", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_generic_address_space", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_program_scope_global_variables", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_work_group_collective_functions", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_order_acq_rel", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_order_seq_cst", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_scope_device", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_atomic_scope_all_devices", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_subgroups", CL_MAKE_VERSION(3, 0, 0)},
};

/// Sub-groups: a work-group runs as one loop over its work-items, so the
/// one sub-group shape correct for every program is the whole work-group,
/// in linear-id order (src/builtins/SubGroups.cl). A kernel that uses
/// sub-group functions runs work-groups of at most this many work-items
/// (CL_KERNEL_WORK_GROUP_SIZE): the width of the sub-group masks of the
/// cl_khr_subgroup_ballot family, and what the CTS's checks assume.
constexpr size_t MaxSubGroupSize = 128;

/// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: one program-scope variable lives in
/// the executable's data, so the limit is what a sane kernel image holds.
constexpr size_t MaxGlobalVariableSize = size_t(64) << 20;

/// Intermediate languages clCreateProgramWithIL accepts (the compiler's
/// SPIR-V front end reads 1.0 to 1.4).
constexpr NamedVersion IntermediateLanguages[] = {
    {"SPIR-V", CL_MAKE_VERSION(1, 0, 0)}, {"SPIR-V", CL_MAKE_VERSION(1, 1, 0)},
    {"SPIR-V", CL_MAKE_VERSION(1, 2, 0)}, {"SPIR-V", CL_MAKE_VERSION(1, 3, 0)},
    {"SPIR-V", CL_MAKE_VERSION(1, 4, 0)},
};

/// OpenCL C versions the compiler accepts for this device.
constexpr NamedVersion OpenCLCVersions[] = {
    {"OpenCL C", CL_MAKE_VERSION(1, 0, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 1, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 2, 0)},
    {"OpenCL C", CL_MAKE_VERSION(3, 0, 0)},
};

} // namespace weft::rt

// clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo,
// sub-devices, and the host timers.
#include "runtime/api/Api.h"
#include "runtime/BuildIdentity.h"
#include "runtime/api/Entry.h"
#include "runtime/platform/Capabilities.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <string_view>

namespace weft::api {

namespace {

template <size_t N> std::string joinNames(const NamedVersion (&List)[N]) {
  std::string S;
  for (const auto &E : List) {
    if (!S.empty())
      S += ' ';
    S += E.Name;
  }
  return S;
}

template <size_t N> std::vector<cl_name_version> withVersion(const NamedVersion (&List)[N]) {
  std::vector<cl_name_version> Out;
  for (const auto &E : List) {
    cl_name_version V{};
    V.version = E.Version;
    std::snprintf(V.name, sizeof(V.name), "%s", E.Name);
    Out.push_back(V);
  }
  return Out;
}

/// "3.0" for CL_MAKE_VERSION(3, 0, 0): the <major>.<minor> of version strings.
std::string versionText(cl_version V) {
  return std::to_string(CL_VERSION_MAJOR(V)) + "." + std::to_string(CL_VERSION_MINOR(V));
}

using Uuid = std::array<cl_uchar, CL_UUID_SIZE_KHR>;

/// A UUID named by Parts: their 128-bit FNV-1a hash (each part length-
/// prefixed, so the split is part of the name), marked as an RFC 9562
/// UUID of version 8 (application-defined) and the RFC variant. The same
/// parts give the same UUID in every process.
Uuid uuidOf(std::initializer_list<std::string_view> Parts) {
  using U128 = unsigned __int128;
  const U128 Prime = (U128(1) << 88) | 0x13b;
  U128 H = (U128(0x6c62272e07bb0142ULL) << 64) | 0x62b821756295c58dULL;
  auto mix = [&](const void *Data, size_t Size) {
    for (size_t I = 0; I < Size; ++I) {
      H ^= static_cast<const unsigned char *>(Data)[I];
      H *= Prime;
    }
  };
  for (std::string_view P : Parts) {
    const uint64_t Size = P.size();
    mix(&Size, sizeof(Size));
    mix(P.data(), P.size());
  }
  Uuid Out;
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I] = cl_uchar(H >> (8 * (Out.size() - 1 - I)));
  Out[6] = cl_uchar((Out[6] & 0x0f) | 0x80); // version 8
  Out[8] = cl_uchar((Out[8] & 0x3f) | 0x80); // variant 10
  return Out;
}

/// CL_DRIVER_UUID: this build of the library (its GNU build ID).
Uuid driverUuid() { return uuidOf({"Weft driver", WEFT_VERSION_STRING, rt::buildIdentity()}); }

/// CL_DEVICE_UUID: the device a build of the library makes of this CPU:
/// the same library on the same kind of CPU (and ISA, which WEFT_CPU may
/// choose) is the same device, in any process; how many of its cores the
/// process may use does not change it.
Uuid deviceUuid(const DeviceProperties &P) {
  return uuidOf({"Weft CPU device", rt::buildIdentity(), P.Vendor, P.Name, P.IsaName,
                 std::to_string(P.SimdBytes)});
}

template <size_t N> std::vector<const char *> names(const char *const (&List)[N]) {
  return std::vector<const char *>(std::begin(List), std::end(List));
}

Result<InfoValue> platformInfo(cl_platform_info Param) {
  switch (Param) {
  case CL_PLATFORM_PROFILE:
    return InfoValue("FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return InfoValue("OpenCL " + versionText(OpenCLVersion) + " Weft " WEFT_VERSION_STRING);
  case CL_PLATFORM_NUMERIC_VERSION:
    return InfoValue(OpenCLVersion);
  case CL_PLATFORM_NAME:
    return InfoValue("Weft");
  case CL_PLATFORM_VENDOR:
    return InfoValue("Weft");
  case CL_PLATFORM_EXTENSIONS:
    return InfoValue(joinNames(PlatformExtensions));
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return InfoValue(withVersion(PlatformExtensions));
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return InfoValue(cl_ulong(1));
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return InfoValue("WEFT");
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_platform_info " + std::to_string(Param));
  }
}

cl_device_fp_config fpConfig(bool Double) {
  cl_device_fp_config C = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                          CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  if (!Double)
    C |= CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
  return C;
}

Result<InfoValue> deviceInfo(Device &D, cl_device_info Param) {
  const DeviceProperties &P = D.props();
  const size_t MaxWg = P.MaxWorkGroupSize;
  const cl_uint FloatLanes = P.VectorWidths[4];
  switch (Param) {
  case CL_DEVICE_TYPE:
    return InfoValue(cl_device_type(CL_DEVICE_TYPE_CPU));
  case CL_DEVICE_VENDOR_ID:
    return InfoValue(P.VendorId);
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return InfoValue(P.ComputeUnits);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return InfoValue(cl_uint(3));
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: // CL_DEVICE_MAX_WORK_GROUP_SIZES, its 3.1 name
    return InfoValue(std::vector<size_t>{MaxWg, MaxWg, MaxWg});
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return InfoValue(MaxWg);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return InfoValue(P.VectorWidths[0]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return InfoValue(P.VectorWidths[1]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    return InfoValue(P.VectorWidths[2]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    return InfoValue(P.VectorWidths[3]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return InfoValue(P.VectorWidths[4]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return InfoValue(P.VectorWidths[5]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return InfoValue(cl_uint(0)); // no cl_khr_fp16 yet
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return InfoValue(P.MaxClockMHz);
  case CL_DEVICE_ADDRESS_BITS:
    return InfoValue(cl_uint(64));
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return InfoValue(cl_ulong(P.MaxMemAllocSize));
  case CL_DEVICE_IMAGE_SUPPORT:
    return InfoValue(cl_bool(Images.Supported));
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return InfoValue(Images.MaxReadArgs);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return InfoValue(Images.MaxWriteArgs);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return InfoValue(Images.MaxReadWriteArgs);
  case CL_DEVICE_MAX_SAMPLERS:
    return InfoValue(Images.MaxSamplers);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    return InfoValue(Images.PitchAlignment);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return InfoValue(Images.BaseAddressAlignment);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    return InfoValue(Images.Max2DWidth);
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return InfoValue(Images.Max2DHeight);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    return InfoValue(Images.Max3DWidth);
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    return InfoValue(Images.Max3DHeight);
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return InfoValue(Images.Max3DDepth);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return InfoValue(Images.MaxBufferSize);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return InfoValue(Images.MaxArraySize);
  case CL_DEVICE_MAX_PIPE_ARGS:
    return InfoValue(Pipes.MaxArgs);
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    return InfoValue(Pipes.MaxActiveReservations);
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return InfoValue(Pipes.MaxPacketSize);
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    return InfoValue(DeviceQueues.MaxQueues);
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return InfoValue(DeviceQueues.MaxEvents);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    return InfoValue(DeviceQueues.PreferredSize);
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    return InfoValue(DeviceQueues.MaxSize);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return InfoValue(cl_uint(0));
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return InfoValue(MaxGlobalVariableSize);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return InfoValue(size_t(1024));
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return InfoValue(cl_uint(BufferAlignment * 8));
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return InfoValue(cl_uint(BufferAlignment));
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return InfoValue(fpConfig(false));
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return InfoValue(fpConfig(true));
  case CL_DEVICE_HALF_FP_CONFIG:
    return InfoValue(cl_device_fp_config(0));
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return InfoValue(cl_device_mem_cache_type(CL_READ_WRITE_CACHE));
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return InfoValue(cl_uint(P.LastLevelCache.LineSize));
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return InfoValue(cl_ulong(P.LastLevelCache.Size));
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return InfoValue(cl_ulong(P.GlobalMemSize));
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return InfoValue(cl_ulong(4u << 20));
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return InfoValue(cl_uint(8));
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return InfoValue(cl_device_local_mem_type(CL_GLOBAL));
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return InfoValue(cl_ulong(P.LocalMemSize));
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return InfoValue(cl_bool(CL_FALSE));
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return InfoValue(cl_bool(CL_TRUE));
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return InfoValue(size_t(1));
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return InfoValue(cl_bool(CL_TRUE));
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return InfoValue(cl_device_exec_capabilities(CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL));
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    return InfoValue(HostQueueProperties);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return InfoValue(DeviceQueues.Properties);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return InfoValue("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return InfoValue(std::vector<cl_name_version>{});
  case CL_DEVICE_PLATFORM:
    return InfoValue(static_cast<cl_platform_id>(&D.platform()));
  case CL_DEVICE_NAME:
    return InfoValue(P.Name);
  case CL_DEVICE_VENDOR:
    return InfoValue(P.Vendor);
  case CL_DRIVER_VERSION:
    return InfoValue(WEFT_VERSION_STRING);
  case CL_DEVICE_PROFILE:
    return InfoValue("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return InfoValue("OpenCL " + versionText(OpenCLVersion) + " Weft " WEFT_VERSION_STRING " " +
                     P.IsaName);
  case CL_DEVICE_NUMERIC_VERSION:
    return InfoValue(OpenCLVersion);
  case CL_DEVICE_OPENCL_C_VERSION:
    return InfoValue(OpenCLCVersionText);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return InfoValue(withVersion(OpenCLCVersions));
  case CL_DEVICE_OPENCL_C_FEATURES:
    return InfoValue(withVersion(OpenCLCFeatures));
  case CL_DEVICE_EXTENSIONS:
    return InfoValue(joinNames(DeviceExtensions));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return InfoValue(withVersion(DeviceExtensions));
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return InfoValue(size_t(1u << 20));
  case CL_DEVICE_PARENT_DEVICE:
    return InfoValue(cl_device_id(nullptr));
  case CL_DEVICE_PARTITION_PROPERTIES:
    return InfoValue(std::vector<cl_device_partition_property>{0});
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return InfoValue(cl_device_affinity_domain(0));
  case CL_DEVICE_PARTITION_TYPE:
    return InfoValue(std::vector<cl_device_partition_property>{});
  case CL_DEVICE_REFERENCE_COUNT:
    return InfoValue(cl_uint(1));
  case CL_DEVICE_SVM_CAPABILITIES:
    return InfoValue(SvmCapabilities);
  case CL_DEVICE_IL_VERSION: {
    std::string Text;
    for (const NamedVersion &V : IntermediateLanguages)
      Text += (Text.empty() ? "" : " ") + std::string(V.Name) + "_" +
              std::to_string(CL_VERSION_MAJOR(V.Version)) + "." +
              std::to_string(CL_VERSION_MINOR(V.Version));
    return InfoValue(Text);
  }
  case CL_DEVICE_ILS_WITH_VERSION:
    return InfoValue(withVersion(IntermediateLanguages));
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    return InfoValue(cl_bool(NonUniformWorkGroups));
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    return InfoValue(cl_bool(GenericAddressSpace));
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    return InfoValue(cl_bool(WorkGroupCollectives));
  // The most sub-groups a group of any kernel has: its sub-groups of the
  // smallest size a kernel may require (Capabilities.h).
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: {
    const size_t Width = *std::min_element(std::begin(SubGroupSizes), std::end(SubGroupSizes));
    return InfoValue(cl_uint((D.props().MaxWorkGroupSize + Width - 1) / Width));
  }
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL:
    return InfoValue(std::vector<size_t>(std::begin(SubGroupSizes), std::end(SubGroupSizes)));
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    return InfoValue(cl_bool(SubGroupIndependentForwardProgress));
  case CL_DEVICE_PIPE_SUPPORT:
    return InfoValue(cl_bool(Pipes.Supported));
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    return InfoValue(AtomicMemoryCapabilities);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return InfoValue(AtomicFenceCapabilities);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return InfoValue(DeviceQueues.Capabilities);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return InfoValue(size_t(FloatLanes));
  // cl_khr_device_uuid: no LUID (a Windows notion), one node.
  case CL_DEVICE_UUID_KHR:
    return InfoValue(deviceUuid(P));
  case CL_DRIVER_UUID_KHR:
    return InfoValue(driverUuid());
  case CL_DEVICE_LUID_VALID_KHR:
    return InfoValue(cl_bool(CL_FALSE));
  case CL_DEVICE_LUID_KHR:
    return InfoValue(std::array<cl_uchar, CL_LUID_SIZE_KHR>{});
  case CL_DEVICE_NODE_MASK_KHR:
    return InfoValue(cl_uint(0));
  // cl_khr_spirv_queries: what the SPIR-V front end accepts.
  case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR:
    return InfoValue(names(SpirvExtendedInstructionSets));
  case CL_DEVICE_SPIRV_EXTENSIONS_KHR:
    return InfoValue(names(SpirvExtensions));
  case CL_DEVICE_SPIRV_CAPABILITIES_KHR: {
    std::vector<cl_uint> Values;
    for (const SpirvCapability &C : SpirvCapabilities)
      Values.push_back(C.Value);
    return InfoValue(Values);
  }
  case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
    return InfoValue(IntegerDotProductCapabilities);
  // The packed and the unpacked built-ins are the same code
  // (IntegerDotProduct.cl), so both answer alike: accelerated where the
  // compiler makes them the CPU's dot-product instructions (CodeTarget).
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR: {
    const cl_bool A = P.Int8DotProductInstructions ? CL_TRUE : CL_FALSE;
    return InfoValue(cl_device_integer_dot_product_acceleration_properties_khr{A, A, A, A, A, A});
  }
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    // A valid date that names no CTS release: Weft has not passed one yet.
    return InfoValue("v2000-01-01-00");
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_device_info " + std::to_string(Param));
  }
}

} // namespace

cl_int CL_API_CALL clGetPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms,
                                    cl_uint *NumPlatforms) {
  return entry([&]() -> Status {
    // "num_entries is equal to zero and platforms is not NULL, or if both
    // num_platforms and platforms are NULL".
    WEFT_CHECK(NumEntries == 0 && Platforms, CL_INVALID_VALUE, "num_entries is 0");
    WEFT_CHECK(!NumPlatforms && !Platforms, CL_INVALID_VALUE,
               "platforms and num_platforms are both NULL");
    if (Platforms)
      Platforms[0] = &Platform::get();
    if (NumPlatforms)
      *NumPlatforms = 1;
    return {};
  });
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id P, cl_platform_info Param, size_t Size,
                                     void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    // A NULL platform selects ours (the behaviour is implementation-defined).
    if (P)
      WEFT_VALID(Platform, P);
    WEFT_TRY(Info, platformInfo(Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id P, cl_device_type Type, cl_uint NumEntries,
                                  cl_device_id *Devices, cl_uint *NumDevices) {
  return entry([&]() -> Status {
    if (P)
      WEFT_VALID(Platform, P);
    constexpr cl_device_type Known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                     CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                     CL_DEVICE_TYPE_CUSTOM;
    WEFT_CHECK(Type != CL_DEVICE_TYPE_ALL && (Type & ~Known), CL_INVALID_DEVICE_TYPE,
               "unknown device_type");
    WEFT_CHECK(Type == 0, CL_INVALID_DEVICE_TYPE, "device_type is 0");
    WEFT_CHECK(NumEntries == 0 && Devices, CL_INVALID_VALUE, "num_entries is 0");
    WEFT_CHECK(!NumDevices && !Devices, CL_INVALID_VALUE, "devices and num_devices are NULL");
    std::vector<Device *> Matching;
    if (Type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT))
      Matching = Platform::get().devices();
    WEFT_CHECK(Matching.empty(), CL_DEVICE_NOT_FOUND, "no device of that type");
    if (Devices)
      for (cl_uint I = 0; I < NumEntries && I < Matching.size(); ++I)
        Devices[I] = Matching[I];
    if (NumDevices)
      *NumDevices = cl_uint(Matching.size());
    return {};
  });
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id Dev, cl_device_info Param, size_t Size,
                                   void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(D, get<Device>(Dev));
    WEFT_TRY(Info, deviceInfo(*D, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id Dev,
                                      const cl_device_partition_property *Properties,
                                      cl_uint NumDevices, cl_device_id *OutDevices,
                                      cl_uint *NumDevicesRet) {
  return entry([&]() -> Status {
    WEFT_VALID(Device, Dev);
    WEFT_CHECK(!Properties, CL_INVALID_VALUE, "properties is NULL");
    // CL_DEVICE_PARTITION_PROPERTIES reports no partition type.
    return makeError(CL_INVALID_VALUE, "the device supports no partition type");
  });
}

cl_int CL_API_CALL clRetainDevice(cl_device_id Dev) {
  // Root devices: retain and release are no-ops (the specification).
  return entry([&]() -> Status {
    WEFT_VALID(Device, Dev);
    return {};
  });
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id Dev) { return api::clRetainDevice(Dev); }

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id Dev, cl_ulong *DeviceTimestamp,
                                           cl_ulong *HostTimestamp) {
  return entry([&]() -> Status {
    WEFT_VALID(Device, Dev);
    WEFT_CHECK(!DeviceTimestamp || !HostTimestamp, CL_INVALID_VALUE, "NULL timestamp");
    // The device clock is the host clock.
    *DeviceTimestamp = *HostTimestamp = Platform::nowNs();
    return {};
  });
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id Dev, cl_ulong *HostTimestamp) {
  return entry([&]() -> Status {
    WEFT_VALID(Device, Dev);
    WEFT_CHECK(!HostTimestamp, CL_INVALID_VALUE, "host_timestamp is NULL");
    *HostTimestamp = Platform::nowNs();
    return {};
  });
}

} // namespace weft::api

// Device queries through the ICD loader: every cl_device_info of the OpenCL
// 3.0 headers answers with a size that matches its type, the values are
// plausible for this host (compute units follow the CPU affinity mask), the
// _WITH_VERSION forms agree with the string forms, and the device-level
// entry points return the error codes the specification lists.
#include "ApiTest.h"
#include "weft/OpenCLNames.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

using namespace weft::test;

namespace {

/// How the size of a query's value is fixed by its type.
enum class Shape {
  Fixed,  ///< exactly Size bytes
  String, ///< a NUL-terminated string
  Array,  ///< a whole number (possibly 0) of Size-byte elements
};

struct ParamSpec {
  cl_device_info Param;
  const char *Name;
  Shape Kind;
  size_t Size;
};

#define FIXED(P, T)                                                                                \
  { P, #P, Shape::Fixed, sizeof(T) }
#define STRING(P)                                                                                  \
  { P, #P, Shape::String, 1 }
#define ARRAY(P, T)                                                                                \
  { P, #P, Shape::Array, sizeof(T) }

const ParamSpec DeviceParams[] = {
    FIXED(CL_DEVICE_TYPE, cl_device_type),
    FIXED(CL_DEVICE_VENDOR_ID, cl_uint),
    FIXED(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
    FIXED(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
    FIXED(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
    ARRAY(CL_DEVICE_MAX_WORK_ITEM_SIZES, size_t),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
    FIXED(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
    FIXED(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
    FIXED(CL_DEVICE_ADDRESS_BITS, cl_uint),
    FIXED(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
    FIXED(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
    FIXED(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
    FIXED(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
    FIXED(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
    FIXED(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
    FIXED(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
    FIXED(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
    FIXED(CL_DEVICE_MAX_SAMPLERS, cl_uint),
    FIXED(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
    FIXED(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
    FIXED(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
    FIXED(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
    FIXED(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
    FIXED(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint),
    FIXED(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
    FIXED(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
    FIXED(CL_DEVICE_HALF_FP_CONFIG, cl_device_fp_config),
    FIXED(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
    FIXED(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
    FIXED(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
    FIXED(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
    FIXED(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
    FIXED(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
    FIXED(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
    FIXED(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
    FIXED(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
    FIXED(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
    FIXED(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
    FIXED(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
    FIXED(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
    FIXED(CL_DEVICE_AVAILABLE, cl_bool),
    FIXED(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
    FIXED(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
    FIXED(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
    FIXED(CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties),
    FIXED(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
    FIXED(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
    FIXED(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
    FIXED(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
    FIXED(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
    FIXED(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
    STRING(CL_DEVICE_BUILT_IN_KERNELS),
    ARRAY(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, cl_name_version),
    FIXED(CL_DEVICE_PLATFORM, cl_platform_id),
    STRING(CL_DEVICE_NAME),
    STRING(CL_DEVICE_VENDOR),
    STRING(CL_DRIVER_VERSION),
    STRING(CL_DEVICE_PROFILE),
    STRING(CL_DEVICE_VERSION),
    FIXED(CL_DEVICE_NUMERIC_VERSION, cl_version),
    STRING(CL_DEVICE_OPENCL_C_VERSION),
    ARRAY(CL_DEVICE_OPENCL_C_ALL_VERSIONS, cl_name_version),
    ARRAY(CL_DEVICE_OPENCL_C_FEATURES, cl_name_version),
    STRING(CL_DEVICE_EXTENSIONS),
    ARRAY(CL_DEVICE_EXTENSIONS_WITH_VERSION, cl_name_version),
    FIXED(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
    FIXED(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
    FIXED(CL_DEVICE_PARENT_DEVICE, cl_device_id),
    FIXED(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
    ARRAY(CL_DEVICE_PARTITION_PROPERTIES, cl_device_partition_property),
    FIXED(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
    ARRAY(CL_DEVICE_PARTITION_TYPE, cl_device_partition_property),
    FIXED(CL_DEVICE_REFERENCE_COUNT, cl_uint),
    FIXED(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
    FIXED(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
    FIXED(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
    STRING(CL_DEVICE_IL_VERSION),
    ARRAY(CL_DEVICE_ILS_WITH_VERSION, cl_name_version),
    FIXED(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
    FIXED(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
    FIXED(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
    FIXED(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
    FIXED(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
    FIXED(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
    FIXED(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, cl_device_device_enqueue_capabilities),
    FIXED(CL_DEVICE_PIPE_SUPPORT, cl_bool),
    STRING(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
    // cl_khr_device_uuid
    FIXED(CL_DEVICE_UUID_KHR, cl_uchar[CL_UUID_SIZE_KHR]),
    FIXED(CL_DRIVER_UUID_KHR, cl_uchar[CL_UUID_SIZE_KHR]),
    FIXED(CL_DEVICE_LUID_VALID_KHR, cl_bool),
    FIXED(CL_DEVICE_LUID_KHR, cl_uchar[CL_LUID_SIZE_KHR]),
    FIXED(CL_DEVICE_NODE_MASK_KHR, cl_uint),
    // cl_khr_spirv_queries
    ARRAY(CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, const char *),
    ARRAY(CL_DEVICE_SPIRV_EXTENSIONS_KHR, const char *),
    ARRAY(CL_DEVICE_SPIRV_CAPABILITIES_KHR, cl_uint),
};

#undef FIXED
#undef STRING
#undef ARRAY

template <typename T> std::vector<T> infoArray(cl_device_id D, cl_device_info Param) {
  size_t Size = 0;
  EXPECT_EQ(clGetDeviceInfo(D, Param, 0, nullptr, &Size), CL_SUCCESS);
  EXPECT_EQ(Size % sizeof(T), 0u);
  std::vector<T> Out(Size / sizeof(T));
  if (Size) {
    EXPECT_EQ(clGetDeviceInfo(D, Param, Size, Out.data(), nullptr), CL_SUCCESS);
  }
  return Out;
}

std::set<std::string> splitWords(const std::string &S) {
  std::istringstream In(S);
  std::set<std::string> Out;
  for (std::string W; In >> W;)
    Out.insert(W);
  return Out;
}

std::set<std::string> names(const std::vector<cl_name_version> &List) {
  std::set<std::string> Out;
  for (const cl_name_version &V : List)
    Out.insert(V.name);
  return Out;
}

/// "OpenCL 3.0 ..." or "OpenCL C 1.2 ..." as a cl_version (0 if malformed).
cl_version parseVersion(const std::string &S, const std::string &Prefix) {
  unsigned Major = 0, Minor = 0;
  if (S.rfind(Prefix, 0) != 0 ||
      std::sscanf(S.c_str() + Prefix.size(), "%u.%u", &Major, &Minor) != 2)
    return 0;
  return CL_MAKE_VERSION(Major, Minor, 0);
}

cl_version versionOnly(cl_version V) {
  return CL_MAKE_VERSION(CL_VERSION_MAJOR(V), CL_VERSION_MINOR(V), 0);
}

} // namespace

TEST_F(WithDevice, EveryDeviceInfoHasTheSizeOfItsType) {
  for (const ParamSpec &P : DeviceParams) {
    SCOPED_TRACE(P.Name);
    size_t Size = 12345;
    ASSERT_EQ(clGetDeviceInfo(Device, P.Param, 0, nullptr, &Size), CL_SUCCESS);
    std::vector<char> Value(Size + 1, '\x7f');
    ASSERT_EQ(clGetDeviceInfo(Device, P.Param, Size, Size ? Value.data() : nullptr, nullptr),
              CL_SUCCESS);
    switch (P.Kind) {
    case Shape::Fixed:
      EXPECT_EQ(Size, P.Size);
      break;
    case Shape::String:
      ASSERT_GE(Size, 1u);
      EXPECT_EQ(Value[Size - 1], '\0');
      EXPECT_EQ(std::strlen(Value.data()), Size - 1);
      break;
    case Shape::Array:
      EXPECT_EQ(Size % P.Size, 0u);
      break;
    }
    // The value is written whole and nothing past it.
    EXPECT_EQ(Value[Size], '\x7f');
    if (Size > 1) {
      // A buffer one byte short is an error, not a truncated value.
      EXPECT_EQ(clGetDeviceInfo(Device, P.Param, Size - 1, Value.data(), nullptr),
                CL_INVALID_VALUE);
    }
  }
}

TEST_F(WithDevice, DeviceInfoErrors) {
  cl_uint V;
  EXPECT_EQ(clGetDeviceInfo(Device, 0x7fff, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceInfo(Device, CL_DEVICE_MAX_COMPUTE_UNITS, 1, &V, nullptr), CL_INVALID_VALUE);
  // A platform handle where a device is expected.
  EXPECT_EQ(clGetDeviceInfo(wrongHandle<cl_device_id>(Platform), CL_DEVICE_MAX_COMPUTE_UNITS,
                            sizeof(V), &V, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clGetDeviceInfo(nullptr, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(V), &V, nullptr),
            CL_INVALID_DEVICE);
}

TEST_F(WithDevice, GetDeviceIDs) {
  cl_uint Num = 0;
  ASSERT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &Num), CL_SUCCESS);
  EXPECT_EQ(Num, 1u);
  cl_device_id D = nullptr;
  ASSERT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_DEFAULT, 1, &D, nullptr), CL_SUCCESS);
  EXPECT_EQ(D, Device);
  EXPECT_EQ(info<cl_platform_id>(clGetDeviceInfo, Device, CL_DEVICE_PLATFORM), Platform);
  EXPECT_EQ(info<cl_device_type>(clGetDeviceInfo, Device, CL_DEVICE_TYPE),
            cl_device_type(CL_DEVICE_TYPE_CPU));
}

TEST_F(WithDevice, GetDeviceIDsErrors) {
  cl_device_id D;
  cl_uint Num;
  EXPECT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_GPU, 1, &D, &Num), CL_DEVICE_NOT_FOUND);
  EXPECT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ACCELERATOR, 1, &D, &Num), CL_DEVICE_NOT_FOUND);
  EXPECT_EQ(clGetDeviceIDs(Platform, cl_device_type(1) << 40, 1, &D, &Num), CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(Platform, 0, 1, &D, &Num), CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_CPU, 0, &D, &Num), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_CPU, 1, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(wrongHandle<cl_platform_id>(Device), CL_DEVICE_TYPE_CPU, 1, &D, &Num),
            CL_INVALID_PLATFORM);
}

TEST_F(WithDevice, PlatformInfoWrongHandle) {
  char Buf[64];
  EXPECT_EQ(clGetPlatformInfo(wrongHandle<cl_platform_id>(Device), CL_PLATFORM_NAME, sizeof(Buf),
                              Buf, nullptr),
            CL_INVALID_PLATFORM);
}

TEST_F(WithDevice, ComputeUnitsFollowTheAffinityMask) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(Set), &Set), 0);
  EXPECT_EQ(info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_MAX_COMPUTE_UNITS),
            cl_uint(CPU_COUNT(&Set)));
}

TEST_F(WithDevice, PlausibleLimits) {
  auto U = [&](cl_device_info P) { return info<cl_uint>(clGetDeviceInfo, Device, P); };
  auto UL = [&](cl_device_info P) { return info<cl_ulong>(clGetDeviceInfo, Device, P); };
  auto Z = [&](cl_device_info P) { return info<size_t>(clGetDeviceInfo, Device, P); };
  auto B = [&](cl_device_info P) { return info<cl_bool>(clGetDeviceInfo, Device, P); };

  // Vector widths are one register wide.
  EXPECT_GE(U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT), 1u);
  EXPECT_EQ(U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) * 4,
            U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR));
  EXPECT_EQ(U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT), U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
  EXPECT_EQ(U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT), 2 * U(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT));

  const size_t MaxWg = Z(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(MaxWg, 1u);
  ASSERT_EQ(U(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3u);
  std::vector<size_t> Sizes = infoArray<size_t>(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  ASSERT_EQ(Sizes.size(), 3u);
  for (size_t S : Sizes) {
    EXPECT_GE(S, 1u);
    EXPECT_LE(S, MaxWg);
  }

  // Minimums of the FULL_PROFILE for a non-custom device.
  EXPECT_GE(UL(CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_GE(UL(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024);
  EXPECT_GE(U(CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
  EXPECT_GE(Z(CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
  EXPECT_GE(UL(CL_DEVICE_MAX_MEM_ALLOC_SIZE),
            std::max<cl_ulong>(UL(CL_DEVICE_GLOBAL_MEM_SIZE) / 4, 128u << 20));
  EXPECT_LE(UL(CL_DEVICE_MAX_MEM_ALLOC_SIZE), UL(CL_DEVICE_GLOBAL_MEM_SIZE));
  EXPECT_EQ(U(CL_DEVICE_ADDRESS_BITS), 64u);
  // MEM_BASE_ADDR_ALIGN is in bits and at least the size of long16.
  EXPECT_GE(U(CL_DEVICE_MEM_BASE_ADDR_ALIGN), 8u * 128);
  EXPECT_EQ(U(CL_DEVICE_MEM_BASE_ADDR_ALIGN) % 8, 0u);
  EXPECT_TRUE(B(CL_DEVICE_ENDIAN_LITTLE));
  EXPECT_TRUE(B(CL_DEVICE_AVAILABLE));
  EXPECT_TRUE(B(CL_DEVICE_COMPILER_AVAILABLE));

  // Images: the full profile's limits (ImageTest.cpp checks them all).
  EXPECT_TRUE(B(CL_DEVICE_IMAGE_SUPPORT));

  // Single precision minimum: round to nearest and INF/NaN.
  auto Fp = info<cl_device_fp_config>(clGetDeviceInfo, Device, CL_DEVICE_SINGLE_FP_CONFIG);
  EXPECT_TRUE(Fp & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(Fp & CL_FP_INF_NAN);

  auto QProps = info<cl_command_queue_properties>(clGetDeviceInfo, Device,
                                                  CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(QProps & CL_QUEUE_PROFILING_ENABLE);
  EXPECT_EQ(QProps,
            info<cl_command_queue_properties>(clGetDeviceInfo, Device, CL_DEVICE_QUEUE_PROPERTIES));
  EXPECT_EQ(info<cl_device_id>(clGetDeviceInfo, Device, CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_EQ(infoString(clGetDeviceInfo, Device, CL_DEVICE_PROFILE), "FULL_PROFILE");
}

TEST_F(WithDevice, WithVersionQueriesAgreeWithStrings) {
  // Extensions.
  std::set<std::string> Ext = splitWords(infoString(clGetDeviceInfo, Device, CL_DEVICE_EXTENSIONS));
  auto ExtV = infoArray<cl_name_version>(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION);
  EXPECT_EQ(Ext, names(ExtV));
  EXPECT_EQ(Ext.size(), ExtV.size()) << "an extension is listed twice";

  // Built-in kernels and ILs (both empty or both the same names).
  std::string BuiltIns = infoString(clGetDeviceInfo, Device, CL_DEVICE_BUILT_IN_KERNELS);
  std::set<std::string> BuiltInNames;
  for (size_t Pos = 0; Pos < BuiltIns.size();) {
    size_t End = BuiltIns.find(';', Pos);
    if (End == std::string::npos)
      End = BuiltIns.size();
    if (End > Pos)
      BuiltInNames.insert(BuiltIns.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  EXPECT_EQ(BuiltInNames,
            names(infoArray<cl_name_version>(Device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION)));
  std::set<std::string> Ils = splitWords(infoString(clGetDeviceInfo, Device, CL_DEVICE_IL_VERSION));
  std::set<std::string> IlNames;
  for (const cl_name_version &V : infoArray<cl_name_version>(Device, CL_DEVICE_ILS_WITH_VERSION)) {
    std::string Full = std::string(V.name) + "_" + std::to_string(CL_VERSION_MAJOR(V.version)) +
                       "." + std::to_string(CL_VERSION_MINOR(V.version));
    IlNames.insert(Full);
  }
  EXPECT_EQ(Ils, IlNames);

  // Device version.
  cl_version Numeric = info<cl_version>(clGetDeviceInfo, Device, CL_DEVICE_NUMERIC_VERSION);
  EXPECT_EQ(versionOnly(Numeric),
            parseVersion(infoString(clGetDeviceInfo, Device, CL_DEVICE_VERSION), "OpenCL "));
  EXPECT_EQ(versionOnly(Numeric), CL_MAKE_VERSION(3, 1, 0));

  // The OpenCL C version string is one of OPENCL_C_ALL_VERSIONS.
  cl_version CVersion =
      parseVersion(infoString(clGetDeviceInfo, Device, CL_DEVICE_OPENCL_C_VERSION), "OpenCL C ");
  ASSERT_NE(CVersion, 0u);
  auto All = infoArray<cl_name_version>(Device, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
  bool Found = false;
  for (const cl_name_version &V : All) {
    EXPECT_STREQ(V.name, "OpenCL C");
    Found |= versionOnly(V.version) == CVersion;
  }
  EXPECT_TRUE(Found);

  // Features follow extensions: cl_khr_fp64 <=> __opencl_c_fp64, and the
  // FULL_PROFILE has 64-bit integers.
  std::set<std::string> Features =
      names(infoArray<cl_name_version>(Device, CL_DEVICE_OPENCL_C_FEATURES));
  EXPECT_EQ(Ext.count("cl_khr_fp64"), Features.count("__opencl_c_fp64"));
  EXPECT_EQ(Features.count("__opencl_c_int64"), 1u);
  EXPECT_EQ(Features.count("__opencl_c_images"),
            size_t(info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_IMAGE_SUPPORT)));
  EXPECT_EQ(Features.count("__opencl_c_3d_image_writes"), Ext.count("cl_khr_3d_image_writes"));
  EXPECT_EQ(Features.count("__opencl_c_pipes"),
            size_t(info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_PIPE_SUPPORT)));
  if (Ext.count("cl_khr_fp64")) {
    auto Fp64 = info<cl_device_fp_config>(clGetDeviceInfo, Device, CL_DEVICE_DOUBLE_FP_CONFIG);
    cl_device_fp_config Min = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
    EXPECT_EQ(Fp64 & Min, Min);
  }

  // The platform's own pair.
  size_t Size = 0;
  ASSERT_EQ(clGetPlatformInfo(Platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &Size),
            CL_SUCCESS);
  std::vector<cl_name_version> PExt(Size / sizeof(cl_name_version));
  ASSERT_EQ(
      clGetPlatformInfo(Platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, Size, PExt.data(), nullptr),
      CL_SUCCESS);
  EXPECT_EQ(splitWords(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_EXTENSIONS)),
            names(PExt));
  EXPECT_EQ(versionOnly(info<cl_version>(clGetPlatformInfo, Platform, CL_PLATFORM_NUMERIC_VERSION)),
            parseVersion(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_VERSION), "OpenCL "));
}

TEST_F(WithDevice, RetainReleaseRootDevice) {
  EXPECT_EQ(clRetainDevice(Device), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(Device), CL_SUCCESS);
  // A root device's count stays 1.
  EXPECT_EQ(info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainDevice(wrongHandle<cl_device_id>(Platform)), CL_INVALID_DEVICE);
  EXPECT_EQ(clReleaseDevice(wrongHandle<cl_device_id>(Platform)), CL_INVALID_DEVICE);
}

TEST_F(WithDevice, SubDevicesAreNotSupported) {
  auto Props = infoArray<cl_device_partition_property>(Device, CL_DEVICE_PARTITION_PROPERTIES);
  ASSERT_FALSE(Props.empty());
  EXPECT_EQ(Props[0], 0) << "the device reports no partition type";
  EXPECT_EQ(info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0u);
  cl_device_partition_property Equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint Num = 0;
  EXPECT_EQ(clCreateSubDevices(Device, Equally, 0, nullptr, &Num), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubDevices(Device, nullptr, 0, nullptr, &Num), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSubDevices(wrongHandle<cl_device_id>(Platform), Equally, 0, nullptr, &Num),
            CL_INVALID_DEVICE);
}

TEST_F(WithDevice, HostTimers) {
  cl_ulong Dev0 = 0, Host0 = 0, Host1 = 0, Dev1 = 0, Host2 = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(Device, &Dev0, &Host0), CL_SUCCESS);
  ASSERT_EQ(clGetHostTimer(Device, &Host1), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(Device, &Dev1, &Host2), CL_SUCCESS);
  EXPECT_LE(Host0, Host1);
  EXPECT_LE(Host1, Host2);
  EXPECT_LE(Dev0, Dev1);
  EXPECT_NE(Host0, 0u);
  EXPECT_EQ(clGetHostTimer(Device, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceAndHostTimer(Device, &Dev0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceAndHostTimer(Device, nullptr, &Host0), CL_INVALID_VALUE);
  EXPECT_EQ(clGetHostTimer(wrongHandle<cl_device_id>(Platform), &Host0), CL_INVALID_DEVICE);
  EXPECT_EQ(clGetDeviceAndHostTimer(wrongHandle<cl_device_id>(Platform), &Dev0, &Host0),
            CL_INVALID_DEVICE);
}

namespace {
using UuidBytes = std::array<cl_uchar, CL_UUID_SIZE_KHR>;

UuidBytes uuid(cl_device_id D, cl_device_info Param) {
  UuidBytes U{};
  EXPECT_EQ(clGetDeviceInfo(D, Param, U.size(), U.data(), nullptr), CL_SUCCESS);
  return U;
}

std::string hex(const UuidBytes &U) {
  std::string S;
  char B[3];
  for (cl_uchar C : U) {
    std::snprintf(B, sizeof(B), "%02x", C);
    S += B;
  }
  return S;
}
} // namespace

// cl_khr_device_uuid: well-formed UUIDs (RFC 9562, version 8), distinct for
// the device and the driver, no LUID.
TEST_F(WithDevice, DeviceAndDriverUuids) {
  const UuidBytes Dev = uuid(Device, CL_DEVICE_UUID_KHR);
  const UuidBytes Drv = uuid(Device, CL_DRIVER_UUID_KHR);
  EXPECT_NE(Dev, Drv);
  EXPECT_NE(Dev, UuidBytes{});
  for (const UuidBytes &U : {Dev, Drv}) {
    EXPECT_EQ(U[6] >> 4, 8) << hex(U) << ": version";
    EXPECT_EQ(U[8] >> 6, 2) << hex(U) << ": variant";
  }
  EXPECT_EQ(uuid(Device, CL_DEVICE_UUID_KHR), Dev) << "asked again";
  cl_bool LuidValid = CL_TRUE;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_LUID_VALID_KHR, sizeof(LuidValid), &LuidValid,
                            nullptr),
            CL_SUCCESS);
  EXPECT_EQ(LuidValid, cl_bool(CL_FALSE));
  cl_uint NodeMask = 1;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_NODE_MASK_KHR, sizeof(NodeMask), &NodeMask,
                            nullptr),
            CL_SUCCESS);
  EXPECT_EQ(NodeMask, 0u);
  // The core names of OpenCL 3.1 are the same queries.
  EXPECT_EQ(uuid(Device, CL_DEVICE_UUID), Dev);
  EXPECT_EQ(uuid(Device, CL_DRIVER_UUID), Drv);
}

// Run in a child process by SameUuidsInAnotherProcess: prints the two
// UUIDs for the parent to compare.
TEST_F(WithDevice, PrintUuidsForParent) {
  if (!std::getenv("WEFT_TEST_PRINT_UUIDS"))
    GTEST_SKIP() << "run by SameUuidsInAnotherProcess";
  std::printf("UUIDS %s %s\n", hex(uuid(Device, CL_DEVICE_UUID_KHR)).c_str(),
              hex(uuid(Device, CL_DRIVER_UUID_KHR)).c_str());
}

// The UUIDs name the library build and the CPU, not the process.
TEST_F(WithDevice, SameUuidsInAnotherProcess) {
  char Self[4096] = {};
  ASSERT_GT(readlink("/proc/self/exe", Self, sizeof(Self) - 1), 0);
  const std::string Command = "WEFT_TEST_PRINT_UUIDS=1 '" + std::string(Self) +
                              "' --gtest_filter=WithDevice.PrintUuidsForParent";
  FILE *Child = popen(Command.c_str(), "r");
  ASSERT_NE(Child, nullptr);
  std::string Output;
  char Line[512];
  while (std::fgets(Line, sizeof(Line), Child))
    Output += Line;
  ASSERT_EQ(pclose(Child), 0) << Output;
  const std::string Want = "UUIDS " + hex(uuid(Device, CL_DEVICE_UUID_KHR)) + " " +
                           hex(uuid(Device, CL_DRIVER_UUID_KHR)) + "\n";
  EXPECT_NE(Output.find(Want), std::string::npos) << Output;
}

// cl_khr_spirv_queries: what every OpenCL device with SPIR-V must accept,
// and what this device's features bring, is listed; the lists answer as
// arrays of what they hold.
TEST_F(WithDevice, SpirvQueriesListWhatTheFeaturesNeed) {
  EXPECT_TRUE(splitWords(infoString(clGetDeviceInfo, Device, CL_DEVICE_EXTENSIONS))
                  .count("cl_khr_spirv_queries"));
  std::set<std::string> Sets, Extensions;
  for (const char *S : infoArray<const char *>(Device, CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR))
    Sets.insert(S);
  for (const char *S : infoArray<const char *>(Device, CL_DEVICE_SPIRV_EXTENSIONS_KHR))
    Extensions.insert(S);
  const std::vector<cl_uint> Caps = infoArray<cl_uint>(Device, CL_DEVICE_SPIRV_CAPABILITIES_KHR);
  const std::set<cl_uint> CapSet(Caps.begin(), Caps.end());
  EXPECT_EQ(CapSet.size(), Caps.size()) << "a capability listed twice";
  EXPECT_TRUE(Sets.count("OpenCL.std"));
  // Addresses, Linkage, Kernel, Vector16, Float16Buffer, Int64, Int16, Int8:
  // required of every full-profile device.
  for (cl_uint C : {4u, 5u, 6u, 7u, 8u, 11u, 22u, 39u})
    EXPECT_TRUE(CapSet.count(C)) << "capability " << C;
  // Images (ImageBasic, Image1D, Sampled1D, ImageBuffer, SampledBuffer,
  // LiteralSampler, ImageReadWrite), generic pointers, Groups, pipes,
  // device-side enqueue, SubgroupDispatch, Float64, Int64Atomics.
  for (cl_uint C : {13u, 44u, 43u, 47u, 46u, 20u, 14u, 38u, 18u, 17u, 19u, 58u, 10u, 12u})
    EXPECT_TRUE(CapSet.count(C)) << "capability " << C;
  // The sub-group families, and the rotate extension with its capability.
  for (cl_uint C : {61u, 62u, 63u, 64u, 65u, 66u, 67u, 6026u})
    EXPECT_TRUE(CapSet.count(C)) << "capability " << C;
  EXPECT_TRUE(Extensions.count("SPV_KHR_subgroup_rotate"));
  // Nothing the device does not offer: half arithmetic (Float16), mipmaps.
  EXPECT_FALSE(CapSet.count(9u));
  EXPECT_FALSE(CapSet.count(15u));
  // The 3.1 names are the same queries.
  EXPECT_EQ(infoArray<cl_uint>(Device, CL_DEVICE_SPIRV_CAPABILITIES), Caps);
}

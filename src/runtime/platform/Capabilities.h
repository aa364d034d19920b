// The feature table: everything the device reports about what it offers,
// in one place. clGetDeviceInfo and clGetPlatformInfo answer from it, the
// compiler defines exactly these extension and feature macros, and the
// entry points of optional features (images, pipes, SVM, device queues)
// check it. Turning a feature on is one change here plus the feature
// itself; the static_asserts at the end keep the lists and the
// capabilities saying the same thing.
#pragma once

#include "weft/Version.h"

#include "weft/OpenCLNames.h"

#include <cstddef>
#include <iterator>
#include <string_view>

namespace weft::rt {

struct NamedVersion {
  const char *Name;
  cl_version Version;
};

constexpr cl_version WeftVersion = CL_MAKE_VERSION(WEFT_VERSION_MAJOR, WEFT_VERSION_MINOR,
                                                   WEFT_VERSION_PATCH);

/// The OpenCL version the platform and device implement.
constexpr cl_version OpenCLVersion = CL_MAKE_VERSION(3, 1, 0);
/// CL_DEVICE_OPENCL_C_VERSION: the highest OpenCL C version before 3.0 the
/// device supports (OpenCLCVersions below).
constexpr const char *OpenCLCVersionText = "OpenCL C 2.0 Weft";

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
    {"cl_khr_subgroup_extended_types", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_ballot", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_shuffle", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_subgroup_rotate", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_intel_required_subgroup_size", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_spirv_queries", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_suggested_local_work_size", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_spirv_linkonce_odr", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_spirv_no_integer_wrap_decoration", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_expect_assume", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_depth_images", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_srgb_image_writes", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_extended_bit_ops", CL_MAKE_VERSION(1, 0, 0)},
    {"cl_khr_integer_dot_product", CL_MAKE_VERSION(2, 0, 0)},
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
    {"__opencl_c_pipes", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_images", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_read_write_images", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_3d_image_writes", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_device_enqueue", CL_MAKE_VERSION(3, 0, 0)},
    // cl_khr_integer_dot_product's (IntegerDotProduct below). A feature's
    // version is the OpenCL C version that introduced its macro (OpenCL
    // 3.0, CL_DEVICE_OPENCL_C_FEATURES): these are OpenCL C 3.0 features.
    {"__opencl_c_integer_dot_product_input_4x8bit", CL_MAKE_VERSION(3, 0, 0)},
    {"__opencl_c_integer_dot_product_input_4x8bit_packed", CL_MAKE_VERSION(3, 0, 0)},
};

/// Images and samplers (CL_DEVICE_IMAGE_SUPPORT and the image limits): host
/// memory that kernels read and write through the image built-ins
/// (src/builtins/Images.cl) and the host through rectangle copies
/// (Image.h). The sizes are the full profile's minimums raised to what a
/// CPU holds; any pitch and base address serve, so both alignments are one
/// pixel; a 1D image buffer may have up to 2^27 pixels.
struct ImageFeatures {
  bool Supported;
  size_t Max2DWidth, Max2DHeight;
  size_t Max3DWidth, Max3DHeight, Max3DDepth;
  size_t MaxBufferSize, MaxArraySize;
  cl_uint MaxReadArgs, MaxWriteArgs, MaxReadWriteArgs, MaxSamplers;
  cl_uint PitchAlignment, BaseAddressAlignment;
};
constexpr ImageFeatures Images{true, 16384, 16384, 2048, 2048, 2048, size_t(1) << 27, 2048,
                               128,  64,    64,    16,   1,    1};

/// Pipes (CL_DEVICE_PIPE_SUPPORT and the pipe limits): a lock-free ring in
/// the pipe's memory (PipeLayout.h) that the built-ins of
/// src/builtins/Pipes.cl drive. A reservation is a value, not a table entry,
/// so reservations are limited only by the pipe's capacity; the reported
/// limit is what a kernel may count on.
struct PipeFeatures {
  bool Supported;
  cl_uint MaxArgs, MaxActiveReservations, MaxPacketSize;
};
constexpr PipeFeatures Pipes{true, 16, 1u << 16, 1u << 20};

/// Shared virtual memory (CL_DEVICE_SVM_CAPABILITIES): host and device
/// share one address space, so every kind is natural (api/SvmApi.cpp), and
/// the atomics already synchronise across the whole process (below).
constexpr cl_device_svm_capabilities SvmCapabilities =
    CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
    CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;

/// Device-side enqueue (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES and the
/// device-queue limits): device queues are out-of-order (as the
/// specification requires) and may profile; a replaceable default. A
/// queue's size bounds the bytes of the children in flight on it
/// (runtime/commands/DeviceEnqueue.cpp: 256 per command plus its block's literal),
/// so the preferred size holds about 4,000 children waiting at once and the
/// largest about 250,000. Neither the number of device queues nor of
/// device events is a fixed table: both are heap objects, and the limits
/// reported are what the tests exercise, not a count refused beyond.
struct DeviceQueueFeatures {
  cl_device_device_enqueue_capabilities Capabilities;
  cl_command_queue_properties Properties; ///< CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES
  cl_uint PreferredSize, MaxSize, MaxQueues, MaxEvents;
};
constexpr DeviceQueueFeatures DeviceQueues{
    CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT,
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
    1u << 20,
    64u << 20,
    4,
    1u << 16};

/// CL_DEVICE_QUEUE_ON_HOST_PROPERTIES.
constexpr cl_command_queue_properties HostQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

/// Atomics: each is an instruction of the order asked for, synchronised
/// across the whole process, which covers every scope (AtomicPass).
constexpr cl_device_atomic_capabilities AtomicMemoryCapabilities =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
    CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
    CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
constexpr cl_device_atomic_capabilities AtomicFenceCapabilities =
    AtomicMemoryCapabilities | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;

/// Non-uniform work-groups, the generic address space and work-group
/// collectives (each also an OpenCL C feature below).
constexpr bool NonUniformWorkGroups = true;
constexpr bool GenericAddressSpace = true;
constexpr bool WorkGroupCollectives = true;

/// Sub-groups: the work-items of a group in linear-id order, cut into
/// sub-groups of the kernel's sub-group size (KernelDesc::SubGroupSize,
/// as many 32-bit lanes as the CPU's widest vectors hold), the last one
/// perhaps smaller; a sub-group runs in the lanes of one vector loop
/// (src/builtins/SubGroups.cl, WorkGroupLoopPass). The sub-groups of a
/// group take turns on one thread, a stretch between two sub-group syncs
/// each, and a loop that may wait for another work-item (one that leaves on
/// what an atomic or volatile read returned) has a sync in every
/// iteration (BarrierStatePass): a sub-group spinning on a flag lets the
/// others run, so sub-groups make independent forward progress.
constexpr bool SubGroupIndependentForwardProgress = true;

/// A kernel's sub-group size on a device whose widest vector registers are
/// SimdBytes wide (the compiler's default, KernelPipeline.cpp).
constexpr size_t defaultSubGroupSize(unsigned SimdBytes) {
  return SimdBytes >= 64 ? 16 : SimdBytes >= 32 ? 8 : 4;
}

/// CL_DEVICE_SUB_GROUP_SIZES_INTEL: the sizes a kernel may require
/// (cl_intel_required_subgroup_size's intel_reqd_sub_group_size, SPIR-V's
/// SubgroupSize execution mode). A sub-group of any of them runs in part
/// of a vector register or in several, on every CPU; each default size is
/// one of them. The largest is the collective scratch's (KernelAbi.h).
constexpr size_t SubGroupSizes[] = {4, 8, 16, 32, 64};

/// CL_DEVICE_MAX_WORK_GROUP_SIZE, and so the most work-items of a group in
/// any dimension: the compiler tells LLVM that a local size never exceeds
/// it (WorkGroupLoopPass), so that the work-item loops' counters provably
/// do not wrap, in an `int` either.
constexpr size_t MaxWorkGroupSize = 4096;

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

/// A SPIR-V capability: its name in the SPIR-V specification and its value.
struct SpirvCapability {
  const char *Name;
  cl_uint Value;
};

/// What the SPIR-V front end accepts beyond the core of the versions above
/// (cl_khr_spirv_queries: CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS,
/// _EXTENSIONS and _CAPABILITIES answer from these lists). A module that
/// imports another extended instruction set, declares another extension or
/// another capability is refused by SpirvFrontend::validate, so the
/// queries and the front end cannot disagree. Each entry is here because
/// the translator reads it and the device runs what it brings: images,
/// pipes, device-side enqueue, the generic address space, 64-bit atomics
/// and the sub-group families are all reported features; Float16 (half
/// arithmetic) waits for cl_khr_fp16, and NamedBarrier and PipeStorage
/// (OpenCL 2.2) are not offered.
constexpr const char *SpirvExtendedInstructionSets[] = {
    "OpenCL.std",
    // What clang -g and llvm-spirv emit for debug information: accepted,
    // and dropped (SpirvLowering.h, withoutDebugInfo).
    "OpenCL.DebugInfo.100",
};
constexpr const char *SpirvExtensions[] = {
    "SPV_KHR_subgroup_rotate",
    // LinkOnceODR linkage: LLVM's linkonce_odr, which clLinkProgram's
    // linker merges.
    "SPV_KHR_linkonce_odr",
    // NoSignedWrap/NoUnsignedWrap: LLVM's nsw/nuw flags.
    "SPV_KHR_no_integer_wrap_decoration",
    // cl_khr_extended_bit_ops and cl_khr_integer_dot_product
    // (SpirvBuiltinCalls.h).
    "SPV_KHR_bit_instructions",
    "SPV_KHR_integer_dot_product",
    // OpExpectKHR and OpAssumeTrueKHR: llvm.expect and llvm.assume.
    "SPV_KHR_expect_assume",
};
constexpr SpirvCapability SpirvCapabilities[] = {
    {"Addresses", 4},
    {"Linkage", 5},
    {"Kernel", 6},
    {"Vector16", 7},
    {"Float16Buffer", 8},
    {"Float64", 10},
    {"Int64", 11},
    {"Int64Atomics", 12},
    {"ImageBasic", 13},
    {"ImageReadWrite", 14},
    {"Pipes", 17},
    {"Groups", 18},
    {"DeviceEnqueue", 19},
    {"LiteralSampler", 20},
    {"Int16", 22},
    {"GenericPointer", 38},
    {"Int8", 39},
    {"Sampled1D", 43},
    {"Image1D", 44},
    {"SampledBuffer", 46},
    {"ImageBuffer", 47},
    {"SubgroupDispatch", 58},
    {"GroupNonUniform", 61},
    {"GroupNonUniformVote", 62},
    {"GroupNonUniformArithmetic", 63},
    {"GroupNonUniformBallot", 64},
    {"GroupNonUniformShuffle", 65},
    {"GroupNonUniformShuffleRelative", 66},
    {"GroupNonUniformClustered", 67},
    {"GroupNonUniformRotateKHR", 6026},
    {"BitInstructions", 6025},
    // Dot products of other integer vectors too (SpirvBuiltinCalls.h).
    {"DotProductInputAll", 6016},
    {"DotProductInput4x8Bit", 6017},
    {"DotProductInput4x8BitPacked", 6018},
    {"DotProduct", 6019},
    {"ExpectAssumeKHR", 5629},
};

/// OpenCL C versions the compiler accepts for this device.
constexpr NamedVersion OpenCLCVersions[] = {
    {"OpenCL C", CL_MAKE_VERSION(1, 0, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 1, 0)},
    {"OpenCL C", CL_MAKE_VERSION(1, 2, 0)},
    {"OpenCL C", CL_MAKE_VERSION(2, 0, 0)},
    {"OpenCL C", CL_MAKE_VERSION(3, 0, 0)},
    // Compiled as 3.0 with 3.1's version macros (ClangFrontend.cpp).
    {"OpenCL C", CL_MAKE_VERSION(3, 1, 0)},
};

/// Whether List names Name (for the consistency checks below).
template <size_t N>
constexpr bool listed(const NamedVersion (&List)[N], std::string_view Name) {
  for (const NamedVersion &E : List)
    if (Name == E.Name)
      return true;
  return false;
}

/// Whether List has a version of major number Major.
template <size_t N> constexpr bool hasMajorVersion(const NamedVersion (&List)[N], cl_uint Major) {
  for (const NamedVersion &E : List)
    if (CL_VERSION_MAJOR(E.Version) == Major)
      return true;
  return false;
}

// What the OpenCL C feature macros say must agree with the capabilities.
static_assert(listed(OpenCLCFeatures, "__opencl_c_images") == Images.Supported);
static_assert(listed(OpenCLCFeatures, "__opencl_c_read_write_images") ==
              (Images.Supported && Images.MaxReadWriteArgs > 0));
static_assert(listed(OpenCLCFeatures, "__opencl_c_pipes") == Pipes.Supported);
// OpenCL C 3.0: __opencl_c_pipes needs the generic address space.
static_assert(!Pipes.Supported || GenericAddressSpace);
static_assert(listed(OpenCLCFeatures, "__opencl_c_device_enqueue") ==
              (DeviceQueues.Capabilities != 0));
static_assert(listed(OpenCLCFeatures, "__opencl_c_generic_address_space") == GenericAddressSpace);
static_assert(listed(OpenCLCFeatures, "__opencl_c_work_group_collective_functions") ==
              WorkGroupCollectives);
static_assert(listed(OpenCLCFeatures, "__opencl_c_atomic_scope_all_devices") ==
              bool(AtomicMemoryCapabilities & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
static_assert(listed(OpenCLCFeatures, "__opencl_c_atomic_order_seq_cst") ==
              bool(AtomicMemoryCapabilities & CL_DEVICE_ATOMIC_ORDER_SEQ_CST));
static_assert(listed(DeviceExtensions, "cl_khr_3d_image_writes") <= Images.Supported);
static_assert(listed(DeviceExtensions, "cl_khr_depth_images") <= Images.Supported);
static_assert(listed(DeviceExtensions, "cl_khr_3d_image_writes") ==
              listed(OpenCLCFeatures, "__opencl_c_3d_image_writes"));
// SVM atomics are atomics that reach the host: memory_scope_all_svm_devices.
static_assert(!(SvmCapabilities & CL_DEVICE_SVM_ATOMICS) ||
              (AtomicMemoryCapabilities & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
// OpenCL C 2.0 requires images, pipes, SVM and device-side enqueue.
static_assert(!hasMajorVersion(OpenCLCVersions, 2) ||
              (Images.Supported && Pipes.Supported && SvmCapabilities != 0 &&
               DeviceQueues.Capabilities != 0));

// The SPIR-V lists follow the features: a capability is accepted exactly
// when what it brings is reported.
template <size_t N> constexpr bool hasCapability(const SpirvCapability (&List)[N], cl_uint V) {
  for (const SpirvCapability &C : List)
    if (C.Value == V)
      return true;
  return false;
}
template <size_t N>
constexpr bool hasName(const char *const (&List)[N], std::string_view Name) {
  for (const char *E : List)
    if (Name == E)
      return true;
  return false;
}
static_assert(hasCapability(SpirvCapabilities, 13 /* ImageBasic */) == Images.Supported);
static_assert(hasCapability(SpirvCapabilities, 14 /* ImageReadWrite */) ==
              listed(OpenCLCFeatures, "__opencl_c_read_write_images"));
static_assert(hasCapability(SpirvCapabilities, 17 /* Pipes */) == Pipes.Supported);
static_assert(hasCapability(SpirvCapabilities, 19 /* DeviceEnqueue */) ==
              (DeviceQueues.Capabilities != 0));
static_assert(hasCapability(SpirvCapabilities, 38 /* GenericPointer */) == GenericAddressSpace);
static_assert(hasCapability(SpirvCapabilities, 10 /* Float64 */) ==
              listed(DeviceExtensions, "cl_khr_fp64"));
static_assert(hasCapability(SpirvCapabilities, 12 /* Int64Atomics */) ==
              listed(DeviceExtensions, "cl_khr_int64_base_atomics"));
static_assert(hasCapability(SpirvCapabilities, 64 /* GroupNonUniformBallot */) ==
              listed(DeviceExtensions, "cl_khr_subgroup_ballot"));
static_assert(hasCapability(SpirvCapabilities, 6026 /* GroupNonUniformRotateKHR */) ==
              listed(DeviceExtensions, "cl_khr_subgroup_rotate"));
static_assert(hasName(SpirvExtensions, "SPV_KHR_subgroup_rotate") ==
              listed(DeviceExtensions, "cl_khr_subgroup_rotate"));
static_assert(hasName(SpirvExtensions, "SPV_KHR_expect_assume") ==
              listed(DeviceExtensions, "cl_khr_expect_assume"));
static_assert(hasCapability(SpirvCapabilities, 5629 /* ExpectAssumeKHR */) ==
              listed(DeviceExtensions, "cl_khr_expect_assume"));
static_assert(hasName(SpirvExtensions, "SPV_KHR_linkonce_odr") ==
              listed(DeviceExtensions, "cl_khr_spirv_linkonce_odr"));
static_assert(hasName(SpirvExtensions, "SPV_KHR_no_integer_wrap_decoration") ==
              listed(DeviceExtensions, "cl_khr_spirv_no_integer_wrap_decoration"));
static_assert(hasName(SpirvExtensions, "SPV_KHR_bit_instructions") ==
                  listed(DeviceExtensions, "cl_khr_extended_bit_ops") &&
              hasCapability(SpirvCapabilities, 6025 /* BitInstructions */) ==
                  listed(DeviceExtensions, "cl_khr_extended_bit_ops"));
static_assert(hasName(SpirvExtensions, "SPV_KHR_integer_dot_product") ==
                  listed(DeviceExtensions, "cl_khr_integer_dot_product") &&
              hasCapability(SpirvCapabilities, 6019 /* DotProduct */) ==
                  listed(DeviceExtensions, "cl_khr_integer_dot_product") &&
              hasCapability(SpirvCapabilities, 6018 /* DotProductInput4x8BitPacked */) ==
                  listed(OpenCLCFeatures, "__opencl_c_integer_dot_product_input_4x8bit_packed") &&
              hasCapability(SpirvCapabilities, 6017 /* DotProductInput4x8Bit */) ==
                  listed(OpenCLCFeatures, "__opencl_c_integer_dot_product_input_4x8bit"));

/// cl_khr_integer_dot_product (CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR):
/// the built-ins and SPIR-V instructions on 4-component vectors of 8-bit
/// integers and on such vectors packed into a uint
/// (src/builtins/IntegerDotProduct.cl); version 2 of the extension
/// requires both. Each is also an OpenCL C feature (OpenCLCFeatures).
constexpr cl_device_integer_dot_product_capabilities_khr IntegerDotProductCapabilities =
    CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
    CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR;
static_assert(listed(OpenCLCFeatures, "__opencl_c_integer_dot_product_input_4x8bit") ==
              bool(IntegerDotProductCapabilities & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
static_assert(listed(OpenCLCFeatures, "__opencl_c_integer_dot_product_input_4x8bit_packed") ==
              bool(IntegerDotProductCapabilities &
                   CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR));
// The extension requires the packed form, and its version 2 the unpacked.
static_assert(!listed(DeviceExtensions, "cl_khr_integer_dot_product") ||
              (bool(IntegerDotProductCapabilities &
                    CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR) &&
               bool(IntegerDotProductCapabilities & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR)));

// OpenCL 3.1 requires sub-groups, SPIR-V 1.0 to 1.4, OpenCL C 3.1 and the
// extensions it promoted (the appendix "Summary of Changes from OpenCL 3.0
// to OpenCL 3.1"; the CTS's get_device_info_31 checks the same).
constexpr bool openCL31Complete() {
  for (const char *E :
       {"cl_khr_spirv_queries", "cl_khr_extended_bit_ops", "cl_khr_suggested_local_work_size",
        "cl_khr_device_uuid", "cl_khr_integer_dot_product", "cl_khr_subgroup_extended_types",
        "cl_khr_subgroup_rotate", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative"})
    if (!listed(DeviceExtensions, E))
      return false;
  bool SpirV14 = false, OpenCLC31 = false;
  for (const NamedVersion &V : IntermediateLanguages)
    SpirV14 |= V.Version == CL_MAKE_VERSION(1, 4, 0);
  for (const NamedVersion &V : OpenCLCVersions)
    OpenCLC31 |= V.Version == CL_MAKE_VERSION(3, 1, 0);
  return SpirV14 && OpenCLC31 && listed(OpenCLCFeatures, "__opencl_c_subgroups") &&
         std::size(SubGroupSizes) > 0;
}
static_assert(OpenCLVersion < CL_MAKE_VERSION(3, 1, 0) || openCL31Complete());

} // namespace weft::rt

// The interface the runtime sees of the kernel compiler.
//
// Program objects hand OpenCL C source and build options to a
// ProgramCompiler and get back an Executable (which makes each kernel's
// work-group function at its first launch) plus a description of each
// kernel's arguments and attributes. Separate compilation (clCompileProgram,
// clLinkProgram) goes through compiled objects and libraries, which the
// runtime keeps as opaque bytes (LLVM bitcode, never parsed here). The
// implementation lives in src/compiler/ and is the only code that includes
// LLVM or Clang; the runtime depends on this header alone.
#pragma once

#include "runtime/Result.h"
#include "runtime/program/KernelAbi.h"

#include <array>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace weft::rt {

/// One kernel argument as the program declares it.
struct KernelArgDesc {
  ArgKind Kind = ArgKind::ByValue;
  /// Size in bytes of the value clSetKernelArg must be given (sizeof(cl_mem)
  /// for buffers, sizeof(cl_sampler) for samplers; 0 for __local pointers,
  /// whose size is the allocation size).
  size_t Size = 0;
  /// CL_KERNEL_ARG_ADDRESS_*, CL_KERNEL_ARG_ACCESS_*, CL_KERNEL_ARG_TYPE_*.
  cl_uint AddressQualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  cl_uint AccessQualifier = CL_KERNEL_ARG_ACCESS_NONE;
  /// The CL_MEM_OBJECT_IMAGE* an image argument takes; 0 for the others.
  cl_mem_object_type ImageType = 0;
  cl_bitfield TypeQualifier = CL_KERNEL_ARG_TYPE_NONE;
  std::string TypeName; ///< e.g. "float*", "float4", "struct S"
  std::string Name;     ///< empty unless built with -cl-kernel-arg-info
};

struct KernelDesc {
  std::string Name;
  std::vector<KernelArgDesc> Args;
  std::string Attributes; ///< CL_KERNEL_ATTRIBUTES text
  std::array<size_t, 3> ReqdWorkGroupSize{0, 0, 0};
  std::array<size_t, 3> WorkGroupSizeHint{0, 0, 0};
  /// The global size must be a multiple of the local size: OpenCL C 1.x
  /// kernels and kernels built with -cl-uniform-work-group-size.
  bool UniformWorkGroupSize = false;
  /// Bytes of static __local variables (at LocalMem + 0 .. this).
  size_t StaticLocalSize = 0;
  /// Bytes of per-work-item frame for barrier-crossing state (0 if the
  /// kernel has no barrier). The runtime provides FrameSize * work-items.
  size_t PrivateFrameSize = 0;
  /// Private memory of one work-item (CL_KERNEL_PRIVATE_MEM_SIZE).
  size_t PrivateMemSize = 0;
  /// The kernel calls printf: launches give it an output (KernelAbi.h).
  bool UsesPrintf = false;
  /// The kernel calls a sub-group function.
  bool UsesSubGroups = false;
  /// The kernel's sub-group size: its work-groups are made of sub-groups of
  /// this many consecutive work-items in linear-id order, the last one
  /// perhaps smaller (src/builtins/SubGroups.cl).
  uint32_t SubGroupSize = 1;
  /// The sub-group size the kernel requires (intel_reqd_sub_group_size),
  /// or 0 (CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL).
  uint32_t RequiredSubGroupSize = 0;
  /// The kernel Clang made for a block passed to enqueue_kernel: found by
  /// device-side enqueue, never by the application (clCreateKernel).
  bool Block = false;
  /// The kernel calls enqueue_kernel or another device-enqueue service:
  /// its launches carry an EnqueueScope (runtime/commands/DeviceEnqueue.h).
  bool UsesDeviceEnqueue = false;
  /// The kernel may wait for other work while it runs: it has an atomic
  /// operation, a fence, a volatile access or a call through a pointer (a
  /// device service: printf, device-side enqueue). A kernel without any
  /// cannot see another agent's writes while it runs, so a host thread may
  /// run it on the spot (KernelLaunch::RunNanos).
  bool MayWait = true;
  /// The kernel never asks for its group (local ids, group ids, local
  /// sizes, the number of groups), has no barrier, no __local memory, no
  /// sub-group function and no device-side enqueue: only its global ids
  /// tell its work-items apart. The device may run consecutive groups
  /// along x as one call (KernelLaunch::GroupFree).
  bool GroupFree = false;
  /// The bytes of the kernel's stores to __global memory, each counted once
  /// (a store in a loop too): what one work-item writes, roughly. A launch
  /// whose work-items write more than the last-level cache holds gets
  /// streaming stores (Specialization::Streaming).
  uint64_t GlobalStoreBytes = 0;
  /// Bit i set if argument i (i < 64) is a by-value integer that bounds a
  /// loop of the kernel or divides: launches that repeat its value get a
  /// copy compiled with it a constant (Specialization::Arguments).
  uint64_t ConditionArgs = 0;
};

/// The format of one image argument of a launch: what the descriptor
/// (ImageLayout.h) of the image it names holds.
struct ImageArgFormat {
  uint32_t Arg;         ///< the argument's index
  uint32_t Order, Type; ///< CL_R ..., CL_UNORM_INT8 ...
  uint32_t ElementSize; ///< bytes per pixel
  bool operator<(const ImageArgFormat &O) const {
    return std::tie(Arg, Order, Type, ElementSize) <
           std::tie(O.Arg, O.Order, O.Type, O.ElementSize);
  }
};

/// What one launch fixes that a work-group function can be compiled for
/// (Executable::specialize).
struct Specialization {
  /// The formats of the launch's image arguments (none: not fixed).
  std::vector<ImageArgFormat> Formats;
  /// The size of every work-group of the launch; zeros: not fixed (the
  /// groups differ, or the kernel would gain nothing).
  std::array<uint64_t, 3> LocalSize{0, 0, 0};
  /// With a local size: in every dimension the launch's global size is at
  /// most SmallIdLimit and its global offset below it, so every global id
  /// is below 2^31: an `int` holds it, and `int` arithmetic on a group's
  /// ids does not wrap between its work-items.
  bool SmallIds = false;
  static constexpr uint64_t SmallIdLimit = uint64_t(1) << 30;
  /// Whether a launch of these global sizes and offsets has SmallIds.
  static bool smallIds(const std::array<uint64_t, 3> &Global,
                       const std::array<uint64_t, 3> &Offset) {
    for (int D = 0; D < 3; ++D)
      if (Global[D] > SmallIdLimit || Offset[D] >= SmallIdLimit)
        return false;
    return true;
  }
  /// Streaming stores: the launch writes more than the last-level cache
  /// holds, so the whole vector stores to __global memory that its facts
  /// below show aligned bypass the caches (StreamingStores.h). Only for a
  /// kernel that cannot wait for other work (KernelDesc::MayWait false).
  bool Streaming = false;
  /// With Streaming: a power of two (1 to MaxItemAlign) that divides the
  /// enqueued local size and the global offset along x, as every
  /// work-group function call of the launch sees them; a group's first
  /// global id along x is then a multiple of it.
  uint32_t ItemAlign = 1;
  static constexpr uint32_t MaxItemAlign = 64;
  /// With Streaming: bit i set if argument i (i < 64) is a pointer the
  /// launch gives an address that is a multiple of PointerAlign.
  uint64_t AlignedArgs = 0;
  static constexpr uint32_t PointerAlign = 64;
  /// The values of the launch's KernelDesc::ConditionArgs (argument index,
  /// its bytes zero-extended), in index order; none: not fixed.
  std::vector<std::pair<uint32_t, uint64_t>> Arguments{};
  /// The most value sets of Arguments one kernel asks for.
  static constexpr size_t MaxArgumentSets = 4;
  bool empty() const {
    return Formats.empty() && LocalSize[0] == 0 && !Streaming && Arguments.empty();
  }
  bool operator<(const Specialization &O) const {
    return std::tie(Formats, LocalSize, SmallIds, Streaming, ItemAlign, AlignedArgs, Arguments) <
           std::tie(O.Formats, O.LocalSize, O.SmallIds, O.Streaming, O.ItemAlign, O.AlignedArgs,
                    O.Arguments);
  }
};

/// The machine code of a built program. Thread-safe; lives as long as any
/// kernel of the program. A kernel's code is generated at its first
/// launch, not at the build.
class Executable {
public:
  virtual ~Executable() = default;
  /// Whether the program has a kernel of that name (compiled or not).
  virtual bool defines(const std::string &KernelName) const = 0;
  /// The work-group function of a kernel, compiled at the first call;
  /// later calls return what the first did. CL_INVALID_KERNEL_NAME if the
  /// program has no such kernel; CL_INVALID_PROGRAM_EXECUTABLE, with the
  /// compiler's log, if its code cannot be generated.
  virtual Result<WorkGroupFn> lookup(const std::string &KernelName) = 0;
  /// Compiles now, several at once where the host has the cores, the
  /// kernels whose first launches would each compile one (an application
  /// that creates every kernel of a program will launch them); lookup()
  /// then returns what it would have. Nothing to do by default.
  virtual void compileAhead(const std::vector<std::string> &KernelNames) { (void)KernelNames; }
  /// The kernel's work-group function compiled for what S fixes: each
  /// image descriptor's format a constant (image accesses lose their
  /// branches on it), and the local size a constant (the work-item loops
  /// get constant trip counts). Image formats are compiled for at the
  /// first launch that asks; a local size only once launches have shown
  /// the kernel to be hot (JitExecutable::specialize). nullptr where the
  /// program cannot be specialized, or not yet (lookup()'s then serves).
  virtual WorkGroupFn specialize(const std::string &KernelName, const Specialization &S) {
    (void)KernelName;
    (void)S;
    return nullptr;
  }
};

/// Files a build read from disk (the headers -I made visible): each path
/// with a digest (SHA-256, hex) of the contents the build compiled.
using FileDigests = std::vector<std::pair<std::string, std::string>>;

struct BuildOutput {
  std::unique_ptr<Executable> Exe;
  std::vector<KernelDesc> Kernels;
  std::string Log; ///< diagnostics (warnings on success, errors on failure)
  /// Bytes of the program's variables in the global address space
  /// (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE). They live in Exe, so an
  /// executable with any is state of one program and must not be shared.
  size_t GlobalVariableSize = 0;
  /// From link() only: the linked objects before any device pass, which
  /// link() accepts again (what a linked executable's program binary holds).
  std::vector<unsigned char> Linked;
  /// Loaded from the on-disk kernel cache: no front end or code generation
  /// ran for this build.
  bool FromDiskCache = false;
  /// From buildSource() only: the files the front end read. A build reused
  /// later is the same build only while every one is unchanged.
  FileDigests Inputs;
};

/// A compiled object (clCompileProgram) or a library (clLinkProgram with
/// -create-library): bytes that only link() interprets.
struct ObjectOutput {
  std::vector<unsigned char> Bitcode;
  std::string Log;
};

struct BuildFailure {
  /// CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS,
  /// CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS,
  /// CL_LINK_PROGRAM_FAILURE or CL_INVALID_LINKER_OPTIONS.
  cl_int Code;
  std::string Log;
};

/// One of clCompileProgram's input_headers with its header_include_names
/// entry ("foo/bar.h" is found by #include "foo/bar.h").
struct EmbeddedHeader {
  std::string Name;
  std::string Source;
};

/// A program's SPIR-V (clCreateProgramWithIL) with the values set by
/// clSetProgramSpecializationConstant: SpecId -> the value's bits,
/// zero-extended.
struct IntermediateLanguage {
  std::vector<unsigned char> Bytes;
  std::map<uint32_t, uint64_t> SpecValues;
};

/// The instruction set kernels are compiled for: the host's, or the CPU the
/// WEFT_CPU environment variable names (docs/building.md). The device
/// reports its vector widths from it.
struct CodeTarget {
  std::string Cpu;         ///< the CPU's name as LLVM knows it ("generic" for an unknown host)
  unsigned SimdBytes = 16; ///< the widest vector register: 16, 32 or 64 bytes
  std::string IsaName;     ///< "avx512", "avx2", "avx", "sse4.2" or "sse2"
  /// Whether the compiler makes 8-bit dot products (dot, dot_acc_sat and
  /// their packed forms) the CPU's dot-product instructions.
  bool Int8DotProductInstructions = false;
  /// Why builds fail ("" when they can run): WEFT_CPU names a CPU the host
  /// cannot run, or the host is not supported. The fields above then
  /// describe the host.
  std::string Refused;
};

/// Compiles OpenCL C for the host CPU. Implementations must be thread-safe:
/// programs are built concurrently from several host threads.
class ProgramCompiler {
public:
  virtual ~ProgramCompiler() = default;

  /// Builds OpenCL C source with the build options of clBuildProgram.
  /// On failure returns the CL error code and the log; never aborts.
  virtual std::variant<BuildOutput, BuildFailure> buildSource(const std::string &Source,
                                                              const std::string &Options) = 0;

  /// Compiles OpenCL C source to an object with the compile options of
  /// clCompileProgram (the build options less the link-time ones).
  virtual std::variant<ObjectOutput, BuildFailure>
  compileSource(const std::string &Source, const std::string &Options,
                const std::vector<EmbeddedHeader> &Headers) = 0;

  /// "" if IL is a SPIR-V module this compiler reads, else why it is not
  /// (clCreateProgramWithIL then fails with CL_INVALID_VALUE).
  virtual std::string checkIL(const std::vector<unsigned char> &IL) = 0;
  /// The specialization constants of a module checkIL accepted: SpecId ->
  /// size in bytes.
  virtual std::map<uint32_t, uint32_t> ilSpecConstants(const std::vector<unsigned char> &IL) = 0;
  /// Builds SPIR-V like buildSource builds OpenCL C. BuildOutput::Linked
  /// holds the translated module, which link() accepts again.
  virtual std::variant<BuildOutput, BuildFailure> buildIL(const IntermediateLanguage &IL,
                                                          const std::string &Options) = 0;
  /// Compiles SPIR-V to an object, like compileSource.
  virtual std::variant<ObjectOutput, BuildFailure> compileIL(const IntermediateLanguage &IL,
                                                             const std::string &Options) = 0;

  /// Links objects and libraries with the options of clLinkProgram: a
  /// library (ObjectOutput) with -create-library, else an executable.
  virtual std::variant<BuildOutput, ObjectOutput, BuildFailure>
  link(const std::vector<std::vector<unsigned char>> &Objects, const std::string &Options) = 0;

  /// Whether every file still has the contents its digest records (what
  /// makes a build of the same source and options the same build).
  virtual bool inputsUnchanged(const FileDigests &Inputs) = 0;

  /// What kernels are compiled for.
  virtual CodeTarget target() = 0;

  /// The process-wide compiler for the host CPU.
  static ProgramCompiler &get();
};

} // namespace weft::rt

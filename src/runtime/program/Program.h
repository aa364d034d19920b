// Program objects: OpenCL C source, its build options, and per build the
// compiled executable and the description of each kernel. A program is also
// what separate compilation produces: clCompileProgram turns its source into
// a compiled object, clLinkProgram makes a new program (a library or an
// executable) from objects and libraries. Objects and libraries are opaque
// bytes here (runtime/program/ProgramCompiler.h).
#pragma once

#include "runtime/Object.h"
#include "runtime/platform/Context.h"
#include "runtime/program/ProgramCompiler.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft::rt {

class Device;

class Program : public Object<_cl_program, HandleKind::Program> {
public:
  Program(Context &Ctx, std::string Source);

  /// A program from a binary of ours (see serializeBinary); fails with
  /// CL_INVALID_BINARY for anything else.
  static Result<Ref<Program>> fromBinary(Context &Ctx, const unsigned char *Data, size_t Size);
  /// The program binary: a versioned container of the binary type, the
  /// source and options of a built executable (rebuilt on clBuildProgram),
  /// and the bitcode of an object, a library or a linked executable.
  std::vector<unsigned char> serializeBinary() const;
  bool createdFromBinary() const { return From == ProgramOrigin::Binary; }
  bool createdFromSource() const { return From == ProgramOrigin::Source; }

  /// A program from SPIR-V; fails with CL_INVALID_VALUE for anything the
  /// compiler does not accept as a valid module.
  static Result<Ref<Program>> fromIL(Context &Ctx, const unsigned char *Data, size_t Size);
  bool createdFromIL() const { return From == ProgramOrigin::IL; }
  /// CL_PROGRAM_IL: the SPIR-V the program was created with (else empty).
  const std::vector<unsigned char> &il() const { return IL.Bytes; }
  /// clSetProgramSpecializationConstant: CL_INVALID_OPERATION unless made
  /// from IL, CL_INVALID_SPEC_ID for an id the module lacks,
  /// CL_INVALID_VALUE for a size other than the constant's.
  Status setSpecConstant(cl_uint Id, size_t Size, const void *Value);

  /// The outcome of link(): the new program (null only when the options
  /// were invalid) and the status of the link. A failed link still makes a
  /// program, in CL_BUILD_ERROR, whose log tells why.
  struct LinkResult {
    Ref<Program> Linked;
    Status LinkStatus;
  };
  /// Links compiled objects and libraries (every input must be one) into a
  /// new program of Ctx: a library with -create-library, else an executable.
  static LinkResult link(Context &Ctx, const std::string &Options,
                         const std::vector<Ref<Program>> &Inputs);

  Context &context() const { return *Ctx; }
  const std::string &source() const { return Source; }

  /// Builds for the context's devices (one device today). Fails with
  /// CL_INVALID_OPERATION while kernels are attached.
  Status build(const std::string &Options);
  /// Compiles the source to a compiled object, with Headers visible to
  /// #include. Fails with CL_INVALID_OPERATION while kernels are attached.
  Status compile(const std::string &Options, const std::vector<EmbeddedHeader> &Headers);

  cl_build_status buildStatus() const;
  std::string buildLog() const;
  std::string buildOptions() const;
  /// CL_PROGRAM_BINARY_TYPE: what the program holds (NONE before any
  /// successful compile, link or build, and after a failed one).
  cl_program_binary_type binaryType() const;
  /// True once the program holds an executable that kernels can use.
  bool isBuilt() const;
  /// True for a compiled object or a library: an input of link().
  bool isLinkable() const;

  /// Kernels of the last successful build (empty before).
  std::vector<KernelDesc> kernels() const;
  /// The block kernels of the last build (device-side enqueue finds them;
  /// kernels() leaves them out).
  std::vector<KernelDesc> blockKernels() const;
  /// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE of the last build.
  size_t globalVariableSize() const;
  /// The executable of the last successful build, shared by its kernels.
  std::shared_ptr<Executable> executable() const;

  void attachKernel() { ++AttachedKernels; }
  void detachKernel() { --AttachedKernels; }

private:
  enum class ProgramOrigin { Source, Binary, Link, IL };

  /// Starts a compile, build or link: the checks they share.
  Status begin(const std::string &Opts);
  /// Records a failed compile, build or link.
  Status fail(cl_int Code, const std::string &Why, std::string FailLog);
  /// Builds from the bitcode of a binary (object, library or linked
  /// executable) by linking it alone.
  Status buildFromBitcode();
  /// Records a successful build (Mutex held): Ok's executable and kernels,
  /// and Code as what the program binary carries.
  void succeed(BuildOutput &Ok, std::vector<unsigned char> Code);
  /// Builds the SPIR-V with the specialization constants set so far.
  Status buildFromIL(const std::string &Opts);
  /// The kernels of the last build that are (or are not) block kernels.
  std::vector<KernelDesc> kernelsWhereBlock(bool Block) const;

  Ref<Context> Ctx;
  std::string Source;
  IntermediateLanguage IL;
  std::map<uint32_t, uint32_t> SpecConstantSizes;
  ProgramOrigin From = ProgramOrigin::Source;
  mutable std::mutex Mutex;
  cl_build_status BuildStatus = CL_BUILD_NONE;
  cl_program_binary_type BinaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  /// Compiled object or library; for a linked executable, what it was
  /// linked from (so that its binary can be linked again).
  std::vector<unsigned char> Bitcode;
  std::string Log;
  std::string Options; ///< of the last build, compile or link (CL_PROGRAM_BUILD_OPTIONS)
  /// The options the source was compiled with (what the program's binary
  /// carries): a program made from an executable's binary compiles its
  /// source with them again, whatever clBuildProgram is given.
  std::string SourceOptions;
  std::shared_ptr<Executable> Exe;
  std::vector<KernelDesc> Kernels;
  size_t GlobalVariableSize = 0;
  std::atomic<int> AttachedKernels{0};
};

} // namespace weft::rt

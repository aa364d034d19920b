// Program objects: OpenCL C source, its build options, and per build the
// compiled executable and the description of each kernel.
#pragma once

#include "runtime/Context.h"
#include "runtime/Object.h"
#include "runtime/ProgramCompiler.h"

#include <atomic>
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
  /// The program binary: today a versioned container of the source and the
  /// options it was built with, rebuilt on clBuildProgram.
  std::vector<unsigned char> serializeBinary() const;
  bool createdFromBinary() const { return FromBinary; }

  Context &context() const { return *Ctx; }
  const std::string &source() const { return Source; }

  /// Builds for the context's devices (one device today). Fails with
  /// CL_INVALID_OPERATION while kernels are attached.
  Status build(const std::string &Options);

  cl_build_status buildStatus() const;
  std::string buildLog() const;
  std::string buildOptions() const;
  bool isBuilt() const { return buildStatus() == CL_BUILD_SUCCESS; }

  /// Kernels of the last successful build (empty before).
  std::vector<KernelDesc> kernels() const;
  /// The executable of the last successful build, shared by its kernels.
  std::shared_ptr<Executable> executable() const;

  void attachKernel() { ++AttachedKernels; }
  void detachKernel() { --AttachedKernels; }

private:
  Ref<Context> Ctx;
  std::string Source;
  bool FromBinary = false;
  mutable std::mutex Mutex;
  cl_build_status BuildStatus = CL_BUILD_NONE;
  std::string Log;
  std::string Options;
  std::shared_ptr<Executable> Exe;
  std::vector<KernelDesc> Kernels;
  std::atomic<int> AttachedKernels{0};
};

} // namespace weft::rt

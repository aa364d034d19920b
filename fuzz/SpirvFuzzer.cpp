// Fuzz harness: SPIR-V -> clCreateProgramWithIL and, if accepted,
// clBuildProgram, every kernel created and compiled. The module goes through Weft's
// own SPIR-V lowering and validation before the translator, and the
// translator (which asserts on what it cannot decode) runs under crash
// recovery: a malformed module must come back as CL_INVALID_VALUE or a
// build failure, never a crash.
//
// Input: one byte choosing the build options, then the module.
#include "FuzzCommon.h"

using namespace weft::fuzz;

namespace {
const char *const Options[] = {"", "-cl-opt-disable", "-cl-fast-relaxed-math",
                               "-cl-kernel-arg-info"};
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  target();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const Target &T = target();
  Bytes In(Data, Size);
  const char *Opts = In.pick(Options);
  const std::string Module = In.rest();
  cl_int Err;
  cl_program P = clCreateProgramWithIL(T.Context, Module.data(), Module.size(), &Err);
  if (!P)
    return 0;
  // A launch on no work-item compiles a kernel (code generation waits for
  // its first launch) and runs nothing.
  if (clBuildProgram(P, 1, &T.Device, Opts, nullptr, nullptr) == CL_SUCCESS)
    launchEveryKernel(P, 0);
  clReleaseProgram(P);
  return 0;
}

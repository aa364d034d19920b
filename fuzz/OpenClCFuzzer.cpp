// Fuzz harness: OpenCL C source -> clBuildProgram, then every kernel created,
// its arguments set (buffers, __local sizes, zeroed by-value bytes, pipes)
// and launched on no work-item, which compiles it. With
// WEFT_FUZZ_RUN_KERNELS=1 each kernel runs on four work-items over 64 KiB
// buffers instead; that is off in the short CI run, because
// a mutated kernel may itself loop forever or write out of bounds (the
// kernel's fault, not Weft's: docs/robustness.md), which a long run triages
// by hand.
//
// Input: one byte choosing the build options, then the source. Every
// outcome is fine except a crash, a hang or a sanitizer report.
#include "FuzzCommon.h"

using namespace weft::fuzz;

namespace {

const char *const Options[] = {
    "",
    "-cl-std=CL3.0",
    "-cl-std=CL1.2",
    "-cl-std=CL3.0 -cl-fast-relaxed-math",
    "-cl-opt-disable",
    "-cl-std=CL3.0 -cl-kernel-arg-info",
    "-cl-mad-enable -DN=4 -Werror",
    "-cl-std=CL3.0 -cl-uniform-work-group-size -cl-denorms-are-zero",
};

bool RunKernels = false;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *Run = std::getenv("WEFT_FUZZ_RUN_KERNELS");
  RunKernels = Run && *Run == '1';
  target();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const Target &T = target();
  Bytes In(Data, Size);
  const char *Opts = In.pick(Options);
  const std::string Source = In.rest();
  const char *Src = Source.c_str();
  const size_t Length = Source.size();
  cl_int Err;
  cl_program P = clCreateProgramWithSource(T.Context, 1, &Src, &Length, &Err);
  if (!P)
    return 0;
  if (clBuildProgram(P, 1, &T.Device, Opts, nullptr, nullptr) == CL_SUCCESS) {
    // Four work-items with WEFT_FUZZ_RUN_KERNELS=1; otherwise none, which
    // still compiles each kernel (code generation waits for its first
    // launch).
    launchEveryKernel(P, RunKernels ? 4 : 0);
  } else {
    // The log of a failed build must be readable.
    size_t LogSize = 0;
    clGetProgramBuildInfo(P, T.Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &LogSize);
    std::vector<char> Log(LogSize + 1);
    clGetProgramBuildInfo(P, T.Device, CL_PROGRAM_BUILD_LOG, LogSize, Log.data(), nullptr);
  }
  clReleaseProgram(P);
  return 0;
}

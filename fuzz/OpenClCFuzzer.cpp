// Fuzz harness: OpenCL C source -> clBuildProgram, then every kernel created
// and its arguments set (buffers, __local sizes, zeroed by-value bytes,
// pipes). With WEFT_FUZZ_RUN_KERNELS=1 each kernel also runs on four
// work-items over 64 KiB buffers; that is off in the short CI run, because
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

constexpr size_t BufferSize = 64 * 1024;

bool RunKernels = false;

/// Gives argument I of K a value of its kind; false if Weft has none to
/// give (an image or sampler) or every size was refused.
bool setArg(cl_kernel K, cl_uint I, cl_mem Buffer, cl_mem Pipe) {
  cl_kernel_arg_address_qualifier Address = 0;
  cl_kernel_arg_type_qualifier Type = 0;
  clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(Address), &Address, nullptr);
  clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(Type), &Type, nullptr);
  if (Type & CL_KERNEL_ARG_TYPE_PIPE)
    return clSetKernelArg(K, I, sizeof(cl_mem), &Pipe) == CL_SUCCESS;
  if (Address == CL_KERNEL_ARG_ADDRESS_LOCAL)
    return clSetKernelArg(K, I, 1024, nullptr) == CL_SUCCESS;
  if (clSetKernelArg(K, I, sizeof(cl_mem), &Buffer) == CL_SUCCESS)
    return true;
  // A by-value argument of a size we do not know: the first one taken.
  static const unsigned char Zeros[1024] = {};
  for (size_t Size = 1; Size <= sizeof(Zeros); ++Size)
    if (clSetKernelArg(K, I, Size, Zeros) == CL_SUCCESS)
      return true;
  return false;
}

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
    std::vector<cl_kernel> Kernels = createKernels(P);
    if (!Kernels.empty()) {
      cl_mem Buffer = clCreateBuffer(T.Context, CL_MEM_READ_WRITE, BufferSize, nullptr, &Err);
      cl_mem Pipe = clCreatePipe(T.Context, 0, 16, 64, nullptr, &Err);
      static const unsigned char Zero = 0;
      clEnqueueFillBuffer(T.Queue, Buffer, &Zero, 1, 0, BufferSize, 0, nullptr, nullptr);
      for (cl_kernel K : Kernels) {
        cl_uint Args = 0;
        clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof(Args), &Args, nullptr);
        bool AllSet = true;
        for (cl_uint I = 0; I < Args && AllSet; ++I)
          AllSet = setArg(K, I, Buffer, Pipe);
        if (AllSet && RunKernels) {
          const size_t Global = 4;
          clEnqueueNDRangeKernel(T.Queue, K, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr);
          clFinish(T.Queue);
        }
        clReleaseKernel(K);
      }
      clFinish(T.Queue);
      clReleaseMemObject(Pipe);
      clReleaseMemObject(Buffer);
    }
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

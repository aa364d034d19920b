// What every fuzz harness shares: the Weft platform's device with one
// context and one in-order queue, made once per process (LLVMFuzzerInitialize
// time), reached through the ICD loader like any application's. A harness
// that cannot find Weft stops the fuzzer at once: a fuzzer that silently
// tested nothing would be worse than none.
#pragma once

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace weft::fuzz {

struct Target {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
};

inline const Target &target() {
  static const Target T = [] {
    // A kernel cache entry for every mutant would fill the disk.
    setenv("WEFT_CACHE_DIR", "off", 1);
    Target T;
    cl_uint N = 0;
    clGetPlatformIDs(0, nullptr, &N);
    std::vector<cl_platform_id> Ps(N);
    if (N)
      clGetPlatformIDs(N, Ps.data(), nullptr);
    for (cl_platform_id P : Ps) {
      char Name[64] = {};
      clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
      if (std::string(Name) == "Weft")
        T.Platform = P;
    }
    cl_int Err = CL_SUCCESS;
    if (T.Platform)
      Err = clGetDeviceIDs(T.Platform, CL_DEVICE_TYPE_CPU, 1, &T.Device, nullptr);
    if (T.Device)
      T.Context = clCreateContext(nullptr, 1, &T.Device, nullptr, nullptr, &Err);
    if (T.Context)
      T.Queue = clCreateCommandQueueWithProperties(T.Context, T.Device, nullptr, &Err);
    if (!T.Queue) {
      std::fprintf(stderr, "weft fuzz: no Weft platform (is OCL_ICD_VENDORS set?)\n");
      std::exit(2);
    }
    return T;
  }();
  return T;
}

/// The kernels of a built program (none if they cannot be created); the
/// caller releases them.
inline std::vector<cl_kernel> createKernels(cl_program P) {
  cl_uint Count = 0;
  clCreateKernelsInProgram(P, 0, nullptr, &Count);
  std::vector<cl_kernel> Kernels(Count);
  if (Count && clCreateKernelsInProgram(P, Count, Kernels.data(), nullptr) != CL_SUCCESS)
    Kernels.clear();
  return Kernels;
}

/// Gives argument I of K a value of its kind; false if Weft has none to
/// give (an image or sampler) or every size was refused.
inline bool setArg(cl_kernel K, cl_uint I, cl_mem Buffer, cl_mem Pipe) {
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

/// Creates every kernel of the built program P, sets its arguments
/// (setArg, over a zeroed 64 KiB buffer) and launches it on Global
/// work-items, 0 included; a kernel whose arguments cannot all be set is
/// only created.
inline void launchEveryKernel(cl_program P, size_t Global) {
  const Target &T = target();
  std::vector<cl_kernel> Kernels = createKernels(P);
  if (Kernels.empty())
    return;
  constexpr size_t BufferSize = 64 * 1024;
  cl_int Err;
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
    if (AllSet) {
      clEnqueueNDRangeKernel(T.Queue, K, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr);
      clFinish(T.Queue);
    }
    clReleaseKernel(K);
  }
  clFinish(T.Queue);
  clReleaseMemObject(Pipe);
  clReleaseMemObject(Buffer);
}

/// Reads the input front to back; past its end every read is 0, so a
/// short input is still a whole (small) program of calls.
class Bytes {
public:
  Bytes(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  bool empty() const { return At >= Size; }
  uint8_t byte() { return At < Size ? Data[At++] : 0; }
  uint32_t u32() {
    uint32_t V = 0;
    for (int I = 0; I < 4; ++I)
      V |= uint32_t(byte()) << (8 * I);
    return V;
  }
  /// A size biased to the edges an API checks: 0, 1, powers of two and
  /// their neighbours, multiples of 4, and anything up to Max.
  size_t size(size_t Max) {
    switch (byte() % 8) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2: {
      size_t P = size_t(1) << (byte() % 20);
      return P <= Max ? P : Max;
    }
    case 3: {
      size_t P = (size_t(1) << (byte() % 20)) + 1;
      return P <= Max ? P : Max;
    }
    case 4:
      return Max;
    case 5:
      return Max + 1 + byte(); // just past it
    case 6:
      return (u32() % (Max / 4 + 1)) * 4;
    default:
      return u32() % (Max + 1);
    }
  }
  /// One of Choices, by the next byte.
  template <typename T, size_t N> T pick(const T (&Choices)[N]) { return Choices[byte() % N]; }
  /// The rest of the input.
  std::string rest() {
    std::string S(reinterpret_cast<const char *>(Data + At), At < Size ? Size - At : 0);
    At = Size;
    return S;
  }

private:
  const uint8_t *Data;
  size_t Size;
  size_t At = 0;
};

} // namespace weft::fuzz

// Fixtures for API tests. Tests are plain OpenCL host code: they link the
// system ICD loader, and the loader finds this build's libweft.so through
// OCL_ICD_VENDORS (set by CTest). Each fixture layer adds one object.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace weft::test {

#ifdef WEFT_TEST_SPIRV_DIR
/// The SPIR-V module the build made of tests/api/spirv/<Name without .spv>.
inline std::vector<unsigned char> readSpirv(const char *Name) {
  std::ifstream In(std::string(WEFT_TEST_SPIRV_DIR) + "/" + Name, std::ios::binary);
  EXPECT_TRUE(In.good()) << Name;
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(In), {});
}
#endif

/// The Weft platform and its CPU device.
class WithDevice : public ::testing::Test {
protected:
  void SetUp() override {
    cl_uint Num = 0;
    ASSERT_EQ(clGetPlatformIDs(0, nullptr, &Num), CL_SUCCESS);
    std::vector<cl_platform_id> Ps(Num);
    ASSERT_EQ(clGetPlatformIDs(Num, Ps.data(), nullptr), CL_SUCCESS);
    for (cl_platform_id P : Ps) {
      char Name[64] = {};
      clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
      if (std::string(Name) == "Weft")
        Platform = P;
    }
    ASSERT_NE(Platform, nullptr) << "Weft platform not found (OCL_ICD_VENDORS?)";
    ASSERT_EQ(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_CPU, 1, &Device, nullptr), CL_SUCCESS);
  }
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
};

class WithContext : public WithDevice {
protected:
  void SetUp() override {
    WithDevice::SetUp();
    cl_int Err;
    Context = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
  }
  void TearDown() override {
    if (Context) {
      EXPECT_EQ(clReleaseContext(Context), CL_SUCCESS);
    }
  }
  cl_context Context = nullptr;
};

class WithQueue : public WithContext {
protected:
  void SetUp() override {
    WithContext::SetUp();
    cl_int Err;
    cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    Queue = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
  }
  void TearDown() override {
    if (Queue) {
      EXPECT_EQ(clFinish(Queue), CL_SUCCESS);
    }
    for (cl_kernel K : OwnedKernels)
      EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
    for (cl_program P : OwnedPrograms)
      EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
    for (cl_mem M : OwnedMems)
      EXPECT_EQ(clReleaseMemObject(M), CL_SUCCESS);
    if (Queue) {
      EXPECT_EQ(clReleaseCommandQueue(Queue), CL_SUCCESS);
    }
    WithContext::TearDown();
  }

  /// A buffer of the fixture's context, released at TearDown.
  cl_mem buffer(size_t Size, cl_mem_flags Flags = CL_MEM_READ_WRITE, void *HostPtr = nullptr) {
    cl_int Err;
    cl_mem M = clCreateBuffer(Context, Flags, Size, HostPtr, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    if (M)
      OwnedMems.push_back(M);
    return M;
  }

  /// Builds Source and creates its kernel Name; both released at TearDown.
  cl_kernel kernel(const std::string &Source, const char *Name, const char *Options = "") {
    cl_program P = build(Source, Options);
    OwnedPrograms.push_back(P);
    return kernelOf(P, Name);
  }

  /// Kernel Name of the built program P, released at TearDown.
  cl_kernel kernelOf(cl_program P, const std::string &Name) {
    cl_int Err;
    cl_kernel K = clCreateKernel(P, Name.c_str(), &Err);
    EXPECT_EQ(Err, CL_SUCCESS) << Name;
    if (K)
      OwnedKernels.push_back(K);
    return K;
  }

  /// Reads Count elements of T from the start of M (blocking).
  template <typename T> std::vector<T> read(cl_mem M, size_t Count) {
    std::vector<T> Out(Count);
    EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, Count * sizeof(T), Out.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    return Out;
  }

  /// Builds Source (asserting success) and returns the program.
  cl_program build(const std::string &Source, const char *Options = "") {
    const char *Src = Source.c_str();
    cl_int Err;
    cl_program P = clCreateProgramWithSource(Context, 1, &Src, nullptr, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    Err = clBuildProgram(P, 1, &Device, Options, nullptr, nullptr);
    EXPECT_EQ(Err, CL_SUCCESS) << buildLog(P);
    return P;
  }
  std::string buildLog(cl_program P) {
    size_t Size = 0;
    clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, Size, Log.data(), nullptr);
    if (!Log.empty() && Log.back() == '\0')
      Log.pop_back();
    return Log;
  }
  cl_command_queue Queue = nullptr;
  std::vector<cl_mem> OwnedMems;
  std::vector<cl_program> OwnedPrograms;
  std::vector<cl_kernel> OwnedKernels;
};

/// A queue plus SVM allocations, freed (after the queue finished) at
/// TearDown.
class WithSvm : public WithQueue {
protected:
  void TearDown() override {
    if (Queue) {
      EXPECT_EQ(clFinish(Queue), CL_SUCCESS);
    }
    for (void *P : OwnedSvm)
      clSVMFree(Context, P);
    WithQueue::TearDown();
  }
  /// An SVM allocation of Bytes bytes, freed at TearDown.
  template <typename T = char>
  T *alloc(size_t Bytes, cl_svm_mem_flags Flags = CL_MEM_READ_WRITE, cl_uint Alignment = 0) {
    void *P = clSVMAlloc(Context, Flags, Bytes, Alignment);
    EXPECT_NE(P, nullptr);
    if (P)
      OwnedSvm.push_back(P);
    return static_cast<T *>(P);
  }
  std::vector<void *> OwnedSvm;
};

/// A kernel several tests enqueue: data[i] += amount.
inline const char *AddSource = R"CLC(
__kernel void add(__global int *data, int amount) {
  data[get_global_id(0)] += amount;
}
)CLC";

/// A string-valued info query.
template <typename F, typename H, typename P> std::string infoString(F Fn, H Handle, P Param) {
  size_t Size = 0;
  EXPECT_EQ(Fn(Handle, Param, 0, nullptr, &Size), CL_SUCCESS);
  std::string S(Size, '\0');
  EXPECT_EQ(Fn(Handle, Param, Size, S.data(), nullptr), CL_SUCCESS);
  if (!S.empty() && S.back() == '\0')
    S.pop_back();
  return S;
}

/// A fixed-size info query: checks the reported size and returns the value.
template <typename T, typename F, typename H, typename P> T info(F Fn, H Handle, P Param) {
  T Value{};
  size_t Size = 0;
  EXPECT_EQ(Fn(Handle, Param, sizeof(T), &Value, &Size), CL_SUCCESS);
  EXPECT_EQ(Size, sizeof(T));
  return Value;
}

/// CL_EVENT_COMMAND_EXECUTION_STATUS of E.
inline cl_int statusOf(cl_event E) {
  return info<cl_int>(clGetEventInfo, E, CL_EVENT_COMMAND_EXECUTION_STATUS);
}

/// Reinterprets a handle as another handle type, to check that every entry
/// point rejects an object of the wrong kind with its own invalid-handle code.
template <typename To, typename From> To wrongHandle(From H) { return reinterpret_cast<To>(H); }

} // namespace weft::test

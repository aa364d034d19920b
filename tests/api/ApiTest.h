// Fixtures for API tests. Tests are plain OpenCL host code: they link the
// system ICD loader, and the loader finds this build's libweft.so through
// OCL_ICD_VENDORS (set by CTest). Each fixture layer adds one object.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace weft::test {

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
      EXPECT_EQ(clReleaseCommandQueue(Queue), CL_SUCCESS);
    }
    WithContext::TearDown();
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
    return Log;
  }
  cl_command_queue Queue = nullptr;
};

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

} // namespace weft::test

// cl_khr_expect_assume: reported, its macro defined for OpenCL C, and
// __builtin_expect/__builtin_assume (OpenCL C) and OpExpectKHR/
// OpAssumeTrueKHR (SPIR-V) run as the hints they are: the results are
// the kernel's without them.
#include "ApiTest.h"

using namespace weft::test;

namespace {

const char *Source = R"CLC(
#ifndef cl_khr_expect_assume
#error cl_khr_expect_assume is not defined
#endif
kernel void hinted(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  __builtin_assume(v >= 0);
  if (__builtin_expect(v > 1000, 0))
    out[i] = -v;
  else
    out[i] = v * 3 + 1;
}
)CLC";

class ExpectAssume : public WithQueue {};

} // namespace

TEST_F(ExpectAssume, Reported) {
  std::string Ext(8192, '\0');
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, Ext.size(), Ext.data(), nullptr),
            CL_SUCCESS);
  EXPECT_NE(Ext.find("cl_khr_expect_assume"), std::string::npos);
}

TEST_F(ExpectAssume, OpenCLCHintsKeepTheResults) {
  cl_kernel K = kernel(Source, "hinted", "-cl-std=CL3.0");
  ASSERT_NE(K, nullptr);
  const size_t N = 4096;
  std::vector<cl_int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = cl_int((I * 37) % 1500); // a third above the expected range
  cl_mem A = buffer(N * sizeof(cl_int), CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, In.data());
  cl_mem B = buffer(N * sizeof(cl_int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &B), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_int> Got = read<cl_int>(B, N);
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(Got[I], In[I] > 1000 ? -In[I] : In[I] * 3 + 1) << I;
}

// The module also builds a vector from non-constant parts and shuffles
// vectors of different lengths (see expect_assume.spvasm).
TEST_F(ExpectAssume, SpirvHintsKeepTheResults) {
  const std::vector<unsigned char> IL = readSpirv("expect_assume.spv");
  cl_int Err;
  cl_program P = clCreateProgramWithIL(Context, IL.data(), IL.size(), &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(P);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_kernel K = clCreateKernel(P, "expect_assume", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  const size_t N = 300;
  cl_mem Out = buffer(N * 4 * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_uint> Got = read<cl_uint>(Out, 4 * N);
  for (cl_uint I = 0; I < N; ++I) {
    EXPECT_EQ(Got[4 * I], I);
    EXPECT_EQ(Got[4 * I + 1], 11u);
    EXPECT_EQ(Got[4 * I + 2], I + 1);
    EXPECT_EQ(Got[4 * I + 3], 7u);
  }
}

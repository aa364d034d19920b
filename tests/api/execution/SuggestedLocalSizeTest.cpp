// cl_khr_suggested_local_work_size (core in OpenCL 3.1): the suggestion is
// the local size a launch with a NULL local_work_size runs, legal for the
// kernel, and bad input gets the extension's error codes.
#include "ApiTest.h"
#include "weft/OpenCLNames.h"

using namespace weft::test;

namespace {

const char *Source = R"CLC(
kernel void sizes(global uint *out, local uint *scratch) {
  if (get_global_id(0) == get_global_offset(0) && get_global_id(1) == get_global_offset(1) &&
      get_global_id(2) == get_global_offset(2)) {
    out[0] = get_local_size(0);
    out[1] = get_local_size(1);
    out[2] = get_local_size(2);
  }
}
__attribute__((reqd_work_group_size(4, 2, 1)))
kernel void fixed(global uint *out) {
  if (get_global_id(0) == 0 && get_global_id(1) == 0) {
    out[0] = get_local_size(0);
    out[1] = get_local_size(1);
  }
}
)CLC";

class SuggestedLocalSize : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    Suggest = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(Platform, "clGetKernelSuggestedLocalWorkSizeKHR"));
    ASSERT_NE(Suggest, nullptr);
    K = kernel(Source, "sizes", "-cl-std=CL2.0");
    ASSERT_NE(K, nullptr);
    Out = buffer(3 * sizeof(cl_uint));
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, 256, nullptr), CL_SUCCESS);
  }

  /// The local size a NULL local_work_size launch of K runs.
  std::vector<cl_uint> launched(cl_kernel Kern, cl_uint Dim, const size_t *Offset,
                                const size_t *Global) {
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Kern, Dim, Offset, Global, nullptr, 0, nullptr,
                                     nullptr),
              CL_SUCCESS);
    std::vector<cl_uint> Got = read<cl_uint>(Out, 3);
    for (cl_uint D = Dim; D < 3; ++D)
      Got[D] = 1;
    return Got;
  }

  clGetKernelSuggestedLocalWorkSizeKHR_fn Suggest = nullptr;
  cl_kernel K = nullptr;
  cl_mem Out = nullptr;
};

} // namespace

TEST_F(SuggestedLocalSize, ReportedWithItsEntryPoint) {
  std::string Ext(4096, '\0');
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, Ext.size(), Ext.data(), nullptr),
            CL_SUCCESS);
  EXPECT_NE(Ext.find("cl_khr_suggested_local_work_size"), std::string::npos);
}

// Primes, powers of two, multiples of the SIMD width and of nothing, with
// and without offsets: the suggestion fits the kernel and the launch uses it.
TEST_F(SuggestedLocalSize, IsWhatANullLocalSizeLaunchRuns) {
  size_t MaxGroup = 0;
  ASSERT_EQ(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(MaxGroup),
                                     &MaxGroup, nullptr),
            CL_SUCCESS);
  const size_t Shapes[][3] = {{1, 1, 1},    {113, 1, 1},  {64, 1, 1},   {1024, 1, 1},
                              {1000, 3, 1}, {12, 113, 1}, {64, 3, 12},  {7, 5, 3},
                              {4096, 1, 1}, {97, 64, 2},  {100000, 1, 1}};
  for (const auto &G : Shapes)
    for (cl_uint Dim = 1; Dim <= 3; ++Dim) {
      const size_t Offset[3] = {5, 0, 7};
      for (const size_t *Off : {static_cast<const size_t *>(nullptr), Offset}) {
        SCOPED_TRACE(std::to_string(Dim) + "D " + std::to_string(G[0]) + "x" +
                     std::to_string(G[1]) + "x" + std::to_string(G[2]) +
                     (Off ? " with offset" : ""));
        size_t Local[3] = {0, 0, 0};
        ASSERT_EQ(Suggest(Queue, K, Dim, Off, G, Local), CL_SUCCESS);
        size_t Items = 1;
        for (cl_uint D = 0; D < Dim; ++D) {
          EXPECT_GE(Local[D], 1u);
          EXPECT_LE(Local[D], G[D]);
          Items *= Local[D];
        }
        EXPECT_LE(Items, MaxGroup);
        const std::vector<cl_uint> Ran = launched(K, Dim, Off, G);
        for (cl_uint D = 0; D < Dim; ++D)
          EXPECT_EQ(Ran[D], Local[D]) << "dimension " << D;
      }
    }
}

// A kernel built with -cl-uniform-work-group-size (or OpenCL C 1.x) must get
// a size that divides the global size.
TEST_F(SuggestedLocalSize, DividesTheGlobalSizeForUniformKernels) {
  cl_kernel U = kernel(Source, "sizes", "-cl-std=CL2.0 -cl-uniform-work-group-size");
  ASSERT_EQ(clSetKernelArg(U, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(U, 1, 16, nullptr), CL_SUCCESS);
  for (size_t N : {113u, 1000u, 4097u, 12u}) {
    size_t Local = 0;
    ASSERT_EQ(Suggest(Queue, U, 1, nullptr, &N, &Local), CL_SUCCESS);
    EXPECT_EQ(N % Local, 0u) << N;
    EXPECT_EQ(launched(U, 1, nullptr, &N)[0], Local) << N;
  }
}

TEST_F(SuggestedLocalSize, FollowsReqdWorkGroupSize) {
  cl_kernel F = kernel(Source, "fixed", "-cl-std=CL2.0");
  ASSERT_EQ(clSetKernelArg(F, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  const size_t Global[2] = {64, 8};
  size_t Local[2] = {0, 0};
  ASSERT_EQ(Suggest(Queue, F, 2, nullptr, Global, Local), CL_SUCCESS);
  EXPECT_EQ(Local[0], 4u);
  EXPECT_EQ(Local[1], 2u);
}

TEST_F(SuggestedLocalSize, Errors) {
  const size_t Global[3] = {64, 1, 1};
  size_t Local[3];
  EXPECT_EQ(Suggest(nullptr, K, 1, nullptr, Global, Local), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(Suggest(Queue, nullptr, 1, nullptr, Global, Local), CL_INVALID_KERNEL);
  EXPECT_EQ(Suggest(Queue, K, 0, nullptr, Global, Local), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(Suggest(Queue, K, 4, nullptr, Global, Local), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(Suggest(Queue, K, 1, nullptr, nullptr, Local), CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t Zero[3] = {64, 0, 1};
  EXPECT_EQ(Suggest(Queue, K, 2, nullptr, Zero, Local), CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t Huge[1] = {SIZE_MAX};
  const size_t Offset[1] = {2};
  EXPECT_EQ(Suggest(Queue, K, 1, Offset, Huge, Local), CL_INVALID_GLOBAL_OFFSET);
  EXPECT_EQ(Suggest(Queue, K, 1, nullptr, Global, nullptr), CL_INVALID_VALUE);
  // Arguments not set.
  cl_kernel Unset = kernel(Source, "sizes", "-cl-std=CL2.0");
  EXPECT_EQ(Suggest(Queue, Unset, 1, nullptr, Global, Local), CL_INVALID_KERNEL_ARGS);
  // More __local memory than the device has.
  cl_ulong LocalMem = 0;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(LocalMem), &LocalMem,
                            nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, size_t(LocalMem) + 1, nullptr), CL_SUCCESS);
  EXPECT_EQ(Suggest(Queue, K, 1, nullptr, Global, Local), CL_OUT_OF_RESOURCES);
  // A queue of another context.
  cl_int Err;
  cl_context Other = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_command_queue OtherQueue = clCreateCommandQueueWithProperties(Other, Device, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, 16, nullptr), CL_SUCCESS);
  EXPECT_EQ(Suggest(OtherQueue, K, 1, nullptr, Global, Local), CL_INVALID_CONTEXT);
  EXPECT_EQ(clReleaseCommandQueue(OtherQueue), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(Other), CL_SUCCESS);
}

// OpenCL 3.1: a __local argument may have size 0 (the kernel must then not
// touch it), and such a launch runs; before 3.1 the size is refused.
TEST_F(SuggestedLocalSize, LocalArgumentOfSizeZero) {
  cl_version Version = 0;
  ASSERT_EQ(clGetPlatformInfo(Platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(Version), &Version,
                              nullptr),
            CL_SUCCESS);
  if (Version < CL_MAKE_VERSION(3, 1, 0)) {
    EXPECT_EQ(clSetKernelArg(K, 1, 0, nullptr), CL_INVALID_ARG_SIZE);
    return;
  }
  ASSERT_EQ(clSetKernelArg(K, 1, 0, nullptr), CL_SUCCESS);
  const size_t Global = 32;
  EXPECT_EQ(launched(K, 1, nullptr, &Global).size(), 3u);
}

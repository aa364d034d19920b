// OpenCL C 3.0 with __opencl_c_generic_address_space and
// __opencl_c_program_scope_global_variables, through the ICD loader:
// generic pointers from every named space, to_global/to_local/to_private
// and get_fence on each (also across a barrier, where private values live
// in the work-item frames), generic C11 atomics, and program-scope
// variables that persist across launches of one program but are never
// shared between two programs built from the same source.
#include "ApiTest.h"

using namespace weft::test;

namespace {

const char *GenericSource = R"CLC(
global int counter = 0;
global int table[4] = {1, 2, 3, 4};
constant int scale = 10;

int classify(generic int *p) {
  return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 | (to_private(p) != NULL) << 2 |
         (int)get_fence(p) << 4;
}

kernel void spaces(global int *out, global int *data, local int *scratch) {
  size_t i = get_global_id(0), l = get_local_id(0);
  int mine = (int)i;
  scratch[l] = mine;
  int frame[2] = {mine, mine};
  barrier(CLK_LOCAL_MEM_FENCE);  // frame and mine now live across a barrier
  global int *o = out + i * 8;
  o[0] = classify(data + i);
  o[1] = classify(scratch + l);
  o[2] = classify(&mine);
  o[3] = classify(&frame[1]);
  o[4] = classify(&counter);
  generic int *g = (l & 1) ? (generic int *)&scratch[l] : (generic int *)&data[i];
  *g = 5;  // a store through a generic pointer of either space
  o[5] = ((l & 1) ? scratch[l] : data[i]) + frame[1] - mine;
  o[6] = table[l % 4] * scale;
}

// No call and no barrier: the work-group function is a leaf, which must
// still keep its private variables where to_private looks for them.
kernel void leaf(global int *out) {
  long v = 5;
  generic long *g = &v;
  out[get_global_id(0)] = to_private(g) != NULL && to_global(g) == NULL && *g == 5;
}

kernel void bump(global int *out) {
  atomic_fetch_add_explicit((volatile generic atomic_int *)&counter, 1, memory_order_relaxed,
                            memory_scope_work_group);
  if (get_global_id(0) == 0)
    table[0] += 100;
  out[0] = counter;
  out[1] = table[0];
}
)CLC";

class GenericAddressSpace : public WithQueue {};

} // namespace

TEST_F(GenericAddressSpace, DeviceReportsTheFeatures) {
  EXPECT_EQ(info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT),
            CL_TRUE);
  EXPECT_GE(info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE),
            size_t(64 * 1024));
}

TEST_F(GenericAddressSpace, AddressSpaceQueriesClassifyEverySpace) {
  cl_kernel K = kernel(GenericSource, "spaces", "-cl-std=CL3.0");
  const size_t G = 64, L = 16;
  cl_mem Out = buffer(G * 8 * sizeof(int)), Data = buffer(G * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Data), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, L * sizeof(int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &L, 0, nullptr, nullptr), CL_SUCCESS);
  auto Got = read<int>(Out, G * 8);
  // get_fence: CLK_GLOBAL_MEM_FENCE (1), CLK_LOCAL_MEM_FENCE (2), none for
  // private memory.
  constexpr int Global = 1 | 1 << 4, Local = 2 | 2 << 4, Private = 4;
  for (size_t I = 0; I < G; ++I) {
    SCOPED_TRACE(I);
    const int *O = &Got[I * 8];
    EXPECT_EQ(O[0], Global);
    EXPECT_EQ(O[1], Local);
    EXPECT_EQ(O[2], Private);
    EXPECT_EQ(O[3], Private);
    EXPECT_EQ(O[4], Global);
    EXPECT_EQ(O[5], 5);
    EXPECT_EQ(O[6], int((I % 16) % 4 + 1) * 10);
  }
}

TEST_F(GenericAddressSpace, PrivateVariablesOfALeafKernel) {
  cl_kernel K = kernel(GenericSource, "leaf", "-cl-std=CL3.0");
  const size_t G = 256, L = 32;
  cl_mem Out = buffer(G * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &L, 0, nullptr, nullptr), CL_SUCCESS);
  auto Got = read<int>(Out, G);
  for (size_t I = 0; I < G; ++I)
    ASSERT_EQ(Got[I], 1) << I;
}

TEST_F(GenericAddressSpace, ProgramScopeVariablesPersistPerProgram) {
  cl_program A = build(GenericSource, "-cl-std=CL3.0");
  cl_program B = build(GenericSource, "-cl-std=CL3.0");
  size_t Size = 0;
  ASSERT_EQ(clGetProgramBuildInfo(A, Device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof(Size), &Size, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Size, 5 * sizeof(int)); // counter and table; constants do not count
  cl_int Err;
  cl_kernel KA = clCreateKernel(A, "bump", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_kernel KB = clCreateKernel(B, "bump", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Out = buffer(2 * sizeof(int));
  const size_t G = 32, L = 8;
  auto Run = [&](cl_kernel K) {
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &L, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clFinish(Queue), CL_SUCCESS);
    return read<int>(Out, 2);
  };
  Run(KA);
  auto Second = Run(KA);
  // Every work-item of both launches incremented A's counter; the last
  // one to read it saw all 64 increments at most.
  EXPECT_GT(Second[0], int(G));
  EXPECT_LE(Second[0], int(2 * G));
  EXPECT_EQ(Second[1], 201);
  auto First = Run(KB); // B's variables are its own, still initial
  EXPECT_LE(First[0], int(G));
  EXPECT_EQ(First[1], 101);
  clReleaseKernel(KA);
  clReleaseKernel(KB);
  clReleaseProgram(A);
  clReleaseProgram(B);
}

TEST_F(GenericAddressSpace, OpenCLC12HasNoGenericAddressSpace) {
  cl_int Err;
  const char *Src = "kernel void k(global int *o) { generic int *p = o; *p = 1; }";
  cl_program P = clCreateProgramWithSource(Context, 1, &Src, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(clBuildProgram(P, 1, &Device, "-cl-std=CL1.2", nullptr, nullptr),
            CL_BUILD_PROGRAM_FAILURE);
  // Diagnostics, to their last line, go to the build log, not to stderr.
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_NE(buildLog(P).find("errors generated"), std::string::npos) << buildLog(P);
  clReleaseProgram(P);
}

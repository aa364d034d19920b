// A kernel that faults (here: a store through a wild pointer) takes the
// process down, as a fault in any native library would; with WEFT_DEBUG=1
// Weft first names the kernel and the work-group that faulted. A death
// test: the faulting run happens in a child process, which re-runs this
// test alone, so the report is installed before Weft starts there.
#include "ApiTest.h"

#include <cstdlib>

namespace {

void runWildKernel() {
  setenv("WEFT_DEBUG", "1", 1);
  setenv("WEFT_CACHE_DIR", "off", 1);
  cl_uint N = 0;
  clGetPlatformIDs(0, nullptr, &N);
  std::vector<cl_platform_id> Ps(N);
  clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Name[64] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
    if (std::string(Name) != "Weft")
      continue;
    cl_device_id D;
    clGetDeviceIDs(P, CL_DEVICE_TYPE_CPU, 1, &D, nullptr);
    cl_int Err;
    cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
    cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
    const char *Src = "__kernel void wild(__global int *p) {\n"
                      "  if (get_group_id(0) == 2)\n"
                      "    *(volatile __global int *)(p + 0x10000000000L) = 1;\n"
                      "}\n";
    cl_program Prog = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
    clBuildProgram(Prog, 1, &D, "", nullptr, nullptr);
    cl_kernel K = clCreateKernel(Prog, "wild", &Err);
    cl_mem M = clCreateBuffer(C, CL_MEM_READ_WRITE, 64, nullptr, &Err);
    clSetKernelArg(K, 0, sizeof(cl_mem), &M);
    size_t Global = 4, Local = 1;
    clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr);
    clFinish(Q);
  }
}

} // namespace

TEST(KernelFaults, WeftDebugNamesTheKernelAndGroupThatFaulted) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(runWildKernel(), "weft: kernel 'wild' faulted \\(signal [0-9]+\\) in "
                                "work-group \\(2, 0, 0\\)");
}

// A C host program that does not link libm (built with --as-needed, calling
// no math itself) runs a kernel whose builtins call libm (sin, cos, pow).
// The ICD loader opens libweft.so RTLD_LOCAL, so libm, loaded only as a
// dependency of ours, is not in the global scope a search of the process
// sees; the JIT must still find it. C, not C++: libstdc++ would bring libm
// into the global scope and hide the bug. Exit status 0 on success.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <string.h>

static int fail(const char *What, cl_int Err) {
  fprintf(stderr, "MathWithoutLibm: %s failed (%d)\n", What, Err);
  return 1;
}

int main(void) {
  cl_uint NumPlatforms = 0;
  cl_platform_id Platforms[16];
  cl_platform_id Platform = NULL;
  if (clGetPlatformIDs(16, Platforms, &NumPlatforms) != CL_SUCCESS)
    return fail("clGetPlatformIDs", 0);
  for (cl_uint I = 0; I < NumPlatforms && I < 16; ++I) {
    char Name[64] = {0};
    clGetPlatformInfo(Platforms[I], CL_PLATFORM_NAME, sizeof(Name), Name, NULL);
    if (strcmp(Name, "Weft") == 0)
      Platform = Platforms[I];
  }
  if (!Platform)
    return fail("finding the Weft platform (OCL_ICD_VENDORS?)", 0);
  cl_device_id Device;
  cl_int Err = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_CPU, 1, &Device, NULL);
  if (Err)
    return fail("clGetDeviceIDs", Err);
  cl_context Context = clCreateContext(NULL, 1, &Device, NULL, NULL, &Err);
  if (Err)
    return fail("clCreateContext", Err);
  cl_command_queue Queue = clCreateCommandQueueWithProperties(Context, Device, NULL, &Err);
  if (Err)
    return fail("clCreateCommandQueueWithProperties", Err);
  const char *Source = "kernel void k(global float *o) {\n"
                       "  float x = o[0];\n"
                       "  o[0] = sin(x) * sin(x) + cos(x) * cos(x) + pow(x, 2.0f);\n"
                       "}\n";
  cl_program Program = clCreateProgramWithSource(Context, 1, &Source, NULL, &Err);
  if (Err)
    return fail("clCreateProgramWithSource", Err);
  Err = clBuildProgram(Program, 1, &Device, "", NULL, NULL);
  if (Err) {
    char Log[4096] = {0};
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, sizeof(Log) - 1, Log, NULL);
    fprintf(stderr, "%s\n", Log);
    return fail("clBuildProgram", Err);
  }
  cl_kernel Kernel = clCreateKernel(Program, "k", &Err);
  if (Err)
    return fail("clCreateKernel", Err);
  float Value = 3.0f;
  cl_mem Buffer = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(Value),
                                 &Value, &Err);
  if (Err)
    return fail("clCreateBuffer", Err);
  clSetKernelArg(Kernel, 0, sizeof(Buffer), &Buffer);
  size_t Global = 1;
  Err = clEnqueueNDRangeKernel(Queue, Kernel, 1, NULL, &Global, NULL, 0, NULL, NULL);
  if (Err)
    return fail("clEnqueueNDRangeKernel", Err);
  Err = clEnqueueReadBuffer(Queue, Buffer, CL_TRUE, 0, sizeof(Value), &Value, 0, NULL, NULL);
  if (Err)
    return fail("clEnqueueReadBuffer", Err);
  // sin^2 + cos^2 + 3^2 = 10, to a few ulp.
  if (!(Value > 9.9999f && Value < 10.0001f)) {
    fprintf(stderr, "MathWithoutLibm: got %g, want 10\n", (double)Value);
    return 1;
  }
  clReleaseMemObject(Buffer);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return 0;
}

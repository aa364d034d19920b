// Kernel objects: info, argument info (names only with -cl-kernel-arg-info),
// work-group info, clCloneKernel, arguments by value of every size (scalars,
// float3, float4, a struct), __local arguments, and one negative test per
// error code of the kernel entry points.
#include "ApiTest.h"

using namespace weft::test;

namespace {

const char *ArgSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct { int a; float b; long c; char d; } Mixed;

__kernel void args(__global int *out, __constant float *table, __local int *scratch,
                   const int count, volatile __global uint *flags, __global const float *restrict in) {
  out[0] = count;
}

__attribute__((reqd_work_group_size(8, 4, 1)))
__kernel void fixed(__global int *out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_local_id(0);
}

__kernel void values(__global long *out, char c, uchar uc, short s, ushort us, int i, uint ui,
                     long l, ulong ul, float f, double d, float4 f4, float3 f3, Mixed m) {
  out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = ui;
  out[6] = l; out[7] = (long)ul; out[8] = (long)(f * 4.0f); out[9] = (long)(d * 8.0);
  out[10] = (long)(f4.x + 10.0f * f4.y + 100.0f * f4.z + 1000.0f * f4.w);
  out[11] = (long)(f3.x + 10.0f * f3.y + 100.0f * f3.z);
  out[12] = m.a; out[13] = (long)(m.b * 2.0f); out[14] = m.c; out[15] = m.d;
}

__kernel void reverse_in_group(__global const int *in, __global int *out, __local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l];
}

__kernel void static_local(__global int *out) {
  __local int shared[64];
  shared[get_local_id(0)] = (int)get_local_id(0) * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[get_local_size(0) - 1 - get_local_id(0)];
}

__kernel void add_const(__global int *data, int amount) {
  data[get_global_id(0)] += amount;
}
)CLC";

typedef struct {
  cl_int a;
  cl_float b;
  cl_long c;
  cl_char d;
} Mixed;

class Kernels : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    Program = build(ArgSource);
    OwnedPrograms.push_back(Program);
  }
  cl_kernel make(const char *Name) {
    cl_int Err;
    cl_kernel K = clCreateKernel(Program, Name, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    OwnedKernels.push_back(K);
    return K;
  }
  /// A buffer the test releases itself, whose destruction counts in *Destroyed.
  cl_mem countedBuffer(size_t Size, int *Destroyed) {
    cl_int Err;
    cl_mem M = clCreateBuffer(Context, CL_MEM_READ_WRITE, Size, nullptr, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    EXPECT_EQ(clSetMemObjectDestructorCallback(
                  M, [](cl_mem, void *D) { ++*static_cast<int *>(D); }, Destroyed),
              CL_SUCCESS);
    return M;
  }
  cl_program Program = nullptr;
};

} // namespace

TEST_F(Kernels, LifecycleAndInfo) {
  cl_int Err;
  cl_kernel K = clCreateKernel(Program, "args", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(infoString(clGetKernelInfo, K, CL_KERNEL_FUNCTION_NAME), "args");
  EXPECT_EQ(info<cl_uint>(clGetKernelInfo, K, CL_KERNEL_NUM_ARGS), 6u);
  EXPECT_EQ(info<cl_context>(clGetKernelInfo, K, CL_KERNEL_CONTEXT), Context);
  EXPECT_EQ(info<cl_program>(clGetKernelInfo, K, CL_KERNEL_PROGRAM), Program);
  EXPECT_EQ(info<cl_uint>(clGetKernelInfo, K, CL_KERNEL_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainKernel(K), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetKernelInfo, K, CL_KERNEL_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetKernelInfo, K, CL_KERNEL_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
  cl_kernel Fixed = make("fixed");
  EXPECT_NE(infoString(clGetKernelInfo, Fixed, CL_KERNEL_ATTRIBUTES).find("reqd_work_group_size"),
            std::string::npos);
}

TEST_F(Kernels, KernelOutlivesItsProgram) {
  cl_program P = build(ArgSource);
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "add_const", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clReleaseProgram(P), CL_SUCCESS);
  OwnedKernels.push_back(K);
  cl_mem M = buffer(4 * sizeof(int));
  int Zero = 0, Amount = 6;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, M, &Zero, 4, 0, 16, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &M), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Amount), CL_SUCCESS);
  const size_t N = 4;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(M, 4), std::vector<int>(4, 6));
  EXPECT_EQ(info<cl_program>(clGetKernelInfo, K, CL_KERNEL_PROGRAM), P);
}

TEST_F(Kernels, ArgInfo) {
  cl_kernel K = make("args");
  auto Addr = [&](cl_uint I) {
    cl_kernel_arg_address_qualifier Q = 0;
    EXPECT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(Q), &Q, nullptr),
              CL_SUCCESS);
    return Q;
  };
  auto TypeQ = [&](cl_uint I) {
    cl_kernel_arg_type_qualifier Q = 0;
    EXPECT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(Q), &Q, nullptr),
              CL_SUCCESS);
    return Q;
  };
  auto TypeName = [&](cl_uint I) {
    size_t Size = 0;
    EXPECT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_NAME, 0, nullptr, &Size), CL_SUCCESS);
    std::string S(Size, '\0');
    EXPECT_EQ(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_NAME, Size, S.data(), nullptr),
              CL_SUCCESS);
    if (!S.empty() && S.back() == '\0')
      S.pop_back();
    return S;
  };
  EXPECT_EQ(Addr(0), cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_GLOBAL));
  EXPECT_EQ(Addr(1), cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_CONSTANT));
  EXPECT_EQ(Addr(2), cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  EXPECT_EQ(Addr(3), cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_PRIVATE));
  EXPECT_EQ(TypeName(0), "int*");
  EXPECT_EQ(TypeName(1), "float*");
  EXPECT_EQ(TypeName(3), "int");
  EXPECT_EQ(TypeName(4), "uint*");
  EXPECT_EQ(TypeQ(0), cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_NONE));
  EXPECT_TRUE(TypeQ(1) & CL_KERNEL_ARG_TYPE_CONST) << "__constant arguments are const";
  EXPECT_TRUE(TypeQ(4) & CL_KERNEL_ARG_TYPE_VOLATILE);
  EXPECT_EQ(TypeQ(5) & (CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT),
            cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT));
  EXPECT_EQ(info<cl_kernel_arg_access_qualifier>(
                [&](cl_kernel Kn, cl_kernel_arg_info P, size_t S, void *V, size_t *R) {
                  return clGetKernelArgInfo(Kn, 0, P, S, V, R);
                },
                K, CL_KERNEL_ARG_ACCESS_QUALIFIER),
            cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE));

  // Names need -cl-kernel-arg-info.
  char Name[32];
  EXPECT_EQ(clGetKernelArgInfo(K, 0, CL_KERNEL_ARG_NAME, sizeof(Name), Name, nullptr),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  cl_kernel Named = kernel(ArgSource, "args", "-cl-kernel-arg-info");
  const char *Want[] = {"out", "table", "scratch", "count", "flags", "in"};
  for (cl_uint I = 0; I < 6; ++I) {
    ASSERT_EQ(clGetKernelArgInfo(Named, I, CL_KERNEL_ARG_NAME, sizeof(Name), Name, nullptr),
              CL_SUCCESS);
    EXPECT_STREQ(Name, Want[I]);
  }

  EXPECT_EQ(clGetKernelArgInfo(K, 6, CL_KERNEL_ARG_TYPE_NAME, sizeof(Name), Name, nullptr),
            CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clGetKernelArgInfo(K, 0, 0x7777, sizeof(Name), Name, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelArgInfo(wrongHandle<cl_kernel>(Program), 0, CL_KERNEL_ARG_TYPE_NAME,
                               sizeof(Name), Name, nullptr),
            CL_INVALID_KERNEL);
}

TEST_F(Kernels, WorkGroupInfo) {
  cl_kernel K = make("static_local");
  auto Z = [&](cl_kernel Kn, cl_kernel_work_group_info P) {
    size_t V = 0;
    EXPECT_EQ(clGetKernelWorkGroupInfo(Kn, Device, P, sizeof(V), &V, nullptr), CL_SUCCESS);
    return V;
  };
  size_t DeviceMax = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t Wg = Z(K, CL_KERNEL_WORK_GROUP_SIZE);
  EXPECT_GE(Wg, 1u);
  EXPECT_LE(Wg, DeviceMax);
  EXPECT_GE(Z(K, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), 1u);
  cl_ulong Local = 0;
  ASSERT_EQ(
      clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(Local), &Local, nullptr),
      CL_SUCCESS);
  EXPECT_GE(Local, 64u * sizeof(int)) << "the kernel's static __local array";
  cl_ulong Private = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(Private),
                                     &Private, nullptr),
            CL_SUCCESS);
  size_t Compile[3] = {9, 9, 9};
  ASSERT_EQ(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(Compile),
                                     Compile, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Compile[0] + Compile[1] + Compile[2], 0u);
  // The single device may be named by NULL.
  size_t ViaNull = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof(ViaNull),
                                     &ViaNull, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(ViaNull, Wg);

  cl_kernel Fixed = make("fixed");
  ASSERT_EQ(clGetKernelWorkGroupInfo(Fixed, Device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                     sizeof(Compile), Compile, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Compile[0], 8u);
  EXPECT_EQ(Compile[1], 4u);
  EXPECT_EQ(Compile[2], 1u);
  EXPECT_EQ(Z(Fixed, CL_KERNEL_WORK_GROUP_SIZE), 32u);

  // __local arguments count towards CL_KERNEL_LOCAL_MEM_SIZE.
  cl_kernel Rev = make("reverse_in_group");
  ASSERT_EQ(clSetKernelArg(Rev, 2, 1000, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetKernelWorkGroupInfo(Rev, Device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(Local), &Local,
                                     nullptr),
            CL_SUCCESS);
  EXPECT_GE(Local, 1000u);

  size_t Global[3];
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof(Global), Global,
                                     nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, Device, 0x7777, sizeof(Global), Global, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, wrongHandle<cl_device_id>(Context),
                                     CL_KERNEL_WORK_GROUP_SIZE, sizeof(Wg), &Wg, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clGetKernelWorkGroupInfo(wrongHandle<cl_kernel>(Context), Device,
                                     CL_KERNEL_WORK_GROUP_SIZE, sizeof(Wg), &Wg, nullptr),
            CL_INVALID_KERNEL);
}

TEST_F(Kernels, ArgumentsByValue) {
  cl_kernel K = make("values");
  cl_mem Out = buffer(16 * sizeof(cl_long));
  cl_char C = -5;
  cl_uchar UC = 250;
  cl_short S = -30000;
  cl_ushort US = 60000;
  cl_int I = -2000000000;
  cl_uint UI = 4000000000u;
  cl_long L = -(cl_long(1) << 40);
  cl_ulong UL = (cl_ulong(1) << 62) + 3;
  cl_float F = 2.25f;
  cl_double D = 1.125;
  cl_float4 F4 = {{1, 2, 3, 4}};
  cl_float3 F3 = {{5, 6, 7}};
  Mixed M = {-17, 1.5f, cl_long(1) << 50, 'w'};
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(C), &C), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, sizeof(UC), &UC), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 3, sizeof(S), &S), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 4, sizeof(US), &US), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 5, sizeof(I), &I), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 6, sizeof(UI), &UI), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 7, sizeof(L), &L), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 8, sizeof(UL), &UL), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 9, sizeof(F), &F), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 10, sizeof(D), &D), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 11, sizeof(F4), &F4), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 12, sizeof(F3), &F3), CL_SUCCESS) << "float3 is passed as 16 bytes";
  ASSERT_EQ(clSetKernelArg(K, 13, sizeof(M), &M), CL_SUCCESS);
  const size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<cl_long>(Out, 16);
  EXPECT_EQ(Got[0], C);
  EXPECT_EQ(Got[1], UC);
  EXPECT_EQ(Got[2], S);
  EXPECT_EQ(Got[3], US);
  EXPECT_EQ(Got[4], I);
  EXPECT_EQ(Got[5], cl_long(UI));
  EXPECT_EQ(Got[6], L);
  EXPECT_EQ(Got[7], cl_long(UL));
  EXPECT_EQ(Got[8], 9);
  EXPECT_EQ(Got[9], 9);
  EXPECT_EQ(Got[10], 4321);
  EXPECT_EQ(Got[11], 765);
  EXPECT_EQ(Got[12], -17);
  EXPECT_EQ(Got[13], 3);
  EXPECT_EQ(Got[14], cl_long(1) << 50);
  EXPECT_EQ(Got[15], 'w');
}

TEST_F(Kernels, SetArgErrors) {
  cl_kernel K = make("values");
  cl_kernel A = make("args");
  cl_mem M = buffer(64);
  cl_int I = 1;
  EXPECT_EQ(clSetKernelArg(K, 14, sizeof(I), &I), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(K, 5, sizeof(I) + 1, &I), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(K, 5, 2, &I), CL_INVALID_ARG_SIZE);
  cl_float3 F3{};
  EXPECT_EQ(clSetKernelArg(K, 12, 12, &F3), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(K, 5, sizeof(I), nullptr), CL_INVALID_ARG_VALUE);
  // Buffers: size must be sizeof(cl_mem), value a memory object.
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem) - 1, &M), CL_INVALID_ARG_SIZE);
  cl_mem NotMem = wrongHandle<cl_mem>(Queue);
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &NotMem), CL_INVALID_MEM_OBJECT);
  cl_mem Null = nullptr;
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Null), CL_SUCCESS) << "a NULL buffer is allowed";
  // __local: NULL value, and a non-zero size before OpenCL 3.1.
  EXPECT_EQ(clSetKernelArg(A, 2, 64, &M), CL_INVALID_ARG_VALUE);
  cl_version Version = 0;
  ASSERT_EQ(clGetPlatformInfo(Platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(Version), &Version,
                              nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(A, 2, 0, nullptr),
            Version >= CL_MAKE_VERSION(3, 1, 0) ? CL_SUCCESS : CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(A, 2, 64, nullptr), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(wrongHandle<cl_kernel>(M), 0, sizeof(I), &I), CL_INVALID_KERNEL);
}

TEST_F(Kernels, KernelHandleErrors) {
  cl_kernel NotKernel = wrongHandle<cl_kernel>(Program);
  cl_uint V;
  EXPECT_EQ(clRetainKernel(NotKernel), CL_INVALID_KERNEL);
  EXPECT_EQ(clReleaseKernel(NotKernel), CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelInfo(NotKernel, CL_KERNEL_NUM_ARGS, sizeof(V), &V, nullptr),
            CL_INVALID_KERNEL);
  cl_int Err;
  EXPECT_EQ(clCloneKernel(NotKernel, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_KERNEL);
  cl_kernel K = make("args");
  EXPECT_EQ(clGetKernelInfo(K, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, 1, &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(K, 0x7777, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelArgSVMPointer(NotKernel, 0, nullptr), CL_INVALID_KERNEL);
  EXPECT_EQ(clSetKernelExecInfo(NotKernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr),
            CL_INVALID_KERNEL);
}

// Regression: a buffer released after clSetKernelArg and before the
// enqueue was used after it was freed (the kernel wrote into freed memory).
// The argument names the buffer weakly: its destructor callback runs at the
// release, and the enqueue fails with CL_INVALID_KERNEL_ARGS until the
// argument is set again.
TEST_F(Kernels, BufferReleasedAfterSetArgFailsTheEnqueue) {
  cl_kernel K = make("add_const");
  const size_t N = 8;
  cl_int Err;
  int Destroyed = 0;
  cl_mem Gone = countedBuffer(N * sizeof(int), &Destroyed);
  ASSERT_NE(Gone, nullptr);
  int Five = 5;
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Gone), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Five), CL_SUCCESS);
  cl_kernel Clone = clCloneKernel(K, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(Clone);
  ASSERT_EQ(clReleaseMemObject(Gone), CL_SUCCESS);
  EXPECT_EQ(Destroyed, 1) << "a kernel argument must not keep its buffer alive";
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Clone, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  // Allocations that may reuse the freed memory, then a new argument.
  cl_mem Fresh = buffer(N * sizeof(int));
  int Zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, Fresh, &Zero, 4, 0, N * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Fresh), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(Fresh, N), std::vector<int>(N, 5));
}

// A buffer released while a command that uses it is in flight lives until
// the command is done; its destructor callback runs after that.
TEST_F(Kernels, BufferReleasedAfterTheEnqueueLivesUntilTheCommandIsDone) {
  cl_kernel K = make("add_const");
  const size_t N = 1024;
  cl_int Err;
  cl_event Gate = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  int Destroyed = 0;
  cl_mem M = countedBuffer(N * sizeof(int), &Destroyed);
  ASSERT_NE(M, nullptr);
  int Zero = 0, Three = 3;
  std::vector<int> Out(N, -1);
  ASSERT_EQ(clEnqueueFillBuffer(Queue, M, &Zero, 4, 0, N * 4, 1, &Gate, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &M), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Three), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(Queue, M, CL_FALSE, 0, N * 4, Out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(M), CL_SUCCESS);
  EXPECT_EQ(Destroyed, 0) << "commands in flight still use the buffer";
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(Out, std::vector<int>(N, 3));
  EXPECT_EQ(clReleaseEvent(Gate), CL_SUCCESS);
}

TEST_F(Kernels, CloneKeepsArguments) {
  cl_kernel K = make("add_const");
  const size_t N = 8;
  cl_mem A = buffer(N * sizeof(int)), B = buffer(N * sizeof(int));
  int Zero = 0, Five = 5, Seven = 7;
  ASSERT_EQ(clEnqueueFillBuffer(Queue, A, &Zero, 4, 0, N * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(Queue, B, &Zero, 4, 0, N * 4, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(int), &Five), CL_SUCCESS);
  cl_int Err;
  cl_kernel Clone = clCloneKernel(K, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(Clone);
  EXPECT_EQ(infoString(clGetKernelInfo, Clone, CL_KERNEL_FUNCTION_NAME), "add_const");
  EXPECT_EQ(info<cl_uint>(clGetKernelInfo, Clone, CL_KERNEL_REFERENCE_COUNT), 1u);
  // The clone runs with the arguments it was cloned with ...
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Clone, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  // ... and changing them does not touch the original.
  ASSERT_EQ(clSetKernelArg(Clone, 0, sizeof(cl_mem), &B), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Clone, 1, sizeof(int), &Seven), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Clone, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(A, N), std::vector<int>(N, 10));
  EXPECT_EQ(read<int>(B, N), std::vector<int>(N, 7));
}

TEST_F(Kernels, LocalArguments) {
  cl_kernel K = make("reverse_in_group");
  const size_t N = 256, Local = 32;
  std::vector<int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = int(I * 3 + 1);
  cl_mem A = buffer(N * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
  cl_mem B = buffer(N * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &B), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, Local * sizeof(int), nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<int>(B, N);
  for (size_t I = 0; I < N; ++I) {
    size_t Group = I / Local, L = I % Local;
    ASSERT_EQ(Got[I], In[Group * Local + Local - 1 - L]) << I;
  }

  cl_kernel S = make("static_local");
  ASSERT_EQ(clSetKernelArg(S, 0, sizeof(cl_mem), &B), CL_SUCCESS);
  const size_t SLocal = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, S, 1, nullptr, &N, &SLocal, 0, nullptr, nullptr),
            CL_SUCCESS);
  Got = read<int>(B, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], int(SLocal - 1 - I % SLocal) * 3) << I;
}

// Regression (found by weft_fuzz_api): a cl_mem that arg_value points to is
// not checked by the ICD loader, and a value that was no handle at all made
// Weft read through it (SIGSEGV). Handles that arrive inside data are now
// looked up among the live ones before anything reads them.
TEST_F(Kernels, WildHandleValuesInsideArgumentsAreInvalidNotFatal) {
  cl_kernel K = make("args");
  int NotAnObject = 42;
  for (uintptr_t Wild : {uintptr_t(0x2a), uintptr_t(0x7fff0000dead), uintptr_t(&NotAnObject)}) {
    cl_mem M = reinterpret_cast<cl_mem>(Wild);
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &M), CL_INVALID_MEM_OBJECT);
    // (clWaitForEvents and clCreateContext are dispatched by the loader
    // through the first event or device, so a wild one never reaches Weft.)
    cl_event E = reinterpret_cast<cl_event>(Wild);
    EXPECT_EQ(clEnqueueMarkerWithWaitList(Queue, 1, &E, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    cl_event Two[] = {nullptr, E};
    ASSERT_EQ(clEnqueueMarkerWithWaitList(Queue, 0, nullptr, &Two[0]), CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(2, Two), CL_INVALID_EVENT);
    clReleaseEvent(Two[0]);
    cl_mem List[] = {M};
    EXPECT_EQ(clEnqueueMigrateMemObjects(Queue, 1, List, 0, 0, nullptr, nullptr),
              CL_INVALID_MEM_OBJECT);
  }
}

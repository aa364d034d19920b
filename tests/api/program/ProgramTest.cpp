// Programs: building from source with -D, -I and -cl-std, build failures
// with the compiler's message in the log, invalid options, program and
// build queries, binaries that round-trip through clCreateProgramWithBinary
// and run, foreign binaries, and one negative test per error code of the
// program entry points; separate compilation: embedded headers, objects
// linked together and with libraries, binaries of objects and of linked
// executables, and the errors of clCompileProgram and clLinkProgram.
#include "../support/Sanitizer.h"
#include "ApiTest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <set>
#include <unistd.h>

using namespace weft::test;

namespace {

const char *TwoKernels = R"CLC(
__kernel void scale(__global float *data, float factor) {
  data[get_global_id(0)] *= factor;
}
__kernel void fill(__global int *data, int value) {
  data[get_global_id(0)] = value;
}
)CLC";

class Programs : public WithQueue {
protected:
  template <typename T> T buildInfo(cl_program P, cl_program_build_info Param) {
    T Value{};
    size_t Size = 0;
    EXPECT_EQ(clGetProgramBuildInfo(P, Device, Param, sizeof(T), &Value, &Size), CL_SUCCESS);
    EXPECT_EQ(Size, sizeof(T));
    return Value;
  }
  std::string buildOptions(cl_program P) {
    size_t Size = 0;
    EXPECT_EQ(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &Size),
              CL_SUCCESS);
    std::string S(Size, '\0');
    EXPECT_EQ(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_OPTIONS, Size, S.data(), nullptr),
              CL_SUCCESS);
    if (!S.empty() && S.back() == '\0')
      S.pop_back();
    return S;
  }
  cl_program fromSource(const std::string &Source) {
    const char *Src = Source.c_str();
    cl_int Err;
    cl_program P = clCreateProgramWithSource(Context, 1, &Src, nullptr, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    return P;
  }
  /// Compiles Source to an object (asserting success); released at TearDown.
  cl_program compiled(const std::string &Source, const char *Options = "") {
    cl_program P = fromSource(Source);
    OwnedPrograms.push_back(P);
    EXPECT_EQ(clCompileProgram(P, 1, &Device, Options, 0, nullptr, nullptr, nullptr, nullptr),
              CL_SUCCESS)
        << buildLog(P);
    return P;
  }
  /// Links Inputs (asserting success); released at TearDown.
  cl_program linked(std::vector<cl_program> Inputs, const char *Options = "") {
    cl_int Err;
    cl_program P = clLinkProgram(Context, 1, &Device, Options, cl_uint(Inputs.size()),
                                 Inputs.data(), nullptr, nullptr, &Err);
    EXPECT_EQ(Err, CL_SUCCESS) << (P ? buildLog(P) : std::string());
    if (P)
      OwnedPrograms.push_back(P);
    return P;
  }
  std::vector<unsigned char> binaryOf(cl_program P) {
    size_t Size = 0;
    EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> Bin(Size);
    unsigned char *Ptr = Bin.data();
    EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr, nullptr), CL_SUCCESS);
    return Bin;
  }
  cl_program fromBinary(const std::vector<unsigned char> &Bin) {
    const unsigned char *Ptr = Bin.data();
    size_t Size = Bin.size();
    cl_int Err, Status;
    cl_program P = clCreateProgramWithBinary(Context, 1, &Device, &Size, &Ptr, &Status, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    if (P)
      OwnedPrograms.push_back(P);
    return P;
  }
  /// Runs kernel `fill` of P over N ints and returns them.
  std::vector<int> runFill(cl_program P, size_t N, int Value) {
    cl_int Err;
    cl_kernel K = clCreateKernel(P, "fill", &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    cl_mem M = buffer(N * sizeof(int));
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &M), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(K, 1, sizeof(int), &Value), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    auto Out = read<int>(M, N);
    EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
    return Out;
  }
};

std::set<std::string> splitNames(const std::string &S) {
  std::set<std::string> Out;
  size_t Pos = 0;
  while (Pos <= S.size()) {
    size_t End = S.find(';', Pos);
    if (End == std::string::npos)
      End = S.size();
    Out.insert(S.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  return Out;
}

void CL_CALLBACK onBuilt(cl_program P, void *Data) { *static_cast<cl_program *>(Data) = P; }

} // namespace

TEST_F(Programs, LifecycleAndInfo) {
  cl_program P = fromSource(TwoKernels);
  EXPECT_EQ(info<cl_uint>(clGetProgramInfo, P, CL_PROGRAM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainProgram(P), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetProgramInfo, P, CL_PROGRAM_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
  EXPECT_EQ(info<cl_context>(clGetProgramInfo, P, CL_PROGRAM_CONTEXT), Context);
  EXPECT_EQ(info<cl_uint>(clGetProgramInfo, P, CL_PROGRAM_NUM_DEVICES), 1u);
  EXPECT_EQ(info<cl_device_id>(clGetProgramInfo, P, CL_PROGRAM_DEVICES), Device);
  EXPECT_EQ(infoString(clGetProgramInfo, P, CL_PROGRAM_SOURCE), TwoKernels);
  EXPECT_EQ(buildInfo<cl_build_status>(P, CL_PROGRAM_BUILD_STATUS), CL_BUILD_NONE);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(P, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_NONE));
  size_t N;
  // Kernel queries need an executable.
  EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof(N), &N, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &N),
            CL_INVALID_PROGRAM_EXECUTABLE);

  cl_program Notified = nullptr;
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "-cl-mad-enable", onBuilt, &Notified), CL_SUCCESS);
  EXPECT_EQ(Notified, P);
  EXPECT_EQ(buildInfo<cl_build_status>(P, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(P, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  EXPECT_EQ(buildOptions(P), "-cl-mad-enable");
  EXPECT_EQ(buildInfo<size_t>(P, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), 0u);
  EXPECT_EQ(info<size_t>(clGetProgramInfo, P, CL_PROGRAM_NUM_KERNELS), 2u);
  EXPECT_EQ(splitNames(infoString(clGetProgramInfo, P, CL_PROGRAM_KERNEL_NAMES)),
            (std::set<std::string>{"scale", "fill"}));
  size_t IlSize = 99;
  EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_IL, 0, nullptr, &IlSize), CL_SUCCESS);
  EXPECT_EQ(IlSize, 0u);
  EXPECT_EQ(info<cl_bool>(clGetProgramInfo, P, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT),
            cl_bool(CL_FALSE));
  EXPECT_EQ(runFill(P, 8, 4), std::vector<int>(8, 4));
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

TEST_F(Programs, ProgramHandleErrors) {
  cl_program NotProgram = wrongHandle<cl_program>(Context);
  cl_uint V;
  EXPECT_EQ(clRetainProgram(NotProgram), CL_INVALID_PROGRAM);
  EXPECT_EQ(clReleaseProgram(NotProgram), CL_INVALID_PROGRAM);
  EXPECT_EQ(clGetProgramInfo(NotProgram, CL_PROGRAM_REFERENCE_COUNT, sizeof(V), &V, nullptr),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(
      clGetProgramBuildInfo(NotProgram, Device, CL_PROGRAM_BUILD_STATUS, sizeof(V), &V, nullptr),
      CL_INVALID_PROGRAM);
  EXPECT_EQ(clBuildProgram(NotProgram, 0, nullptr, "", nullptr, nullptr), CL_INVALID_PROGRAM);
  cl_int Err;
  EXPECT_EQ(clCreateKernel(NotProgram, "fill", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROGRAM);
  EXPECT_EQ(clCreateKernelsInProgram(NotProgram, 0, nullptr, &V), CL_INVALID_PROGRAM);

  cl_program P = fromSource(TwoKernels);
  EXPECT_EQ(clGetProgramInfo(P, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_REFERENCE_COUNT, 1, &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramBuildInfo(P, Device, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramBuildInfo(P, wrongHandle<cl_device_id>(Context), CL_PROGRAM_BUILD_STATUS,
                                  sizeof(V), &V, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

TEST_F(Programs, CreateWithSourceErrors) {
  cl_int Err;
  const char *Src = TwoKernels;
  const char *Null[] = {Src, nullptr};
  EXPECT_EQ(clCreateProgramWithSource(Context, 0, &Src, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithSource(Context, 1, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithSource(Context, 2, Null, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithSource(wrongHandle<cl_context>(Queue), 1, &Src, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
}

TEST_F(Programs, SourceFromSeveralStringsAndLengths) {
  // Lengths cut the strings; a zero length means NUL-terminated.
  const char *Parts[] = {"__kernel void fill(__global int *d, int v) XXXX",
                         "{ d[get_global_id(0)] = v + EXTRA; }"};
  size_t Lengths[] = {42, 0};
  cl_int Err;
  cl_program P = clCreateProgramWithSource(Context, 2, Parts, Lengths, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(P, 0, nullptr, "-D EXTRA=2", nullptr, nullptr), CL_SUCCESS)
      << buildLog(P);
  EXPECT_EQ(runFill(P, 4, 5), std::vector<int>(4, 7));
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

TEST_F(Programs, DefinesAndIncludeDirectories) {
  char Dir[] = "/tmp/weft-include-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Header = std::string(Dir) + "/weft_test_values.h";
  FILE *F = std::fopen(Header.c_str(), "w");
  ASSERT_NE(F, nullptr);
  std::fputs("#define FROM_HEADER 1000\n", F);
  std::fclose(F);
  cl_program P = fromSource(R"CLC(
#include "weft_test_values.h"
__kernel void fill(__global int *d, int v) { d[get_global_id(0)] = v + FROM_HEADER + FLAG + VALUE; }
)CLC");
  std::string Options = std::string("-I ") + Dir + " -DFLAG -D VALUE=20";
  ASSERT_EQ(clBuildProgram(P, 1, &Device, Options.c_str(), nullptr, nullptr), CL_SUCCESS)
      << buildLog(P);
  EXPECT_EQ(runFill(P, 4, 1), std::vector<int>(4, 1 + 1000 + 1 + 20));
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
  std::remove(Header.c_str());
  rmdir(Dir);
}

// Regression: the in-process build cache keyed on source and options only,
// so the same source built again after its -I header changed on disk ran
// the stale executable.
TEST_F(Programs, RebuildAfterAnIncludedHeaderChangedSeesTheNewHeader) {
  char Dir[] = "/tmp/weft-include-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Header = std::string(Dir) + "/weft_changing.h";
  auto writeHeader = [&](int Value) {
    FILE *F = std::fopen(Header.c_str(), "w");
    ASSERT_NE(F, nullptr);
    std::fprintf(F, "#define FROM_HEADER %d\n", Value);
    std::fclose(F);
  };
  const char *Source = R"CLC(
#include "weft_changing.h"
__kernel void fill(__global int *d, int v) { d[get_global_id(0)] = v + FROM_HEADER; }
)CLC";
  std::string Options = std::string("-I ") + Dir;
  for (int Value : {1000, 2000, 2000, 3000}) {
    SCOPED_TRACE(Value);
    writeHeader(Value);
    cl_program P = fromSource(Source);
    ASSERT_EQ(clBuildProgram(P, 1, &Device, Options.c_str(), nullptr, nullptr), CL_SUCCESS)
        << buildLog(P);
    EXPECT_EQ(runFill(P, 4, 1), std::vector<int>(4, 1 + Value));
    EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
  }
  std::remove(Header.c_str());
  rmdir(Dir);
}

TEST_F(Programs, LanguageVersions) {
  const char *Source = R"CLC(
#if __OPENCL_VERSION__ != 310 || CL_VERSION_3_1 != 310
#error the device's version is OpenCL 3.1
#endif
__kernel void fill(__global int *d, int v) { d[get_global_id(0)] = v + __OPENCL_C_VERSION__; }
)CLC";
  struct Case {
    const char *Option;
    int Version;
  } Cases[] = {{"-cl-std=CL1.2", 120}, {"-cl-std=CL3.0", 300}, {"-cl-std=CL3.1", 310}, {"", 120}};
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Option);
    cl_program P = fromSource(Source);
    ASSERT_EQ(clBuildProgram(P, 1, &Device, C.Option, nullptr, nullptr), CL_SUCCESS) << buildLog(P);
    EXPECT_EQ(runFill(P, 2, 0), std::vector<int>(2, C.Version));
    EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
  }
}

TEST_F(Programs, OpenCLC20IsNotAcceptedWithoutDeviceSupport) {
  // CL_DEVICE_OPENCL_C_ALL_VERSIONS decides which -cl-std values build: "Calls
  // to clBuildProgram with -cl-std=CL2.0 will fail to compile the program for
  // any devices with CL_DEVICE_OPENCL_C_ALL_VERSIONS not including OpenCL C 2.0".
  size_t Size = 0;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &Size),
            CL_SUCCESS);
  std::vector<cl_name_version> All(Size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, Size, All.data(), nullptr),
            CL_SUCCESS);
  bool Has20 = false;
  for (const cl_name_version &V : All)
    Has20 |= CL_VERSION_MAJOR(V.version) == 2;
  cl_program P = fromSource(TwoKernels);
  cl_int Err = clBuildProgram(P, 1, &Device, "-cl-std=CL2.0", nullptr, nullptr);
  if (Has20)
    EXPECT_EQ(Err, CL_SUCCESS) << buildLog(P);
  else
    EXPECT_TRUE(Err == CL_BUILD_PROGRAM_FAILURE || Err == CL_INVALID_BUILD_OPTIONS)
        << "-cl-std=CL2.0 built for a device without OpenCL C 2.0 (error " << Err << ")";
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

TEST_F(Programs, BuildFailureHasTheErrorInTheLog) {
  cl_program P = fromSource(R"CLC(
__kernel void broken(__global int *d) { d[0] = undeclared_weft_identifier; }
)CLC");
  EXPECT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(buildInfo<cl_build_status>(P, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  EXPECT_NE(buildLog(P).find("undeclared_weft_identifier"), std::string::npos) << buildLog(P);
  cl_int Err;
  EXPECT_EQ(clCreateKernel(P, "broken", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROGRAM_EXECUTABLE);
  cl_uint N;
  EXPECT_EQ(clCreateKernelsInProgram(P, 0, nullptr, &N), CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

// Regression: a kernel with thousands of nested unbraced `if`s overflowed
// the stack inside the in-process front end (SIGSEGV, the host process
// gone). Builds run on a thread of their own with a large stack, so the
// program builds and runs, also when clBuildProgram is called from a
// thread whose own stack is small.
TEST_F(Programs, DeeplyNestedProgramsBuildFromAThreadWithASmallStack) {
  const int Depth = 4000; // some 1 MiB of stack in the front end: 4 times the caller's
  std::string Source = "__kernel void nested(__global int *o) {\n  int x = o[0];\n  ";
  for (int I = 0; I < Depth; ++I)
    Source += "if (x > " + std::to_string(I) + ") ";
  Source += "o[1] = 7;\n}\n";
  cl_program P = fromSource(Source.c_str());
  struct Build {
    cl_program P;
    cl_device_id Device;
    cl_int Result;
  } B{P, Device, CL_SUCCESS};
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, 256 * 1024);
  pthread_t Thread;
  ASSERT_EQ(pthread_create(
                &Thread, &Attr,
                [](void *Arg) -> void * {
                  auto *B = static_cast<Build *>(Arg);
                  B->Result = clBuildProgram(B->P, 1, &B->Device, "", nullptr, nullptr);
                  return nullptr;
                },
                &B),
            0);
  pthread_attr_destroy(&Attr);
  pthread_join(Thread, nullptr);
  ASSERT_EQ(B.Result, CL_SUCCESS) << buildLog(P);
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "nested", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  int Init[2] = {Depth, 0};
  cl_mem M = buffer(sizeof(Init), CL_MEM_COPY_HOST_PTR, Init);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &M), CL_SUCCESS);
  ASSERT_EQ(clEnqueueTask(Queue, K, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read<int>(M, 2)[1], 7);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

// Nesting deeper than even the build thread's stack holds fails the build
// with a log, and the process lives on: the stack overflow's fault is
// handled on the build thread's alternate signal stack.
TEST_F(Programs, NestingDeeperThanTheCompilersStackFailsTheBuild) {
  WEFT_EXPECT_COMPILER_CRASHES();
  std::string Source = "__kernel void deep(__global int *o) { o[0] = ";
  Source += std::string(4000000, '~');
  Source += "o[1]; }\n";
  cl_program P = fromSource(Source.c_str());
  EXPECT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(P).find("internal compiler error"), std::string::npos) << buildLog(P);
  clReleaseProgram(P);
  // The next build is unaffected.
  cl_program Fine = fromSource("__kernel void fine(__global int *o) { o[0] = 1; }");
  EXPECT_EQ(clBuildProgram(Fine, 1, &Device, "", nullptr, nullptr), CL_SUCCESS);
  clReleaseProgram(Fine);
}

TEST_F(Programs, InvalidBuildOptions) {
  for (const char *Options : {"-cl-no-such-option", "-cl-std=CL9.9", "-D", "--weft-bogus"}) {
    SCOPED_TRACE(Options);
    cl_program P = fromSource(TwoKernels);
    EXPECT_EQ(clBuildProgram(P, 1, &Device, Options, nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
    EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
  }
}

TEST_F(Programs, BuildErrors) {
  cl_program P = fromSource(TwoKernels);
  EXPECT_EQ(clBuildProgram(P, 1, nullptr, "", nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clBuildProgram(P, 0, &Device, "", nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clBuildProgram(P, 0, nullptr, "", nullptr, this), CL_INVALID_VALUE);
  cl_device_id NotDevice = wrongHandle<cl_device_id>(Context);
  EXPECT_EQ(clBuildProgram(P, 1, &NotDevice, "", nullptr, nullptr), CL_INVALID_DEVICE);
  ASSERT_EQ(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  // A kernel is attached: the program cannot be rebuilt.
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "fill", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(P, 0, nullptr, "", nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(P, 0, nullptr, "-DREBUILT", nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

// What attaches a kernel to its program is the application's hold on it.
// A command still waiting to run the kernel the application released does
// not keep the program from being rebuilt (the OpenCL-CTS's
// multiple_build_program releases its kernel right after clFinish, before
// a worker may have dropped the command), and that command still runs the
// code of the build it was enqueued with.
TEST_F(Programs, RebuildWhileAReleasedKernelStillHasACommand) {
  const char *Source = "__kernel void k(__global int *out) { out[get_global_id(0)] = VALUE; }";
  cl_int Err;
  cl_program P = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(P, 0, nullptr, "-DVALUE=1", nullptr, nullptr), CL_SUCCESS);
  cl_kernel K = clCreateKernel(P, "k", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  const size_t N = 64;
  cl_mem First = buffer(N * sizeof(int)), Second = buffer(N * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &First), CL_SUCCESS);
  cl_event Gate = clCreateUserEvent(Context, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 1, &Gate, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseKernel(K), CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(P, 0, nullptr, "-DVALUE=2", nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(Gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  EXPECT_EQ(read<int>(First, N), std::vector<int>(N, 1));
  cl_kernel Rebuilt = clCreateKernel(P, "k", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Rebuilt, 0, sizeof(cl_mem), &Second), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Rebuilt, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(Second, N), std::vector<int>(N, 2));
  // Held by the application again: attached.
  EXPECT_EQ(clBuildProgram(P, 0, nullptr, "-DVALUE=3", nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clReleaseKernel(Rebuilt), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(Gate), CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

TEST_F(Programs, CreateKernelErrors) {
  cl_program P = build(TwoKernels);
  OwnedPrograms.push_back(P);
  cl_int Err;
  EXPECT_EQ(clCreateKernel(P, "no_such_kernel", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_KERNEL_NAME);
  EXPECT_EQ(clCreateKernel(P, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_program Unbuilt = fromSource(TwoKernels);
  EXPECT_EQ(clCreateKernel(Unbuilt, "fill", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(clReleaseProgram(Unbuilt), CL_SUCCESS);
}

TEST_F(Programs, CreateKernelsInProgram) {
  cl_program P = build(TwoKernels);
  OwnedPrograms.push_back(P);
  cl_uint N = 0;
  ASSERT_EQ(clCreateKernelsInProgram(P, 0, nullptr, &N), CL_SUCCESS);
  EXPECT_EQ(N, 2u);
  cl_kernel Ks[2];
  EXPECT_EQ(clCreateKernelsInProgram(P, 1, Ks, nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clCreateKernelsInProgram(P, 2, Ks, &N), CL_SUCCESS);
  std::set<std::string> Names;
  for (cl_kernel K : Ks)
    Names.insert(infoString(clGetKernelInfo, K, CL_KERNEL_FUNCTION_NAME));
  EXPECT_EQ(Names, (std::set<std::string>{"scale", "fill"}));
  // Created together, the kernels were compiled together
  // (Executable::compileAhead): both run.
  const bool FillFirst = infoString(clGetKernelInfo, Ks[0], CL_KERNEL_FUNCTION_NAME) == "fill";
  cl_kernel Fill = Ks[FillFirst ? 0 : 1], Scale = Ks[FillFirst ? 1 : 0];
  cl_int Err;
  cl_mem Data = clCreateBuffer(Context, CL_MEM_READ_WRITE, 4 * sizeof(int), nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  const int Value = 3;
  const float Factor = 2.0f;
  ASSERT_EQ(clSetKernelArg(Fill, 0, sizeof(Data), &Data), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Fill, 1, sizeof(Value), &Value), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Scale, 0, sizeof(Data), &Data), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Scale, 1, sizeof(Factor), &Factor), CL_SUCCESS);
  const size_t Four = 4;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Fill, 1, nullptr, &Four, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Scale, 1, nullptr, &Four, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  float Out[4] = {};
  ASSERT_EQ(clEnqueueReadBuffer(Queue, Data, CL_TRUE, 0, sizeof(Out), Out, 0, nullptr, nullptr),
            CL_SUCCESS);
  // fill wrote the int 3; scale multiplied its bits, read as a float, by 2.
  float Three;
  std::memcpy(&Three, &Value, sizeof(Three));
  for (float V : Out)
    EXPECT_EQ(V, Three * 2.0f);
  EXPECT_EQ(clReleaseMemObject(Data), CL_SUCCESS);
  for (cl_kernel K : Ks)
    EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
}

TEST_F(Programs, BinaryRoundTrip) {
  cl_program P = fromSource(TwoKernels);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "-DUNUSED=1", nullptr, nullptr), CL_SUCCESS);
  size_t Size = 0;
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr), CL_SUCCESS);
  ASSERT_GT(Size, 0u);
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptrs[1] = {Binary.data()};
  size_t Ret = 0;
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptrs), Ptrs, &Ret), CL_SUCCESS);
  EXPECT_EQ(Ret, sizeof(Ptrs));
  EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARIES, 1, Ptrs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);

  const unsigned char *Bin = Binary.data();
  cl_int Status = 12345, Err;
  cl_program Q = clCreateProgramWithBinary(Context, 1, &Device, &Size, &Bin, &Status, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(Status, CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(Q, 1, &Device, nullptr, nullptr, nullptr), CL_SUCCESS) << buildLog(Q);
  EXPECT_EQ(info<size_t>(clGetProgramInfo, Q, CL_PROGRAM_NUM_KERNELS), 2u);
  EXPECT_EQ(runFill(Q, 16, -9), std::vector<int>(16, -9));
  EXPECT_EQ(clReleaseProgram(Q), CL_SUCCESS);
}

// The binary of an executable carries the options its source needs (a
// define, -cl-std=CL2.0): built again with none, and its own binary taken
// again, it is the same program. (Rebuilt with the new options, it failed.)
TEST_F(Programs, BinaryKeepsTheOptionsItWasCompiledWith) {
  const char *Source = R"(
__kernel void fill(__global int *d, int v) {
  __global int *generic_ok = d; // a generic-space local: OpenCL C 2.0
  generic_ok[get_global_id(0)] = v + VALUE;
})";
  cl_program P = fromSource(Source);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "-cl-std=CL2.0 -DVALUE=100", nullptr, nullptr),
            CL_SUCCESS)
      << buildLog(P);
  auto binaryOf = [&](cl_program From) {
    size_t Size = 0;
    EXPECT_EQ(clGetProgramInfo(From, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> Binary(Size);
    unsigned char *Ptrs[1] = {Binary.data()};
    EXPECT_EQ(clGetProgramInfo(From, CL_PROGRAM_BINARIES, sizeof(Ptrs), Ptrs, nullptr), CL_SUCCESS);
    return Binary;
  };
  auto fromBinary = [&](const std::vector<unsigned char> &Binary) {
    const unsigned char *Bin = Binary.data();
    size_t Size = Binary.size();
    cl_int Err;
    cl_program Q = clCreateProgramWithBinary(Context, 1, &Device, &Size, &Bin, nullptr, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(Q, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(Q);
    return Q;
  };
  cl_program Q = fromBinary(binaryOf(P));
  EXPECT_EQ(runFill(Q, 8, 5), std::vector<int>(8, 105));
  cl_program R = fromBinary(binaryOf(Q));
  EXPECT_EQ(runFill(R, 8, 6), std::vector<int>(8, 106));
  for (cl_program X : {P, Q, R})
    EXPECT_EQ(clReleaseProgram(X), CL_SUCCESS);
}

TEST_F(Programs, ForeignAndMalformedBinaries) {
  cl_int Status = 12345, Err;
  // The first bytes of an x86-64 ELF object.
  const unsigned char Elf[] = {0x7f, 'E', 'L',  'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                               1,    0,   0x3e, 0,   1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const unsigned char *Bin = Elf;
  size_t Size = sizeof(Elf);
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, &Size, &Bin, &Status, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_BINARY);
  EXPECT_EQ(Status, CL_INVALID_BINARY);

  // A real binary cut short.
  cl_program P = build(TwoKernels);
  OwnedPrograms.push_back(P);
  size_t Full = 0;
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Full), &Full, nullptr), CL_SUCCESS);
  std::vector<unsigned char> Binary(Full);
  unsigned char *Ptrs[1] = {Binary.data()};
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptrs), Ptrs, nullptr), CL_SUCCESS);
  Bin = Binary.data();
  Size = Full - 3;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, &Size, &Bin, &Status, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_BINARY);

  // Argument errors.
  Size = Full;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, nullptr, &Bin, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBinary(Context, 0, &Device, &Size, &Bin, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  size_t Zero = 0;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, &Zero, &Bin, &Status, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(Status, CL_INVALID_VALUE);
  const unsigned char *NullBin = nullptr;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, &Size, &NullBin, &Status, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_device_id NotDevice = wrongHandle<cl_device_id>(Queue);
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &NotDevice, &Size, &Bin, &Status, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_DEVICE);
  EXPECT_EQ(clCreateProgramWithBinary(wrongHandle<cl_context>(Queue), 1, &Device, &Size, &Bin,
                                      &Status, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
}

TEST_F(Programs, BuiltInKernelsAndProgramCallbacks) {
  cl_int Err;
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(Context, 1, &Device, "weft_nothing", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(Context, 1, &Device, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(Context, 0, nullptr, "x", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_program P = fromSource(TwoKernels);
  // No program-scope destructors: OpenCL 3.0 allows CL_INVALID_OPERATION.
  EXPECT_EQ(clSetProgramReleaseCallback(P, onBuilt, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clSetProgramReleaseCallback(P, nullptr, nullptr), CL_INVALID_VALUE);
  int Value = 1;
  EXPECT_EQ(clSetProgramSpecializationConstant(P, 0, sizeof(Value), &Value), CL_INVALID_OPERATION);
  EXPECT_EQ(clUnloadPlatformCompiler(Platform), CL_SUCCESS);
  EXPECT_EQ(clUnloadPlatformCompiler(wrongHandle<cl_platform_id>(Device)), CL_INVALID_PLATFORM);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

TEST_F(Programs, CompileAndLink) {
  // clCompileProgram and clLinkProgram are core in OpenCL 3.0 and the
  // device reports CL_DEVICE_LINKER_AVAILABLE.
  cl_program P = fromSource(TwoKernels);
  cl_int Err = clCompileProgram(P, 1, &Device, "", 0, nullptr, nullptr, nullptr, nullptr);
  ASSERT_EQ(Err, CL_SUCCESS) << buildLog(P);
  cl_program Linked = clLinkProgram(Context, 1, &Device, "", 1, &P, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(runFill(Linked, 4, 2), std::vector<int>(4, 2));
  EXPECT_EQ(clReleaseProgram(Linked), CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(P), CL_SUCCESS);
}

namespace {

// A kernel in one object calling a function defined in another.
const char *CallsHelper = R"CLC(
int helper(int x);
__kernel void fill(__global int *data, int value) {
  data[get_global_id(0)] = helper(value) + (int)get_global_id(0);
}
)CLC";
const char *DefinesHelper = "int helper(int x) { return x * 10; }\n";
const std::vector<int> HelperResult = {30, 31, 32, 33}; // fill(3) over 4 items

int NotifyCount = 0;
void CL_CALLBACK countNotify(cl_program, void *Data) { ++*static_cast<int *>(Data); }

} // namespace

TEST_F(Programs, CompiledObjectIsNotAnExecutable) {
  cl_program P = compiled(TwoKernels);
  EXPECT_EQ(buildInfo<cl_build_status>(P, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(P, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  size_t N = 0;
  EXPECT_EQ(clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof(N), &N, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  cl_int Err;
  EXPECT_EQ(clCreateKernel(P, "fill", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program Exe = linked({P});
  EXPECT_EQ(buildInfo<cl_program_binary_type>(Exe, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  EXPECT_EQ(info<size_t>(clGetProgramInfo, Exe, CL_PROGRAM_NUM_KERNELS), 2u);
}

TEST_F(Programs, CompileWithEmbeddedHeaders) {
  cl_program Defs = fromSource("#define OFFSET 3\n");
  cl_program Twice =
      fromSource("#include \"defs.h\"\nint twice(int x) { return 2 * x + OFFSET; }\n");
  OwnedPrograms.insert(OwnedPrograms.end(), {Defs, Twice});
  cl_program Headers[] = {Defs, Twice};
  const char *Names[] = {"defs.h", "foo/bar/twice.h"};
  cl_program P = fromSource(R"CLC(
#include "foo/bar/twice.h"
__kernel void fill(__global int *data, int value) { data[get_global_id(0)] = twice(value); }
)CLC");
  OwnedPrograms.push_back(P);
  ASSERT_EQ(clCompileProgram(P, 1, &Device, "-DUNUSED", 2, Headers, Names, nullptr, nullptr),
            CL_SUCCESS)
      << buildLog(P);
  EXPECT_EQ(buildOptions(P), "-DUNUSED");
  EXPECT_EQ(runFill(linked({P}), 4, 5), std::vector<int>(4, 13));
  // Without the headers the same source does not compile.
  cl_program Bare = fromSource("#include \"foo/bar/twice.h\"\nkernel void k() {}\n");
  OwnedPrograms.push_back(Bare);
  EXPECT_EQ(clCompileProgram(Bare, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(Bare).find("twice.h"), std::string::npos) << buildLog(Bare);
}

TEST_F(Programs, LinkTwoObjects) {
  cl_program A = compiled(CallsHelper), B = compiled(DefinesHelper);
  NotifyCount = 0;
  cl_program In[] = {A, B};
  cl_int Err;
  cl_program Exe =
      clLinkProgram(Context, 0, nullptr, nullptr, 2, In, countNotify, &NotifyCount, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(Exe);
  EXPECT_EQ(NotifyCount, 1);
  EXPECT_EQ(buildInfo<cl_build_status>(Exe, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  EXPECT_EQ(runFill(Exe, 4, 3), HelperResult);
  // The helper alone has no definition: linking A by itself fails.
  cl_program Alone = clLinkProgram(Context, 0, nullptr, "", 1, &A, nullptr, nullptr, &Err);
  EXPECT_EQ(Err, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(Alone, nullptr);
  OwnedPrograms.push_back(Alone);
  EXPECT_NE(buildLog(Alone).find("helper"), std::string::npos) << buildLog(Alone);
}

TEST_F(Programs, LinkLibraryWithObject) {
  cl_program Lib = linked({compiled(DefinesHelper)}, "-create-library -enable-link-options");
  EXPECT_EQ(buildInfo<cl_program_binary_type>(Lib, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  EXPECT_EQ(buildInfo<cl_build_status>(Lib, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  size_t N = 0;
  EXPECT_EQ(clGetProgramInfo(Lib, CL_PROGRAM_NUM_KERNELS, sizeof(N), &N, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program Exe = linked({compiled(CallsHelper), Lib}, "-cl-fast-relaxed-math");
  EXPECT_EQ(buildOptions(Exe), "-cl-fast-relaxed-math");
  EXPECT_EQ(runFill(Exe, 4, 3), HelperResult);
}

TEST_F(Programs, CompiledObjectBinaryRoundTrip) {
  cl_program Object = fromBinary(binaryOf(compiled(CallsHelper)));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(Object, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  cl_program Library = fromBinary(binaryOf(linked({compiled(DefinesHelper)}, "-create-library")));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(Library, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program Exe = linked({Object, Library});
  EXPECT_EQ(runFill(Exe, 4, 3), HelperResult);
  // A linked executable has no source: its binary carries the linked code.
  cl_program Again = fromBinary(binaryOf(Exe));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(Again, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_EQ(clBuildProgram(Again, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
      << buildLog(Again);
  EXPECT_EQ(runFill(Again, 4, 3), HelperResult);
}

TEST_F(Programs, CompileErrors) {
  cl_program P = fromSource(TwoKernels);
  OwnedPrograms.push_back(P);
  auto compile = [&](cl_program Prog, cl_uint NumDevices, const cl_device_id *Devices,
                     const char *Options, cl_uint NumHeaders, const cl_program *Headers,
                     const char **Names, void *UserData = nullptr) {
    return clCompileProgram(Prog, NumDevices, Devices, Options, NumHeaders, Headers, Names, nullptr,
                            UserData);
  };
  EXPECT_EQ(compile(nullptr, 0, nullptr, "", 0, nullptr, nullptr), CL_INVALID_PROGRAM);
  EXPECT_EQ(compile(wrongHandle<cl_program>(Context), 0, nullptr, "", 0, nullptr, nullptr),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(compile(P, 1, nullptr, "", 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(compile(P, 0, &Device, "", 0, nullptr, nullptr), CL_INVALID_VALUE);
  cl_device_id NotADevice = wrongHandle<cl_device_id>(Context);
  EXPECT_EQ(compile(P, 1, &NotADevice, "", 0, nullptr, nullptr), CL_INVALID_DEVICE);
  cl_program Header = P;
  const char *Name = "h.h";
  EXPECT_EQ(compile(P, 0, nullptr, "", 0, &Header, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(compile(P, 0, nullptr, "", 0, nullptr, &Name), CL_INVALID_VALUE);
  EXPECT_EQ(compile(P, 0, nullptr, "", 1, nullptr, &Name), CL_INVALID_VALUE);
  EXPECT_EQ(compile(P, 0, nullptr, "", 1, &Header, nullptr), CL_INVALID_VALUE);
  int Data = 0;
  EXPECT_EQ(compile(P, 0, nullptr, "", 0, nullptr, nullptr, &Data), CL_INVALID_VALUE);
  EXPECT_EQ(compile(P, 0, nullptr, "-cl-no-such-option", 0, nullptr, nullptr),
            CL_INVALID_COMPILER_OPTIONS);

  // "CL_INVALID_OPERATION if program has no source": from a binary.
  cl_program FromBin = fromBinary(binaryOf(compiled(TwoKernels)));
  EXPECT_EQ(compile(FromBin, 0, nullptr, "", 0, nullptr, nullptr), CL_INVALID_OPERATION);

  // "CL_INVALID_OPERATION if there are kernel objects attached to program."
  cl_program Built = build(TwoKernels);
  OwnedPrograms.push_back(Built);
  cl_int Err;
  cl_kernel K = clCreateKernel(Built, "fill", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(compile(Built, 0, nullptr, "", 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clReleaseKernel(K), CL_SUCCESS);
  EXPECT_EQ(compile(Built, 0, nullptr, "", 0, nullptr, nullptr), CL_SUCCESS);

  // "CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile": the
  // status is CL_BUILD_ERROR and the log has the compiler's message.
  cl_program Bad = fromSource("kernel void k(global int *p) { p[0] = not_declared; }");
  OwnedPrograms.push_back(Bad);
  NotifyCount = 0;
  EXPECT_EQ(clCompileProgram(Bad, 0, nullptr, "", 0, nullptr, nullptr, countNotify, &NotifyCount),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_EQ(NotifyCount, 1);
  EXPECT_EQ(buildInfo<cl_build_status>(Bad, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(Bad, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_NONE));
  EXPECT_NE(buildLog(Bad).find("not_declared"), std::string::npos) << buildLog(Bad);
}

TEST_F(Programs, LinkErrors) {
  cl_program Object = compiled(TwoKernels);
  cl_int Err = CL_SUCCESS;
  auto link = [&](cl_context C, cl_uint NumPrograms, const cl_program *In, const char *Options = "",
                  cl_uint NumDevices = 0, const cl_device_id *Devices = nullptr,
                  void *UserData = nullptr) {
    cl_program P =
        clLinkProgram(C, NumDevices, Devices, Options, NumPrograms, In, nullptr, UserData, &Err);
    if (P)
      OwnedPrograms.push_back(P);
    return P;
  };
  EXPECT_EQ(link(nullptr, 1, &Object), nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
  EXPECT_EQ(link(Context, 0, &Object), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(link(Context, 1, nullptr), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(link(Context, 1, &Object, "", 1, nullptr), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_device_id NotADevice = wrongHandle<cl_device_id>(Context);
  EXPECT_EQ(link(Context, 1, &Object, "", 1, &NotADevice), nullptr);
  EXPECT_EQ(Err, CL_INVALID_DEVICE);
  int Data = 0;
  EXPECT_EQ(link(Context, 1, &Object, "", 0, nullptr, &Data), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_program NotAProgram[] = {Object, wrongHandle<cl_program>(Context)};
  EXPECT_EQ(link(Context, 2, NotAProgram), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROGRAM);
  // Inputs must be compiled objects or libraries: not bare source, not an
  // executable.
  cl_program Source = fromSource(TwoKernels);
  OwnedPrograms.push_back(Source);
  EXPECT_EQ(link(Context, 1, &Source), nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  cl_program Built = build(TwoKernels);
  OwnedPrograms.push_back(Built);
  EXPECT_EQ(link(Context, 1, &Built), nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  for (const char *Bad :
       {"-cl-no-such-option", "-enable-link-options", "-DFOO", "-cl-opt-disable"}) {
    EXPECT_EQ(link(Context, 1, &Object, Bad), nullptr) << Bad;
    EXPECT_EQ(Err, CL_INVALID_LINKER_OPTIONS) << Bad;
  }
  // Two definitions of one kernel: the link fails, but the program is made
  // and its log says why.
  cl_program Twice[] = {Object, compiled(TwoKernels)};
  cl_program Failed = link(Context, 2, Twice);
  EXPECT_EQ(Err, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(Failed, nullptr);
  EXPECT_EQ(buildInfo<cl_build_status>(Failed, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  EXPECT_NE(buildLog(Failed).find("multiply defined"), std::string::npos) << buildLog(Failed);
  EXPECT_EQ(clCreateKernel(Failed, "fill", &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROGRAM_EXECUTABLE);
}

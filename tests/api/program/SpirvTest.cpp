// clCreateProgramWithIL and everything an IL program goes through, via the
// ICD loader: SPIR-V built and run (barriers, __local memory, atomics, a
// helper function), CL_PROGRAM_IL, specialization constants and their
// errors, clCompileProgram + clLinkProgram, program binaries of IL builds,
// SPIR-V 1.1/1.4 instructions the translator cannot decode run after lowering,
// and malformed or unsupported modules refused with CL_INVALID_VALUE (never
// a crash: the translator asserts on what it cannot decode).
#include "../support/Sanitizer.h"
#include "ApiTest.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace weft::test;

namespace {

class Spirv : public WithQueue {
protected:
  cl_program fromIL(const std::vector<unsigned char> &IL, cl_int Want = CL_SUCCESS) {
    cl_int Err;
    cl_program P = clCreateProgramWithIL(Context, IL.data(), IL.size(), &Err);
    EXPECT_EQ(Err, Want);
    if (P)
      OwnedPrograms.push_back(P);
    return P;
  }

  /// Runs the one-argument kernel Name of P over N work-items and returns
  /// the uints it wrote.
  std::vector<cl_uint> runOut(cl_program P, const char *Name, size_t N) {
    cl_kernel K = kernelOf(P, Name);
    if (!K)
      return {};
    cl_mem Out = buffer(N * sizeof(cl_uint));
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    return read<cl_uint>(Out, N);
  }

  /// Runs group_sums over 256 work-items in groups of 64 and checks it.
  void checkGroupSums(cl_program P) {
    cl_int Err;
    cl_kernel K = clCreateKernel(P, "group_sums", &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
    OwnedKernels.push_back(K);
    const size_t G = 256, L = 64;
    std::vector<int> In(G);
    for (size_t I = 0; I < G; ++I)
      In[I] = int(I * 3 + 1);
    cl_mem InBuf = buffer(G * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
    std::vector<int> Zero(1 + G / L, 0);
    cl_mem Out = buffer(Zero.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, Zero.data());
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 2, L * sizeof(int), nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &L, 0, nullptr, nullptr),
              CL_SUCCESS);
    auto Got = read<int>(Out, Zero.size());
    int Total = 0;
    for (size_t Gr = 0; Gr < G / L; ++Gr) {
      int S = 0;
      for (size_t I = Gr * L; I < (Gr + 1) * L; ++I)
        S += In[I];
      EXPECT_EQ(Got[1 + Gr], S) << "group " << Gr;
      Total += S;
    }
    EXPECT_EQ(Got[0], Total);
  }

  std::vector<unsigned> runSpec(cl_program P, size_t G) {
    cl_int Err;
    cl_kernel K = clCreateKernel(P, "spec", &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    OwnedKernels.push_back(K);
    cl_mem Out = buffer(G * sizeof(unsigned));
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    return read<unsigned>(Out, G);
  }
};

} // namespace

TEST_F(Spirv, DeviceListsSpirvVersions) {
  size_t Size = 0;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_IL_VERSION, 0, nullptr, &Size), CL_SUCCESS);
  std::string Text(Size, '\0');
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_IL_VERSION, Size, Text.data(), nullptr), CL_SUCCESS);
  EXPECT_NE(Text.find("SPIR-V_1.0"), std::string::npos) << Text;
  EXPECT_NE(Text.find("SPIR-V_1.4"), std::string::npos) << Text;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &Size), CL_SUCCESS);
  EXPECT_EQ(Size, 5 * sizeof(cl_name_version));
}

TEST_F(Spirv, BuildsAndRunsAKernel) {
  auto IL = readSpirv("kernels.spv");
  cl_program P = fromIL(IL);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  checkGroupSums(P);
  // CL_PROGRAM_IL gives the module back, byte for byte.
  size_t Size = 0;
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_IL, 0, nullptr, &Size), CL_SUCCESS);
  std::vector<unsigned char> Back(Size);
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_IL, Size, Back.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(Back, IL);
  // And the kernel names of the module.
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &Size), CL_SUCCESS);
  std::string Names(Size, '\0');
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_KERNEL_NAMES, Size, Names.data(), nullptr), CL_SUCCESS);
  EXPECT_NE(Names.find("group_sums"), std::string::npos) << Names;
  EXPECT_NE(Names.find("scale"), std::string::npos) << Names;
}

// -cl-uniform-work-group-size holds for a program from IL as for one from
// source: a launch whose global size is not a multiple of its local size
// is refused; without the option it runs.
TEST_F(Spirv, UniformWorkGroupSizeOptionHoldsForIl) {
  auto IL = readSpirv("kernels.spv");
  for (bool Uniform : {true, false}) {
    cl_program P = fromIL(IL);
    ASSERT_EQ(clBuildProgram(P, 1, &Device, Uniform ? "-cl-uniform-work-group-size" : "", nullptr,
                             nullptr),
              CL_SUCCESS)
        << buildLog(P);
    cl_int Err;
    cl_kernel K = clCreateKernel(P, "scale", &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
    OwnedKernels.push_back(K);
    std::vector<float> X(10, 1.0f);
    cl_mem Buf = buffer(X.size() * sizeof(float), CL_MEM_COPY_HOST_PTR, X.data());
    float F = 2.0f;
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof(float), &F), CL_SUCCESS);
    const size_t Global = 10, Local = 4;
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
              Uniform ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS)
        << Uniform;
  }
}

TEST_F(Spirv, ProgramBinaryOfAnILBuildRebuildsWithoutTheIL) {
  cl_program P = fromIL(readSpirv("kernels.spv"));
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  size_t Size = 0;
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  ASSERT_EQ(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr, nullptr), CL_SUCCESS);
  cl_int Err, Status;
  const unsigned char *Bin = Binary.data();
  cl_program Q = clCreateProgramWithBinary(Context, 1, &Device, &Size, &Bin, &Status, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(Q);
  ASSERT_EQ(clBuildProgram(Q, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(Q);
  checkGroupSums(Q);
}

TEST_F(Spirv, CompileAndLinkAnILProgram) {
  cl_program P = fromIL(readSpirv("kernels.spv"));
  ASSERT_EQ(clCompileProgram(P, 1, &Device, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
      << buildLog(P);
  cl_int Err;
  cl_program Linked = clLinkProgram(Context, 1, &Device, "", 1, &P, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(Linked);
  checkGroupSums(Linked);
}

TEST_F(Spirv, SpecializationConstants) {
  auto IL = readSpirv("spec_constants.spv");
  cl_program Default = fromIL(IL);
  ASSERT_EQ(clBuildProgram(Default, 1, &Device, "", nullptr, nullptr), CL_SUCCESS)
      << buildLog(Default);
  auto Got = runSpec(Default, 16);
  for (unsigned I = 0; I < 16; ++I)
    EXPECT_EQ(Got[I], 7u + 1000u + I);

  cl_program Set = fromIL(IL);
  cl_uint Three = 42;
  cl_ulong Five = 5000;
  ASSERT_EQ(clSetProgramSpecializationConstant(Set, 3, sizeof(Three), &Three), CL_SUCCESS);
  ASSERT_EQ(clSetProgramSpecializationConstant(Set, 5, sizeof(Five), &Five), CL_SUCCESS);
  EXPECT_EQ(clSetProgramSpecializationConstant(Set, 4, sizeof(Three), &Three), CL_INVALID_SPEC_ID);
  EXPECT_EQ(clSetProgramSpecializationConstant(Set, 3, sizeof(Five), &Five), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(Set, 3, sizeof(Three), nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clBuildProgram(Set, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(Set);
  Got = runSpec(Set, 16);
  for (unsigned I = 0; I < 16; ++I)
    EXPECT_EQ(Got[I], 42u + 5000u + I);

  // Only programs made from IL have specialization constants.
  cl_program Src = build(AddSource);
  OwnedPrograms.push_back(Src);
  EXPECT_EQ(clSetProgramSpecializationConstant(Src, 3, sizeof(Three), &Three),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clSetProgramSpecializationConstant(nullptr, 3, sizeof(Three), &Three),
            CL_INVALID_PROGRAM);
}

TEST_F(Spirv, MalformedModulesAreInvalidValues) {
  WEFT_EXPECT_COMPILER_CRASHES(); // some modules crash the translator
  auto IL = readSpirv("kernels.spv");
  cl_int Err;
  EXPECT_EQ(clCreateProgramWithIL(Context, nullptr, 16, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(Context, IL.data(), 0, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(nullptr, IL.data(), IL.size(), &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
  const char Garbage[] = "this is not SPIR-V, nor anything else";
  fromIL(std::vector<unsigned char>(Garbage, Garbage + 36), CL_INVALID_VALUE);
  // Truncated at every word boundary of the first 64 words: a cut inside an
  // instruction is invalid; a cut between two may leave a valid module
  // (with no kernels). Never a crash in the translator.
  for (size_t Words = 1; Words < std::min<size_t>(64, IL.size() / 4); ++Words) {
    SCOPED_TRACE(Words);
    cl_program P = clCreateProgramWithIL(Context, IL.data(), Words * 4, &Err);
    EXPECT_TRUE(Err == CL_INVALID_VALUE || (Err == CL_SUCCESS && P)) << Err;
    if (P) {
      EXPECT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS);
      clReleaseProgram(P);
    }
  }
  fromIL(std::vector<unsigned char>(IL.begin(), IL.begin() + 5 * 4 + 4), CL_INVALID_VALUE);
  fromIL(std::vector<unsigned char>(IL.begin(), IL.end() - 2), CL_INVALID_VALUE);
  // A SPIR-V version the device does not list.
  auto Future = IL;
  Future[6] = 6; // version word: 1.6
  fromIL(Future, CL_INVALID_VALUE);
  // Every single word of the module flipped in turn: each result either
  // fails cleanly or builds (some pass the validator and then trip an
  // assertion of the translator, which must become a build failure).
  for (size_t W = 1; W < IL.size() / 4; ++W) {
    auto Bad = IL;
    Bad[W * 4 + 1] ^= 0x5a;
    cl_program P = clCreateProgramWithIL(Context, Bad.data(), Bad.size(), &Err);
    if (!P) {
      EXPECT_EQ(Err, CL_INVALID_VALUE) << "word " << W;
      continue;
    }
    cl_int B = clBuildProgram(P, 1, &Device, "", nullptr, nullptr);
    EXPECT_TRUE(B == CL_SUCCESS || B == CL_BUILD_PROGRAM_FAILURE) << "word " << W << ": " << B;
    clReleaseProgram(P);
  }
}

// Regression (weft_fuzz_spirv): the translator ends the process with
// report_fatal_error when it needs a builtin under a mangled name the module
// already gave a function of another type. Weft translates such functions
// under names of its own and refuses the clash with a log instead.
TEST_F(Spirv, AFunctionHoldingABuiltinsNameWithAnotherTypeFailsTheBuild) {
  cl_program P = fromIL(readSpirv("builtin_clash.spv"));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(P).find("_Z28sub_group_scan_exclusive_maxm"), std::string::npos)
      << buildLog(P);
}

// The same clash between two instructions: a group operation whose result
// type is not its operand's, which SPIR-V forbids and SPIRV-Tools misses.
TEST_F(Spirv, AGroupOperationOfTwoTypesIsAnInvalidModule) {
  EXPECT_EQ(fromIL(readSpirv("mistyped_group.spv"), CL_INVALID_VALUE), nullptr);
}

// A module may still import a builtin by its mangled name: the import and
// the builtin the translator makes for OpExtInst fabs are one function.
TEST_F(Spirv, ABuiltinImportedByItsMangledNameIsTheBuiltin) {
  cl_program P = fromIL(readSpirv("builtin_import.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "imports", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  cl_mem Out = buffer(sizeof(float));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  const size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<float>(Out, 1)[0], 3.75f);
}

TEST_F(Spirv, UndecodableInstructionsAreRefused) {
  cl_program P = fromIL(readSpirv("named_barrier.spv"), CL_INVALID_VALUE);
  EXPECT_EQ(P, nullptr);
}

// What a module declares it needs must be on the device's lists
// (cl_khr_spirv_queries), whether or not it uses it:
// clCreateProgramWithIL refuses it with CL_INVALID_VALUE.
TEST_F(Spirv, UnlistedCapabilitiesExtensionsAndImportsAreRefused) {
  for (const char *Name :
       {"undeclared_capability.spv", "undeclared_extension.spv", "undeclared_import.spv"}) {
    SCOPED_TRACE(Name);
    EXPECT_EQ(fromIL(readSpirv(Name), CL_INVALID_VALUE), nullptr);
  }
}

// cl_khr_spirv_linkonce_odr: two programs each defining twice() with
// LinkOnceODR linkage link into one, with one twice().
TEST_F(Spirv, LinkOnceOdrFunctionsMergeAtLink) {
  cl_program Parts[2] = {fromIL(readSpirv("linkonce_a.spv")), fromIL(readSpirv("linkonce_b.spv"))};
  for (cl_program Part : Parts) {
    ASSERT_NE(Part, nullptr);
    ASSERT_EQ(clCompileProgram(Part, 1, &Device, "", 0, nullptr, nullptr, nullptr, nullptr),
              CL_SUCCESS)
        << buildLog(Part);
  }
  cl_int Err;
  cl_program Linked = clLinkProgram(Context, 1, &Device, "", 2, Parts, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(Linked);
  std::vector<cl_uint> Got = runOut(Linked, "k", 100);
  for (cl_uint I = 0; I < Got.size(); ++I)
    EXPECT_EQ(Got[I], 2 * I + 1) << I;
}

// cl_khr_spirv_no_integer_wrap_decoration: the decorations are read (as
// LLVM's nsw and nuw) and arithmetic that does not wrap computes as written.
TEST_F(Spirv, NoIntegerWrapDecorationsAreAccepted) {
  cl_program P = fromIL(readSpirv("no_wrap.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  std::vector<cl_uint> Got = runOut(P, "no_wrap", 1000);
  for (cl_uint I = 0; I < Got.size(); ++I)
    EXPECT_EQ(Got[I], (I + 5) * 3 - 1) << I;
}

// Scalar OpConstantNull (valid SPIR-V the translator asserts on) is lowered
// to the constant it stands for, and the kernel runs.
TEST_F(Spirv, ScalarNullConstantsAreLowered) {
  cl_program P = fromIL(readSpirv("scalar_nulls.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  std::vector<cl_uint> Got = runOut(P, "scalar_nulls", 100);
  for (cl_uint I = 0; I < Got.size(); ++I)
    EXPECT_EQ(Got[I], I) << I;
}

// A module with debug information (clang -g, llvm-spirv) imports
// OpenCL.DebugInfo.100, which the device lists and accepts.
TEST_F(Spirv, DebugInformationIsAccepted) {
  cl_program P = fromIL(readSpirv("debug_info.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "scaled", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  cl_mem Out = buffer(64 * sizeof(cl_int));
  const cl_int Factor = 3;
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(Factor), &Factor), CL_SUCCESS);
  const size_t N = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_int> Got = read<cl_int>(Out, N);
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(Got[I], cl_int(I) * Factor + 1) << I;
}

// OpPtrEqual, OpPtrNotEqual, OpPtrDiff, OpSizeOf, OpCopyLogical and a
// two-operand OpCopyMemory, which the translator cannot decode, run after
// Weft's lowering with the results the module's comment lists.
TEST_F(Spirv, NewerInstructionsAreLoweredAndRun) {
  cl_program P = fromIL(readSpirv("lowered.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "lowered", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  cl_mem Out = buffer(9 * sizeof(unsigned));
  cl_mem Elems = buffer(4 * 16);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Elems), CL_SUCCESS);
  const size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  float Three = 3.0f;
  unsigned ThreeBits;
  std::memcpy(&ThreeBits, &Three, 4);
  std::vector<unsigned> Want = {1, 1, 3, unsigned(-3), 16, 5, 1024, ThreeBits, 77};
  EXPECT_EQ(read<unsigned>(Out, 9), Want);
}

// The pipe built-ins through SPIR-V (OpReserveWritePipe, OpWritePipe with
// a reservation, OpGroupReserveReadPipe, the queries): the translator
// calls them by the names the builtin library defines.
TEST_F(Spirv, PipesMovePacketsThroughAnIlProgram) {
  cl_program P = fromIL(readSpirv("pipes.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_int Err;
  cl_kernel Produce = clCreateKernel(P, "produce", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(Produce);
  cl_kernel Query = clCreateKernel(P, "query", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(Query);
  cl_kernel Consume = clCreateKernel(P, "consume", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(Consume);
  const size_t N = 64, L = 16, One = 1;
  std::vector<int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = int(I * I + 3);
  cl_mem Src = buffer(N * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
  cl_mem Ok = buffer(N * sizeof(int)), Dst = buffer(N * sizeof(int));
  cl_mem Counts = buffer(2 * sizeof(cl_uint));
  cl_mem Pipe = clCreatePipe(Context, 0, sizeof(int), cl_uint(N), nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(Pipe);
  ASSERT_EQ(clSetKernelArg(Produce, 0, sizeof(cl_mem), &Src), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Produce, 1, sizeof(cl_mem), &Pipe), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Produce, 2, sizeof(cl_mem), &Ok), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Produce, 1, nullptr, &N, &L, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Written = read<int>(Ok, N);
  EXPECT_EQ(std::count(Written.begin(), Written.end(), 1), long(N));
  ASSERT_EQ(clSetKernelArg(Query, 0, sizeof(cl_mem), &Pipe), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Query, 1, sizeof(cl_mem), &Counts), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Query, 1, nullptr, &One, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<cl_uint>(Counts, 2), (std::vector<cl_uint>{cl_uint(N), cl_uint(N)}));
  ASSERT_EQ(clSetKernelArg(Consume, 0, sizeof(cl_mem), &Pipe), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Consume, 1, sizeof(cl_mem), &Dst), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Consume, 1, nullptr, &N, &L, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Out = read<int>(Dst, N);
  std::sort(Out.begin(), Out.end());
  EXPECT_EQ(Out, In) << "every packet once (In is sorted)";
}

// Device-side enqueue through SPIR-V (OpEnqueueKernel with events and a
// __local argument, OpEnqueueMarker, OpCreateUserEvent, OpSetUserEventStatus,
// OpGetKernelWorkGroupSize): the translator gives the same calls Clang
// does, with the block kernels as the module's kernels.
TEST_F(Spirv, KernelsEnqueueKernelsThroughAnIlProgram) {
  cl_int Err;
  cl_queue_properties Props[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  cl_command_queue DeviceQueue = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_program P = fromIL(readSpirv("enqueue.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_kernel K = clCreateKernel(P, "parent", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  const size_t N = 8;
  std::vector<int> Zero(40, 0);
  cl_mem Out = buffer(Zero.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, Zero.data());
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<int>(Out, Zero.size());
  for (size_t I = 0; I < N; ++I) {
    EXPECT_EQ(Got[I], 4 * 10 + 6) << I;
    EXPECT_EQ(Got[8 + I], 2) << I;
    EXPECT_EQ(Got[16 + I], 0) << I;
    EXPECT_EQ(Got[32 + I], 1) << I;
  }
  EXPECT_EQ(Got[24], int(N));
  EXPECT_EQ(clReleaseCommandQueue(DeviceQueue), CL_SUCCESS);
}

// What a kernel from IL does not have: argument information
// (CL_KERNEL_ARG_INFO_NOT_AVAILABLE for every query) and the OpenCL C
// attributes of CL_KERNEL_ATTRIBUTES (empty). A queue_t argument takes a
// device queue and nothing else, as from source.
TEST_F(Spirv, IlKernelsHaveNoArgumentInformationOrAttributes) {
  cl_int Err;
  cl_program P = fromIL(readSpirv("enqueue.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "-cl-kernel-arg-info", nullptr, nullptr), CL_SUCCESS)
      << buildLog(P);
  cl_kernel K = clCreateKernel(P, "child_of", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  for (cl_kernel_arg_info Param :
       {CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME,
        CL_KERNEL_ARG_TYPE_QUALIFIER, CL_KERNEL_ARG_NAME}) {
    size_t Size = 0;
    EXPECT_EQ(clGetKernelArgInfo(K, 0, Param, 0, nullptr, &Size), CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        << Param;
  }
  EXPECT_EQ(clGetKernelArgInfo(K, 2, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr),
            CL_INVALID_ARG_INDEX);
  EXPECT_EQ(infoString(clGetKernelInfo, K, CL_KERNEL_ATTRIBUTES), "");
  size_t Required[3] = {};
  EXPECT_EQ(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                     sizeof(Required), Required, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Required[0], 1u);

  cl_command_queue None = nullptr;
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_command_queue), &None), CL_INVALID_DEVICE_QUEUE);
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_command_queue), &Queue), CL_INVALID_DEVICE_QUEUE);
  cl_queue_properties Props[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  cl_command_queue DeviceQueue = clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_command_queue), &DeviceQueue), CL_SUCCESS);
  std::vector<int> Zero(1, 0);
  cl_mem Out = buffer(sizeof(int), CL_MEM_COPY_HOST_PTR, Zero.data());
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
  const size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(Out, 1)[0], 7);
  EXPECT_EQ(clReleaseCommandQueue(DeviceQueue), CL_SUCCESS);
}

// The image built-ins through SPIR-V (OpSampledImage with OpImageSampleExplicitLod,
// OpConstantSampler, OpImageRead, OpImageWrite, OpImageQuerySize): the
// translator calls them by the OpenCL C names the builtin library defines.
TEST_F(Spirv, ImagesAreReadSampledAndWrittenThroughAnIlProgram) {
  cl_program P = fromIL(readSpirv("images.spv"));
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "sample", &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedKernels.push_back(K);
  const size_t W = 8, H = 4;
  std::vector<float> Pixels(W * H * 4);
  for (size_t I = 0; I < Pixels.size(); ++I)
    Pixels[I] = float(I % 13) * 0.25f;
  const cl_image_format F{CL_RGBA, CL_FLOAT};
  cl_image_desc D{};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  cl_mem In = clCreateImage(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F, &D,
                            Pixels.data(), &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(In);
  cl_mem Out = clCreateImage(Context, CL_MEM_WRITE_ONLY, &F, &D, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(Out);
  cl_sampler Linear = clCreateSampler(Context, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE,
                                      CL_FILTER_LINEAR, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_mem Dst = buffer(W * H * 4 * sizeof(float)), Dims = buffer(2 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &In), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_sampler), &Linear), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 3, sizeof(cl_mem), &Dst), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 4, sizeof(cl_mem), &Dims), CL_SUCCESS);
  const size_t Global[2] = {W, H};
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clReleaseSampler(Linear), CL_SUCCESS);
  // At pixel centres a linear read is the pixel itself; the nearest read
  // one to the left clamps to the edge.
  auto Got = read<float>(Dst, W * H * 4);
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X)
      for (size_t C = 0; C < 4; ++C) {
        const size_t Left = X == 0 ? 0 : X - 1;
        EXPECT_NEAR(Got[(Y * W + X) * 4 + C],
                    Pixels[(Y * W + X) * 4 + C] + Pixels[(Y * W + Left) * 4 + C], 1e-5f)
            << X << "," << Y << "," << C;
      }
  std::vector<float> Written(W * H * 4);
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {W, H, 1};
  ASSERT_EQ(clEnqueueReadImage(Queue, Out, CL_TRUE, Origin, Region, 0, 0, Written.data(), 0,
                               nullptr, nullptr),
            CL_SUCCESS);
  for (size_t I = 0; I < Written.size(); ++I)
    EXPECT_EQ(Written[I], Pixels[I] * 2.0f) << I;
  EXPECT_EQ(read<int>(Dims, 2), (std::vector<int>{int(W), int(H)}));
}

// Builds that must fail cleanly (bad source, bad options, unsupported
// constructs) and the kernel descriptions of successful ones; separate
// compilation (compileSource, link) with embedded headers, libraries,
// duplicate and missing definitions, and link options.
#include "../support/Sanitizer.h"
#include "KernelRunner.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/JitExecutable.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <thread>

#include <unistd.h>

namespace weft::compiler::test {

namespace {

std::variant<rt::BuildOutput, rt::BuildFailure> build(const std::string &Src, const std::string &Opts = "") {
  return rt::ProgramCompiler::get().buildSource(Src, Opts);
}

} // namespace

TEST(BuildTest, SyntaxErrorFailsWithClangDiagnostics) {
  auto R = build("kernel void k(global int *p) { p[0] = undeclared_thing + ; }");
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R));
  const auto &F = std::get<rt::BuildFailure>(R);
  EXPECT_EQ(F.Code, CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(F.Log.find("error"), std::string::npos) << F.Log;
  EXPECT_NE(F.Log.find("undeclared_thing"), std::string::npos) << F.Log;
}

TEST(BuildTest, UnknownOptionIsInvalidBuildOptions) {
  for (const char *Opt : {"-cl-no-such-option", "-cl-std=CL9.9", "-D", "--foo"}) {
    auto R = build("kernel void k() {}", Opt);
    ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R)) << Opt;
    EXPECT_EQ(std::get<rt::BuildFailure>(R).Code, CL_INVALID_BUILD_OPTIONS) << Opt;
  }
}

TEST(BuildTest, OptionsAreApplied) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    #ifndef WIDTH
    #error WIDTH missing
    #endif
    kernel void k(global int *p) { p[get_global_id(0)] = WIDTH + FLAG; })",
                      "-D WIDTH=5 -DFLAG -cl-fast-relaxed-math -cl-mad-enable -cl-denorms-are-zero -w "
                      "-cl-std=CL3.0"));
  std::vector<int> Out(4, 0);
  NDRange R;
  R.Global[0] = 4;
  R.Local[0] = 2;
  ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data())}));
  EXPECT_EQ(Out[3], 6);
}

TEST(BuildTest, WerrorTurnsWarningsIntoFailure) {
  const char *Src = "kernel void k(global int *p) { uchar c = 300; p[0] = c; }";
  auto Plain = build(Src);
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(Plain));
  EXPECT_NE(std::get<rt::BuildOutput>(Plain).Log.find("warning"), std::string::npos);
  auto Werror = build(Src, "-Werror");
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(Werror));
  EXPECT_EQ(std::get<rt::BuildFailure>(Werror).Code, CL_BUILD_PROGRAM_FAILURE);
  auto Quiet = build(Src, "-w");
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(Quiet));
  EXPECT_EQ(std::get<rt::BuildOutput>(Quiet).Log.find("warning"), std::string::npos);
}

TEST(BuildTest, RecursionIsRejected) {
  auto R = build("int f(int n) { return n ? f(n - 1) : 0; } kernel void k(global int *p) { p[0] = f(p[1]); }");
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R));
  EXPECT_EQ(std::get<rt::BuildFailure>(R).Code, CL_BUILD_PROGRAM_FAILURE);
}

// Code generation waits for a kernel's first launch, so what only it would
// reject is checked at the build: a call to a function nothing defines,
// and inline assembly (the JIT has no assembler).
TEST(BuildTest, WhatCodeGenerationWouldRejectFailsTheBuild) {
  const std::pair<const char *, const char *> Cases[] = {
      {"int foo(int);\nkernel void k(global int *p) { p[0] = foo(p[1]); }",
       "function 'foo' is called but the program does not define it"},
      {"kernel void k(global int *p) { __asm__ volatile(\"nop\"); p[0] = 1; }",
       "inline assembly is not supported"},
  };
  for (const auto &[Source, Message] : Cases) {
    auto R = build(Source);
    ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R)) << Source;
    const auto &F = std::get<rt::BuildFailure>(R);
    EXPECT_EQ(F.Code, CL_BUILD_PROGRAM_FAILURE);
    EXPECT_NE(F.Log.find(Message), std::string::npos) << F.Log;
  }
  // A function the host's libraries define is no such call.
  Program P;
  ASSERT_TRUE(P.build("float sinf(float);\nkernel void k(global float *p) { p[0] = sinf(p[1]); }"));
  float Data[2] = {0.0f, 0.5f};
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Data)}));
  EXPECT_FLOAT_EQ(Data[0], std::sin(0.5f));
}

// WEFT_CPU (docs/building.md): a level the host runs is what kernels are
// compiled for and what the device reports; a name LLVM does not know, or
// a CPU with features the host lacks (knl's AVX-512 ER and PF, which only
// Xeon Phi had), fails builds with the reason in the log.
TEST(BuildTest, WeftCpuChoosesTheTargetAndRefusesWhatTheHostCannotRun) {
  // WEFT_CPU as it was (the ISA matrix's runs set it), whatever fails.
  struct Restore {
    const char *Before = std::getenv(HostTarget::CpuVariable);
    const std::string Saved = Before ? Before : "";
    ~Restore() {
      if (Before)
        setenv(HostTarget::CpuVariable, Saved.c_str(), 1);
      else
        unsetenv(HostTarget::CpuVariable);
    }
  } Restored;
  const char *Kernel = "kernel void k(global float *p) { p[get_global_id(0)] *= 2.0f; }";

  setenv(HostTarget::CpuVariable, "x86-64-v2", 1);
  rt::CodeTarget T = rt::ProgramCompiler::get().target();
  EXPECT_EQ(T.Cpu, "x86-64-v2");
  EXPECT_EQ(T.SimdBytes, 16u);
  EXPECT_EQ(T.IsaName, "sse4.2");
  EXPECT_EQ(T.Refused, "");
  std::string Why;
  std::optional<llvm::orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  ASSERT_TRUE(JTMB) << Why;
  EXPECT_EQ(JTMB->getCPU(), "x86-64-v2");
  const std::string Features = JTMB->getFeatures().getString();
  EXPECT_NE(Features.find("+sse4.2"), std::string::npos) << Features;
  EXPECT_EQ(Features.find("+avx"), std::string::npos) << Features;
  {
    Program P;
    Buffer<float> Data(100, 1.5f);
    EXPECT_TRUE(P.build(Kernel)) << P.log();
    EXPECT_TRUE(P.run("k", range1(100, 10), {Arg::pointer(Data.data())}));
    EXPECT_EQ(Data[99], 3.0f);
  }

  for (const char *Cpu : {"no-such-cpu", "knl"}) {
    setenv(HostTarget::CpuVariable, Cpu, 1);
    T = rt::ProgramCompiler::get().target();
    EXPECT_NE(T.Refused.find(std::string("WEFT_CPU=") + Cpu + " is refused"), std::string::npos)
        << T.Refused;
    EXPECT_FALSE(T.IsaName.empty()); // the host's, reported instead
    auto R = build(Kernel);
    ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R)) << Cpu;
    const auto &F = std::get<rt::BuildFailure>(R);
    EXPECT_EQ(F.Code, CL_BUILD_PROGRAM_FAILURE);
    EXPECT_NE(F.Log.find(std::string("WEFT_CPU=") + Cpu + " is refused"), std::string::npos)
        << F.Log;
    EXPECT_NE(F.Log.find(std::string(Cpu) == "knl" ? "lacks" : "not an x86-64 CPU"),
              std::string::npos)
        << F.Log;
  }
}

// A kernel whose code cannot be generated at its first launch fails that
// lookup and every later one with CL_INVALID_PROGRAM_EXECUTABLE and the
// compiler's log (here: a prepared module that is not bitcode); a name the
// program does not have is CL_INVALID_KERNEL_NAME.
TEST(BuildTest, AKernelThatCannotBeCompiledFailsItsLookupsForGood) {
  std::string Why, Log;
  std::optional<llvm::orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  ASSERT_TRUE(JTMB) << Why;
  PreparedProgram P;
  P.Kernels = {"k"};
  P.Module = {'n', 'o', 't', ' ', 'b', 'i', 't', 'c', 'o', 'd', 'e'};
  std::unique_ptr<JitExecutable> Exe = JitExecutable::create(*JTMB, P, std::nullopt, Log);
  ASSERT_TRUE(Exe) << Log;
  EXPECT_TRUE(Exe->defines("k"));
  EXPECT_FALSE(Exe->defines("other"));
  for (int Launch = 0; Launch < 2; ++Launch) {
    rt::Result<rt::WorkGroupFn> Fn = Exe->lookup("k");
    ASSERT_FALSE(Fn) << Launch;
    EXPECT_EQ(Fn.error().Code, CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT_NE(Fn.error().Why.find("cannot read the prepared program"), std::string::npos)
        << Fn.error().Why;
  }
  rt::Result<rt::WorkGroupFn> Other = Exe->lookup("other");
  ASSERT_FALSE(Other);
  EXPECT_EQ(Other.error().Code, CL_INVALID_KERNEL_NAME);
}

TEST(BuildTest, KernelDescriptions) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    __attribute__((reqd_work_group_size(16, 4, 1))) __attribute__((vec_type_hint(float4)))
    kernel void a(global const float *restrict in, constant int *c, local volatile int *l,
                  uint n, sampler_t s) {}
    __attribute__((work_group_size_hint(8, 1, 1)))
    kernel void b(global int *p) {})",
                      "-cl-kernel-arg-info"));
  const rt::KernelDesc *A = P.kernel("a");
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(A->Args.size(), 5u);
  EXPECT_EQ(A->Args[0].Kind, rt::ArgKind::GlobalPointer);
  EXPECT_EQ(A->Args[0].AddressQualifier, (cl_uint)CL_KERNEL_ARG_ADDRESS_GLOBAL);
  EXPECT_EQ(A->Args[0].TypeQualifier, (cl_bitfield)(CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT));
  EXPECT_EQ(A->Args[0].TypeName, "float*");
  EXPECT_EQ(A->Args[0].Name, "in");
  EXPECT_EQ(A->Args[1].Kind, rt::ArgKind::ConstantPointer);
  EXPECT_EQ(A->Args[2].Kind, rt::ArgKind::LocalPointer);
  EXPECT_EQ(A->Args[2].TypeQualifier, (cl_bitfield)CL_KERNEL_ARG_TYPE_VOLATILE);
  EXPECT_EQ(A->Args[3].Kind, rt::ArgKind::ByValue);
  EXPECT_EQ(A->Args[3].Size, 4u);
  EXPECT_EQ(A->Args[3].TypeName, "uint");
  EXPECT_EQ(A->Args[4].Kind, rt::ArgKind::Sampler);
  EXPECT_EQ(A->ReqdWorkGroupSize, (std::array<size_t, 3>{16, 4, 1}));
  EXPECT_EQ(A->Attributes, "reqd_work_group_size(16,4,1) vec_type_hint(float4)");
  const rt::KernelDesc *B = P.kernel("b");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->WorkGroupSizeHint, (std::array<size_t, 3>{8, 1, 1}));
  EXPECT_EQ(B->Attributes, "work_group_size_hint(8,1,1)");

  Program NoNames;
  ASSERT_TRUE(NoNames.build("kernel void k(global int *p) {}"));
  EXPECT_EQ(NoNames.kernel("k")->Args[0].Name, "");
}

// Regression: an argument was an image when its type name contained
// "image", so a pointer to `struct image_px` took no buffer. Kinds come from
// the type: typedefs of image and sampler types resolve, pipes are pipes.
TEST(BuildTest, ArgumentKindsComeFromTheTypeNotItsName) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    struct image_px { float r; };
    typedef image2d_t picture;
    typedef sampler_t how;
    kernel void k(global struct image_px *px, read_only picture img, how s,
                  read_only image3d_t vol, global float *image_data) {}
    kernel void pipes(read_only pipe int in, global int *out) {})",
                      "-cl-std=CL2.0"));
  const rt::KernelDesc *K = P.kernel("k");
  ASSERT_NE(K, nullptr);
  ASSERT_EQ(K->Args.size(), 5u);
  EXPECT_EQ(K->Args[0].Kind, rt::ArgKind::GlobalPointer);
  EXPECT_EQ(K->Args[0].TypeName, "struct image_px*");
  EXPECT_EQ(K->Args[1].Kind, rt::ArgKind::Image);
  EXPECT_EQ(K->Args[2].Kind, rt::ArgKind::Sampler);
  EXPECT_EQ(K->Args[3].Kind, rt::ArgKind::Image);
  EXPECT_EQ(K->Args[4].Kind, rt::ArgKind::GlobalPointer);
  const rt::KernelDesc *Pipes = P.kernel("pipes");
  ASSERT_NE(Pipes, nullptr);
  EXPECT_EQ(Pipes->Args[0].Kind, rt::ArgKind::Pipe);
  EXPECT_EQ(Pipes->Args[1].Kind, rt::ArgKind::GlobalPointer);
}

TEST(BuildTest, KernelsReachingSubGroupFunctionsAreMarked) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    int helper(int x) { return sub_group_scan_inclusive_add(x); }
    int deeper(int x) { return helper(x) + 1; }
    kernel void direct(global uint *p) { p[0] = get_sub_group_local_id(); }
    kernel void barrier_only(global uint *p) { sub_group_barrier(CLK_LOCAL_MEM_FENCE); }
    kernel void indirect(global int *p) { p[0] = deeper(p[1]); }
    kernel void calls_a_kernel(global uint *p) { direct(p); }
    kernel void work_group_only(global int *p) { p[0] = work_group_reduce_add(p[1]); }
    kernel void none(global int *p) { p[0] = (int)get_local_linear_id(); })",
                      "-cl-std=CL3.0"));
  for (const char *K : {"direct", "barrier_only", "indirect", "calls_a_kernel"}) {
    ASSERT_NE(P.kernel(K), nullptr) << K;
    EXPECT_TRUE(P.kernel(K)->UsesSubGroups) << K;
  }
  for (const char *K : {"work_group_only", "none"}) {
    ASSERT_NE(P.kernel(K), nullptr) << K;
    EXPECT_FALSE(P.kernel(K)->UsesSubGroups) << K;
  }
}

TEST(BuildTest, EveryClStdBuilds) {
  for (const char *Std : {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"}) {
    Program P;
    EXPECT_TRUE(P.build("kernel void k(global float *p) { p[get_global_id(0)] = sqrt(p[0]); }",
                        std::string("-cl-std=") + Std))
        << Std;
  }
}

// The builtin library links part by part (BuiltinBitcode.h): clamp
// (Common) calls fmin and sinpi (MathPi) calls sin (both Math), and Math is
// wanted in the same round for sqrt, so it must link again for those.
TEST(BuildTest, BuiltinsThatCallOtherPartsOfTheLibraryLink) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global float *p) {
      float x = p[get_global_id(0)];
      p[get_global_id(0)] = sqrt(x) + clamp(x, 0.0f, 1.0f) + sinpi(x);
    })"));
  std::vector<float> Data = {0.25f, 4.0f};
  ASSERT_TRUE(P.run("k", range1(2, 2), {Arg::pointer(Data.data())}));
  EXPECT_FLOAT_EQ(Data[0], 0.5f + 0.25f + std::sqrt(0.5f));
  EXPECT_FLOAT_EQ(Data[1], 2.0f + 1.0f + 0.0f);
}

TEST(BuildTest, OptDisableStillRuns) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *p) {
      local int t[4];
      t[get_local_id(0)] = get_global_id(0);
      barrier(CLK_LOCAL_MEM_FENCE);
      p[get_global_id(0)] = t[3 - get_local_id(0)];
    })",
                      "-cl-opt-disable"));
  std::vector<int> Out(8, -1);
  NDRange R;
  R.Global[0] = 8;
  R.Local[0] = 4;
  ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data())}));
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Out[I], I / 4 * 4 + 3 - I % 4);
}

} // namespace weft::compiler::test

namespace weft::compiler::test {

TEST(BuildTest, ConcurrentBuildsFromSeveralThreads) {
  auto Work = [](int Seed, bool *Ok) {
    Program P;
    *Ok = P.build("kernel void k(global int *p) { p[get_global_id(0)] = SEED + (int)get_local_id(0); }",
                  "-DSEED=" + std::to_string(Seed));
    if (!*Ok)
      return;
    std::vector<int> Out(8, -1);
    NDRange R;
    R.Global[0] = 8;
    R.Local[0] = 4;
    *Ok = P.run("k", R, {Arg::pointer(Out.data())}) && Out[5] == Seed + 1;
  };
  bool Ok[4] = {};
  std::vector<std::thread> Threads;
  for (int I = 0; I < 4; ++I)
    Threads.emplace_back(Work, I * 100, &Ok[I]);
  for (std::thread &T : Threads)
    T.join();
  for (bool B : Ok)
    EXPECT_TRUE(B);
}

} // namespace weft::compiler::test

namespace weft::compiler::test {

namespace {

std::vector<unsigned char> compileObject(const std::string &Src, const std::string &Opts = "",
                                         const std::vector<rt::EmbeddedHeader> &Headers = {}) {
  auto R = rt::ProgramCompiler::get().compileSource(Src, Opts, Headers);
  if (auto *F = std::get_if<rt::BuildFailure>(&R)) {
    ADD_FAILURE() << "compile failed (" << F->Code << "):\n" << F->Log;
    return {};
  }
  return std::get<rt::ObjectOutput>(R).Bitcode;
}

const char *CallsTwice = R"(
  int twice(int x);
  kernel void k(global int *p) { p[get_global_id(0)] = twice((int)get_global_id(0)); })";
const char *DefinesTwice = "int twice(int x) { return 2 * x; }";

std::vector<int> runK(Program &P) {
  std::vector<int> Out(4, -1);
  NDRange R;
  R.Global[0] = 4;
  R.Local[0] = 2;
  EXPECT_TRUE(P.run("k", R, {Arg::pointer(Out.data())}));
  return Out;
}

} // namespace

TEST(CompileLinkTest, ObjectsLinkAcrossFiles) {
  Program P;
  ASSERT_TRUE(P.link({compileObject(CallsTwice), compileObject(DefinesTwice)}));
  EXPECT_EQ(runK(P), (std::vector<int>{0, 2, 4, 6}));
}

TEST(CompileLinkTest, EmbeddedHeadersResolveByName) {
  std::vector<rt::EmbeddedHeader> Headers = {
      {"base.h", "#define BASE 7\n"},
      // Includes "base.h" by its embedded name from inside a subdirectory.
      {"foo/bar.h", "#include \"base.h\"\nint plus(int x) { return x + BASE; }\n"}};
  Program P;
  ASSERT_TRUE(P.link({compileObject(R"(#include "foo/bar.h"
    kernel void k(global int *p) { p[get_global_id(0)] = plus((int)get_global_id(0)); })",
                                    "", Headers)}));
  EXPECT_EQ(runK(P), (std::vector<int>{7, 8, 9, 10}));
}

TEST(CompileLinkTest, LibraryIsBitcodeThatLinksAgain) {
  auto R = rt::ProgramCompiler::get().link({compileObject(DefinesTwice)}, "-create-library");
  ASSERT_TRUE(std::holds_alternative<rt::ObjectOutput>(R));
  Program P;
  ASSERT_TRUE(P.link({std::get<rt::ObjectOutput>(R).Bitcode, compileObject(CallsTwice)},
                     "-cl-denorms-are-zero -cl-no-signed-zeros -cl-unsafe-math-optimizations "
                     "-cl-finite-math-only -cl-fast-relaxed-math -cl-no-subgroup-ifp"));
  EXPECT_EQ(runK(P), (std::vector<int>{0, 2, 4, 6}));
}

TEST(CompileLinkTest, CompileFailures) {
  auto Bad = rt::ProgramCompiler::get().compileSource("kernel void k() { nope(); }", "", {});
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(Bad));
  EXPECT_EQ(std::get<rt::BuildFailure>(Bad).Code, CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(std::get<rt::BuildFailure>(Bad).Log.find("nope"), std::string::npos);
  auto BadOpt = rt::ProgramCompiler::get().compileSource("kernel void k() {}", "-cl-bogus", {});
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(BadOpt));
  EXPECT_EQ(std::get<rt::BuildFailure>(BadOpt).Code, CL_INVALID_COMPILER_OPTIONS);
}

TEST(CompileLinkTest, LinkFailures) {
  auto codeOf = [](const std::variant<rt::BuildOutput, rt::ObjectOutput, rt::BuildFailure> &R) {
    return std::holds_alternative<rt::BuildFailure>(R) ? std::get<rt::BuildFailure>(R).Code
                                                       : CL_SUCCESS;
  };
  rt::ProgramCompiler &C = rt::ProgramCompiler::get();
  std::vector<unsigned char> Defines = compileObject(DefinesTwice);
  auto Dup = C.link({Defines, compileObject(DefinesTwice)}, "");
  EXPECT_EQ(codeOf(Dup), CL_LINK_PROGRAM_FAILURE);
  EXPECT_NE(std::get<rt::BuildFailure>(Dup).Log.find("twice"), std::string::npos);
  auto Missing = C.link({compileObject(CallsTwice)}, "");
  EXPECT_EQ(codeOf(Missing), CL_LINK_PROGRAM_FAILURE);
  EXPECT_NE(std::get<rt::BuildFailure>(Missing).Log.find("twice"), std::string::npos);
  EXPECT_EQ(codeOf(C.link({{'n', 'o', 't', 'b', 'c'}}, "")), CL_LINK_PROGRAM_FAILURE);
  for (const char *Opt : {"-enable-link-options", "-DX", "-cl-opt-disable", "-create-library -w"})
    EXPECT_EQ(codeOf(C.link({Defines}, Opt)), CL_INVALID_LINKER_OPTIONS) << Opt;
  EXPECT_EQ(codeOf(C.link({Defines}, "-create-library -enable-link-options")), CL_SUCCESS);
}

TEST(CompileLinkTest, ArgumentNamesFollowTheCompileOptions) {
  const char *Src = "kernel void k(global int *named) { named[0] = 1; }";
  Program With, Without;
  ASSERT_TRUE(With.link({compileObject(Src, "-cl-kernel-arg-info")}));
  ASSERT_TRUE(Without.link({compileObject(Src)}));
  EXPECT_EQ(With.kernel("k")->Args[0].Name, "named");
  EXPECT_EQ(Without.kernel("k")->Args[0].Name, "");
}

// Clang's debug pragmas make the front end trap (SIGILL) or call
// report_fatal_error (which aborts): the build fails, the process lives on
// and later builds work.
TEST(BuildTest, ACrashInsideTheCompilerFailsTheBuild) {
  WEFT_EXPECT_COMPILER_CRASHES();
  for (const char *Pragma : {"#pragma clang __debug crash\n", "#pragma clang __debug llvm_fatal_error\n"}) {
    std::string Source = std::string(Pragma) + "kernel void k(global int *p) { p[0] = 1; }\n";
    auto R = build(Source);
    ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R)) << Pragma;
    const auto &F = std::get<rt::BuildFailure>(R);
    EXPECT_EQ(F.Code, CL_BUILD_PROGRAM_FAILURE);
    EXPECT_NE(F.Log.find("internal compiler error"), std::string::npos) << F.Log;
    auto C = rt::ProgramCompiler::get().compileSource(Source, "", {});
    ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(C)) << Pragma;
    EXPECT_EQ(std::get<rt::BuildFailure>(C).Code, CL_COMPILE_PROGRAM_FAILURE);
  }
  Program P;
  ASSERT_TRUE(P.build("kernel void k(global int *p) { p[get_global_id(0)] = 7; }"));
  std::vector<int> Out(4);
  ASSERT_TRUE(P.run("k", range1(4, 4), {Arg::pointer(Out.data())}));
  EXPECT_EQ(Out, std::vector<int>(4, 7));
}

// Clang 15 reads past the end of a literal that ends in a `\N` escape
// without its `{` (a fault in a release build, a heap overflow under
// AddressSanitizer; found by the opencl_c fuzzer). Wherever such a literal
// is, in the source, an embedded header, a header from disk or a
// directive, the build fails with a fatal error naming the escape, and
// literals that only look alike keep their bytes.
TEST(BuildTest, LiteralsEndingInANamedEscapeWithoutItsBraceFailCleanly) {
  const std::string Kernel = "kernel void k(global int *p) { p[0] = 1; }\n";
  auto expectRejected = [](const auto &R, cl_int Code, const std::string &What) {
    ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R)) << What;
    const auto &F = std::get<rt::BuildFailure>(R);
    EXPECT_EQ(F.Code, Code) << What;
    EXPECT_NE(F.Log.find("'\\N' escape sequence without its '{'"), std::string::npos)
        << What << "\n"
        << F.Log;
    EXPECT_EQ(F.Log.find("internal compiler error"), std::string::npos) << What << "\n" << F.Log;
  };
  for (const std::string &Source : std::vector<std::string>{
           R"(kernel void k(global int *p) { printf("d\N"); })",
           R"(kernel void k(global int *p) { p[0] = sizeof("x" "ab\N" "y"); })",
           R"(constant char s[] = u8"\\\N"; kernel void k(global char *p) { p[0] = s[0]; })",
           "kernel void k(global int *p) { p[0] = sizeof(\"\\\\\nN\"); }", // a line splice
           "kernel void k(global int *p) { p[0] = sizeof(\"?\?/N\"); }",   // a trigraph
           "kernel void k(global int *p) { p[0] = '\\N'; }", "#line 5 \"\\N\"\n" + Kernel,
           "#pragma message \"\\N\"\n" + Kernel, "_Static_assert(1, \"\\N\");\n" + Kernel})
    expectRejected(build(Source), CL_BUILD_PROGRAM_FAILURE, Source);

  // In an embedded header.
  const std::vector<rt::EmbeddedHeader> Headers = {{"bad.h", "#define MESSAGE \"\\N\"\n"}};
  expectRejected(
      rt::ProgramCompiler::get().compileSource("#include \"bad.h\"\n" + Kernel, "", Headers),
      CL_COMPILE_PROGRAM_FAILURE, "embedded header");
  // In a header read from disk through -I.
  char Dir[] = "/tmp/weft-escape-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  const std::string Header = std::string(Dir) + "/bad_on_disk.h";
  {
    std::FILE *F = std::fopen(Header.c_str(), "w");
    ASSERT_NE(F, nullptr);
    std::fputs("constant char Text[] = \"x\\N\";\n", F);
    std::fclose(F);
  }
  expectRejected(build("#include \"bad_on_disk.h\"\n" + Kernel, std::string("-I ") + Dir),
                 CL_BUILD_PROGRAM_FAILURE, "header on disk");
  std::remove(Header.c_str());
  rmdir(Dir);

  // Backslashes escaping each other before an N, and the escape in a
  // comment, are not it: the program builds, its bytes intact.
  Program P;
  ASSERT_TRUE(P.build("// \"\\N\"\n"
                      "constant char s[] = \"\\\\N\" \"a\\\\\\\\N\" /* \"\\N\" */;\n"
                      "kernel void k(global char *p) {\n"
                      "  for (int i = 0; i < sizeof(s); ++i) p[i] = s[i];\n"
                      "}\n"));
  std::vector<char> Out(8, 'z');
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data())}));
  EXPECT_EQ(std::string(Out.data(), 7), std::string("\\Na\\\\N\0", 7));
}

} // namespace weft::compiler::test

namespace weft::compiler::test {

namespace {

/// The generic work-group function of a kernel of Exe (nullptr, with a
/// test failure, if it has none).
rt::WorkGroupFn generic(rt::Executable &Exe, const std::string &Kernel) {
  rt::Result<rt::WorkGroupFn> Fn = Exe.lookup(Kernel);
  EXPECT_TRUE(Fn) << Fn.error().Why;
  return Fn ? *Fn : nullptr;
}

} // namespace

// A program with image arguments gives launches work-group functions
// compiled for their images' formats: one per kernel and format list, made
// once and then reused, also for programs with program-scope variables,
// but not for programs built with -cl-opt-disable.
TEST(BuildTest, ImageKernelsSpecializeOnTheirImagesFormats) {
  const char *Source = R"(
kernel void copy(read_only image2d_t in, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, read_imagef(in, p));
}
kernel void plain(global int *p) { p[0] = 1; })";
  auto R = build(Source, "-cl-std=CL3.0");
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(R)) << std::get<rt::BuildFailure>(R).Log;
  rt::Executable &Exe = *std::get<rt::BuildOutput>(R).Exe;
  const std::vector<rt::ImageArgFormat> Rgba8 = {{0, CL_RGBA, CL_UNORM_INT8, 4},
                                                 {1, CL_RGBA, CL_FLOAT, 16}};
  const std::vector<rt::ImageArgFormat> R16 = {{0, CL_R, CL_UNORM_INT16, 2},
                                               {1, CL_RGBA, CL_FLOAT, 16}};
  rt::WorkGroupFn A = Exe.specialize("copy", {Rgba8});
  ASSERT_NE(A, nullptr);
  EXPECT_NE(A, generic(Exe, "copy"));
  EXPECT_EQ(Exe.specialize("copy", {Rgba8}), A) << "made once, then reused";
  rt::WorkGroupFn B = Exe.specialize("copy", {R16});
  ASSERT_NE(B, nullptr);
  EXPECT_NE(B, A) << "another format, another function";
  EXPECT_EQ(Exe.specialize("nosuchkernel", {Rgba8}), nullptr);

  auto WithGlobals = build(std::string(Source) + "\nglobal int counter;", "-cl-std=CL3.0");
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(WithGlobals));
  EXPECT_NE(std::get<rt::BuildOutput>(WithGlobals).Exe->specialize("copy", {Rgba8}), nullptr)
      << "a part, like the kernels' own, names the program's variables";
  auto Unoptimized = build(Source, "-cl-std=CL3.0 -cl-opt-disable");
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(Unoptimized));
  EXPECT_EQ(std::get<rt::BuildOutput>(Unoptimized).Exe->specialize("copy", {Rgba8}), nullptr);
}

// A kernel that reads the program's __constant data specializes too: each
// part of a program (ProgramParts) has a copy of the constants of its own
// and none exports them, so the specialized function gets its own copy as
// well. (It used to name the program's symbol, which the JIT could not
// find: the launch fell back to the generic function, ten times slower on
// image.blur_image.)
TEST(BuildTest, ImageKernelsReadingConstantDataSpecializeInProgramsBuiltInParts) {
  const char *Source = R"(
constant float weights[3] = {0.25f, 0.5f, 0.25f};
kernel void blur(read_only image2d_t in, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 s = 0.0f;
  for (int k = 0; k < 3; ++k)
    s += weights[k] * read_imagef(in, p + (int2)(k - 1, 0));
  write_imagef(out, p, s);
}
kernel void scale(global float *p) { p[get_global_id(0)] *= weights[get_global_id(0) % 3]; })";
  auto R = build(Source, "-cl-std=CL3.0");
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(R)) << std::get<rt::BuildFailure>(R).Log;
  rt::Executable &Exe = *std::get<rt::BuildOutput>(R).Exe;
  const std::vector<rt::ImageArgFormat> Rgba8 = {{0, CL_RGBA, CL_UNORM_INT8, 4},
                                                 {1, CL_RGBA, CL_UNORM_INT8, 4}};
  rt::WorkGroupFn Specialized = Exe.specialize("blur", {Rgba8});
  ASSERT_NE(Specialized, nullptr);
  EXPECT_NE(Specialized, generic(Exe, "blur"));
}

// A work-group function compiled for a launch's local size shares the
// program's variables with the generic functions of the other kernels:
// both are parts that name the variables part's definitions.
TEST(BuildTest, SpecializedFunctionsShareTheProgramsVariables) {
  Program P;
  ASSERT_TRUE(P.build(R"(
global int total = 100;
kernel void add(global const int *in, local int *s) {
  s[get_local_id(0)] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    int sum = 0;
    for (size_t i = 0; i < get_local_size(0); ++i)
      sum += s[i];
    atomic_add(&total, sum);
  }
}
kernel void read(global int *out) { out[0] = total; })",
                      "-cl-std=CL2.0"));
  std::vector<int> In(64);
  for (int I = 0; I < 64; ++I)
    In[I] = I;
  ASSERT_TRUE(P.runSpecialized("add", range1(64, 16), {Arg::pointer(In.data()), Arg::local(64)}));
  ASSERT_TRUE(P.run("add", range1(64, 8), {Arg::pointer(In.data()), Arg::local(32)}));
  int Out = 0;
  ASSERT_TRUE(P.run("read", range1(1, 1), {Arg::pointer(&Out)}));
  EXPECT_EQ(Out, 100 + 2 * (63 * 64 / 2));
}

// A local size is compiled for only once launches have shown the kernel
// hot: the first JitExecutable::HotLaunches - 1 launches of a shape get the
// generic function (nullptr), or the one for their images' formats alone;
// the next compiles, and the shape keeps its function from then on. Each
// shape counts its own launches.
TEST(BuildTest, LocalSizesSpecializeOnceTheKernelIsHot) {
  auto R = build(R"(
kernel void tree(global int *p, local int *s) {
  size_t l = get_local_id(0);
  s[l] = p[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) p[get_group_id(0)] = s[get_local_size(0) - 1];
}
kernel void copy(read_only image2d_t in, write_only image2d_t out, local int *s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  s[get_local_id(0)] = p.x;
  barrier(CLK_LOCAL_MEM_FENCE);
  write_imagef(out, p, read_imagef(in, p) + (float)s[0]);
})",
                 "-cl-std=CL3.0");
  ASSERT_TRUE(std::holds_alternative<rt::BuildOutput>(R)) << std::get<rt::BuildFailure>(R).Log;
  rt::Executable &Exe = *std::get<rt::BuildOutput>(R).Exe;
  const rt::Specialization Wide{{}, {64, 1, 1}}, Narrow{{}, {8, 1, 1}};
  for (unsigned I = 1; I < JitExecutable::HotLaunches; ++I)
    EXPECT_EQ(Exe.specialize("tree", Wide), nullptr) << "launch " << I;
  rt::WorkGroupFn Hot = Exe.specialize("tree", Wide);
  ASSERT_NE(Hot, nullptr);
  EXPECT_NE(Hot, generic(Exe, "tree"));
  EXPECT_EQ(Exe.specialize("tree", Wide), Hot);
  EXPECT_EQ(Exe.specialize("tree", Narrow), nullptr) << "another shape counts its own";

  const std::vector<rt::ImageArgFormat> Rgba8 = {{0, CL_RGBA, CL_UNORM_INT8, 4},
                                                 {1, CL_RGBA, CL_FLOAT, 16}};
  const rt::Specialization Formats{Rgba8, {0, 0, 0}}, Both{Rgba8, {16, 2, 1}};
  rt::WorkGroupFn ForFormats = Exe.specialize("copy", Formats);
  ASSERT_NE(ForFormats, nullptr);
  for (unsigned I = 1; I < JitExecutable::HotLaunches; ++I)
    EXPECT_EQ(Exe.specialize("copy", Both), ForFormats) << "launch " << I;
  rt::WorkGroupFn ForBoth = Exe.specialize("copy", Both);
  ASSERT_NE(ForBoth, nullptr);
  EXPECT_NE(ForBoth, ForFormats);
}

// KernelDesc::MayWait: a kernel that cannot see other agents' writes while
// it runs (no atomic, fence, volatile access or device service) may be run
// by a host thread on the spot; every other kind may not.
TEST(BuildTest, KernelsThatMayWaitForOtherWorkAreMarked) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void plain(global int *c, int n) {
      for (int i = 0; i < n; ++i)
        c[i] += i;
    }
    kernel void barriers(global int *c, local int *s) {
      s[get_local_id(0)] = c[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      c[get_global_id(0)] = s[0];
    }
    kernel void atomic(global int *c) { atomic_inc(c); }
    kernel void c11(global atomic_int *c) {
      atomic_store_explicit(c, 1, memory_order_relaxed, memory_scope_device);
    }
    kernel void fence(global int *c) {
      c[0] = 1;
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      c[1] = 2;
    }
    kernel void spins(volatile global int *c) { while (c[0] == 0) {} }
    kernel void prints(global int *c) { printf("%d\n", c[0]); }
  )",
                      "-cl-std=CL2.0"));
  const std::map<std::string, bool> Want = {{"plain", false}, {"barriers", false}, {"atomic", true},
                                            {"c11", true},    {"fence", true},     {"spins", true},
                                            {"prints", true}};
  for (const auto &[Name, MayWait] : Want) {
    ASSERT_NE(P.kernel(Name), nullptr) << Name;
    EXPECT_EQ(P.kernel(Name)->MayWait, MayWait) << Name;
  }
}

// KernelDesc::GroupFree: only the global ids tell the work-items apart (no
// group query, barrier, __local memory, sub-group function or device-side
// enqueue), so the device may run several groups as one.
TEST(BuildTest, KernelsThatOnlyAskForGlobalIdsAreGroupFree) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void global_only(global int *c) {
      size_t i = get_global_id(0) + get_global_id(1) * get_global_size(0);
      c[i] = (int)(get_global_offset(0) + get_work_dim() + get_global_linear_id());
    }
    kernel void local_id(global int *c) { c[get_global_id(0)] = get_local_id(0); }
    kernel void group_id(global int *c) { c[get_global_id(0)] = get_group_id(0); }
    kernel void local_size(global int *c) { c[get_global_id(0)] = get_local_size(0); }
    kernel void num_groups(global int *c) { c[get_global_id(0)] = get_num_groups(0); }
    kernel void local_arg(global int *c, local int *s) { s[0] = 1; c[0] = s[0]; }
    kernel void static_local(global int *c) {
      local int s[4];
      s[get_global_id(0) & 3] = 1;
      c[0] = s[0];
    }
    kernel void barriers(global int *c) {
      c[get_global_id(0)] = 1;
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
    kernel void to_local_query(global int *c) {
      int *p = c;
      c[0] = to_local(p) != 0;
    }
  )",
                      "-cl-std=CL2.0"));
  const std::map<std::string, bool> Want = {
      {"global_only", true},   {"local_id", false},   {"group_id", false},
      {"local_size", false},   {"num_groups", false}, {"local_arg", false},
      {"static_local", false}, {"barriers", false},   {"to_local_query", false}};
  for (const auto &[Name, GroupFree] : Want) {
    ASSERT_NE(P.kernel(Name), nullptr) << Name;
    EXPECT_EQ(P.kernel(Name)->GroupFree, GroupFree) << Name;
  }
}

} // namespace weft::compiler::test

// ProgramParts: a prepared module is compiled a kernel at a time, one
// object per kernel plus one for the program's variables. Only the
// work-group functions and the program-scope variables are visible across
// parts, each defined by one part, and kernels compiled apart share the
// program's variables.
#include "KernelRunner.h"

#include "compiler/KernelPipeline.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/JitExecutable.h"
#include "compiler/codegen/ProgramParts.h"
#include "compiler/frontend/BuildOptions.h"
#include "compiler/frontend/ClangFrontend.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <gtest/gtest.h>

#include <map>
#include <thread>

using namespace llvm;

namespace weft::compiler::test {

namespace {

// Four kernels sharing a helper, a constant table, a program-scope
// variable and a `static` one (internal in the module, yet one instance).
const std::string Source = R"(
global int counter = 5;
static global int hidden = 7;
constant int table[4] = {1, 2, 3, 4};
int scale(int x) { return x * table[x & 3]; }
kernel void write_vars(int v) { counter = v; hidden = v + 1; }
kernel void bump(void) { counter += scale(1); }
kernel void read_vars(global int *out) { out[0] = counter; out[1] = hidden; out[2] = scale(3); }
kernel void squares(global int *out) {
  int i = get_global_id(0);
  for (int k = 0; k < i; ++k)
    out[i] += scale(k);
}
)";

/// Source through the front end and KernelPipeline::prepare (nullptr, with
/// a test failure, on error).
std::unique_ptr<Module> prepared(LLVMContext &C, orc::JITTargetMachineBuilder &JTMB) {
  std::string Why, Log;
  std::optional<BuildOptions> Opts = BuildOptions::parse("-cl-std=CL3.0", Why);
  Expected<std::unique_ptr<TargetMachine>> TM = JTMB.createTargetMachine();
  if (!Opts || !TM) {
    ADD_FAILURE() << Why << (TM ? "" : toString(TM.takeError()));
    return nullptr;
  }
  std::unique_ptr<Module> M = ClangFrontend::compile(Source, *Opts, C, Log);
  std::vector<rt::KernelDesc> Kernels;
  if (!M || !KernelPipeline(**TM, false, false).prepare(*M, Kernels, Log)) {
    ADD_FAILURE() << Log;
    return nullptr;
  }
  return M;
}

} // namespace

TEST(ProgramPartsTest, EachKernelsPartDefinesItAloneAndOnePartTheVariables) {
  std::string Why, Log;
  std::optional<orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  ASSERT_TRUE(JTMB) << Why;
  Expected<std::unique_ptr<TargetMachine>> TM = JTMB->createTargetMachine();
  ASSERT_TRUE(bool(TM)) << toString(TM.takeError());
  LLVMContext C;
  std::unique_ptr<Module> M = prepared(C, *JTMB);
  ASSERT_TRUE(M);
  ProgramParts::makeSplittable(*M);
  SmallVector<char, 0> Bitcode;
  {
    raw_svector_ostream OS(Bitcode);
    WriteBitcodeToFile(*M, OS);
  }
  // The kernels' parts, then the variables part.
  std::vector<std::vector<unsigned char>> Objects;
  for (const char *Kernel : {"bump", "read_vars", "squares", "write_vars", ""}) {
    SCOPED_TRACE(Kernel);
    LLVMContext PartContext;
    Expected<std::unique_ptr<Module>> Part = parseBitcodeFile(
        MemoryBufferRef(StringRef(Bitcode.data(), Bitcode.size()), "part"), PartContext);
    ASSERT_TRUE(bool(Part)) << toString(Part.takeError());
    if (*Kernel) {
      ASSERT_TRUE(ProgramParts::keepKernel(**Part, std::string("__weft_wg_") + Kernel));
      KernelPipeline::optimize(**Part, **TM);
    } else {
      ASSERT_TRUE(ProgramParts::keepVariables(**Part));
    }
    Objects.push_back(JitExecutable::compile(**Part, **TM, Log));
    ASSERT_FALSE(Objects.back().empty()) << Log;
  }

  // Per global symbol name: how many objects define it, how many use it.
  std::map<std::string, int> Defined, Used;
  std::map<std::string, int> DefinedByVariablesPart;
  for (size_t I = 0; I < Objects.size(); ++I) {
    const std::vector<unsigned char> &Bytes = Objects[I];
    Expected<std::unique_ptr<object::ObjectFile>> Obj =
        object::ObjectFile::createObjectFile(MemoryBufferRef(
            StringRef(reinterpret_cast<const char *>(Bytes.data()), Bytes.size()), "part"));
    ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
    for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
      Expected<uint32_t> Flags = Sym.getFlags();
      Expected<StringRef> Name = Sym.getName();
      ASSERT_TRUE(Flags && Name);
      if (!(*Flags & object::SymbolRef::SF_Global))
        continue;
      ++(*Flags & object::SymbolRef::SF_Undefined ? Used : Defined)[Name->str()];
      if (I + 1 == Objects.size() && !(*Flags & object::SymbolRef::SF_Undefined))
        ++DefinedByVariablesPart[Name->str()];
    }
  }
  for (const char *Kernel : {"bump", "read_vars", "squares", "write_vars"})
    EXPECT_EQ(Defined[std::string("__weft_wg_") + Kernel], 1) << Kernel;
  EXPECT_EQ(Defined["counter"], 1);
  EXPECT_EQ(Defined["__weft_static.hidden"], 1);
  EXPECT_EQ(DefinedByVariablesPart.size(), 2u) << "the variables, and nothing else";
  EXPECT_EQ(DefinedByVariablesPart["counter"], 1);
  // Three kernels use counter, two hidden, from parts that do not define them.
  EXPECT_EQ(Used["counter"], 3);
  EXPECT_EQ(Used["__weft_static.hidden"], 2);
  // Helpers and constants are each part's own.
  EXPECT_EQ(Defined.count("scale"), 0u);
  EXPECT_EQ(Used.count("scale"), 0u);
  EXPECT_EQ(Defined.count("table"), 0u);
}

TEST(ProgramPartsTest, AProgramWithoutVariablesHasNoVariablesPart) {
  std::string Why, Log;
  std::optional<orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  ASSERT_TRUE(JTMB) << Why;
  Expected<std::unique_ptr<TargetMachine>> TM = JTMB->createTargetMachine();
  ASSERT_TRUE(bool(TM));
  std::optional<BuildOptions> Opts = BuildOptions::parse("-cl-std=CL3.0", Why);
  ASSERT_TRUE(Opts);
  LLVMContext C;
  std::unique_ptr<Module> M = ClangFrontend::compile(
      "constant int t[2] = {1, 2};\nkernel void k(global int *o) { o[0] = t[o[1] & 1]; }", *Opts, C,
      Log);
  std::vector<rt::KernelDesc> Kernels;
  ASSERT_TRUE(M && KernelPipeline(**TM, false, false).prepare(*M, Kernels, Log)) << Log;
  ProgramParts::makeSplittable(*M);
  EXPECT_FALSE(ProgramParts::keepVariables(*M));
  EXPECT_FALSE(ProgramParts::keepKernel(*M, "__weft_wg_k")) << "its body went with the variables";
  EXPECT_FALSE(ProgramParts::keepKernel(*M, "__weft_wg_nosuchkernel"));
}

// Kernels compiled at their first launches, apart, share the variables;
// with -cl-opt-disable too (its parts skip O3).
TEST(ProgramPartsTest, KernelsCompiledApartShareTheProgramsVariables) {
  for (const char *Options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    SCOPED_TRACE(Options);
    Program P;
    ASSERT_TRUE(P.build(Source, Options));
    int Out[3] = {};
    ASSERT_TRUE(P.run("write_vars", range1(1, 1), {Arg::value(40)}));
    ASSERT_TRUE(P.run("bump", range1(1, 1), {}));
    ASSERT_TRUE(P.run("read_vars", range1(1, 1), {Arg::pointer(Out)}));
    EXPECT_EQ(Out[0], 42); // 40 + scale(1) = 40 + 1 * 2
    EXPECT_EQ(Out[1], 41);
    EXPECT_EQ(Out[2], 12); // 3 * table[3]
    std::vector<int> Sums(16, 0);
    ASSERT_TRUE(P.run("squares", range1(16, 8), {Arg::pointer(Sums.data())}));
    int Expected = 0;
    for (int I = 0; I < 16; ++I) {
      EXPECT_EQ(Sums[I], Expected) << I;
      Expected += I * (I % 4 + 1);
    }
  }
}

// compileAhead (clCreateKernelsInProgram) compiles the kernels at once, on
// the threads of the arena; their launches then compile nothing (a compile
// under WEFT_DUMP_IR=pre prints the module it optimizes), and they run as
// they do compiled one at a time.
TEST(ProgramPartsTest, KernelsCompiledAheadAtOnceRunTheSame) {
  Program P;
  ASSERT_TRUE(P.build(Source, "-cl-std=CL3.0"));
  P.compileAhead({"write_vars", "bump", "read_vars", "squares", "nosuchkernel"});
  int Out[3] = {};
  bool Ran = false;
  std::string Printed = compilesPrinted([&] {
    Ran = P.run("write_vars", range1(1, 1), {Arg::value(40)}) && P.run("bump", range1(1, 1), {}) &&
          P.run("read_vars", range1(1, 1), {Arg::pointer(Out)});
  });
  ASSERT_TRUE(Ran);
  EXPECT_EQ(Printed, "") << "compiled again at a launch";
  EXPECT_EQ(Out[0], 42);
  EXPECT_EQ(Out[1], 41);
  EXPECT_EQ(Out[2], 12);
}

// Builds and first launches on several host threads at once: each compile
// has a context of its own and shares only read-only LLVM state.
TEST(ProgramPartsTest, ConcurrentBuildsAndFirstLaunchesRunTheSame) {
  Program Warm; // the process's first compile runs alone (FirstCompileGuard)
  ASSERT_TRUE(Warm.build("kernel void k(global int *o) { *o = 1; }"));
  int One = 0;
  ASSERT_TRUE(Warm.run("k", range1(1, 1), {Arg::pointer(&One)}));
  std::vector<int> Results(4, 0);
  std::vector<std::thread> Builders;
  for (int T = 0; T < 4; ++T)
    Builders.emplace_back([&, T] {
      Program P;
      // Another program per thread (a comment): no cache of any kind answers.
      bool Built = P.build(Source + "// " + std::to_string(T), "-cl-std=CL3.0");
      int Out[3] = {};
      if (Built && P.run("write_vars", range1(1, 1), {Arg::value(T)}) &&
          P.run("bump", range1(1, 1), {}) && P.run("read_vars", range1(1, 1), {Arg::pointer(Out)}))
        Results[T] = Out[0] * 100 + Out[1];
    });
  for (std::thread &B : Builders)
    B.join();
  for (int T = 0; T < 4; ++T)
    EXPECT_EQ(Results[T], (T + 2) * 100 + T + 1) << T;
}

} // namespace weft::compiler::test

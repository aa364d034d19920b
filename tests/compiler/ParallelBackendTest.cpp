// ParallelBackend: a module with several kernels is optimized and compiled
// in parts, one object each. Only the work-group functions and the
// program-scope variables are visible across parts, each defined by one
// part, and kernels in different parts share the program's variables.
#include "KernelRunner.h"

#include "compiler/BuildOptions.h"
#include "compiler/ClangFrontend.h"
#include "compiler/HostTarget.h"
#include "compiler/KernelPipeline.h"
#include "compiler/ParallelBackend.h"

#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

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

TEST(ParallelBackendTest, PartitionGivesEveryKernelOnePart) {
  std::string Why;
  std::optional<orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  ASSERT_TRUE(JTMB) << Why;
  LLVMContext C;
  std::unique_ptr<Module> M = prepared(C, *JTMB);
  ASSERT_TRUE(M);
  for (unsigned MaxParts : {1u, 2u, 3u, 8u}) {
    std::vector<std::vector<std::string>> Parts = ParallelBackend::partition(*M, MaxParts);
    EXPECT_EQ(Parts.size(), std::min(MaxParts, 4u));
    std::map<std::string, int> Seen;
    for (const std::vector<std::string> &Part : Parts) {
      EXPECT_FALSE(Part.empty());
      for (const std::string &Name : Part)
        ++Seen[Name];
    }
    EXPECT_EQ(Seen, (std::map<std::string, int>{{"__weft_wg_bump", 1},
                                                {"__weft_wg_read_vars", 1},
                                                {"__weft_wg_squares", 1},
                                                {"__weft_wg_write_vars", 1}}))
        << MaxParts;
    // The same split every time.
    EXPECT_EQ(Parts, ParallelBackend::partition(*M, MaxParts));
  }
}

TEST(ParallelBackendTest, EachPartDefinesItsKernelsAndOnePartTheVariables) {
  std::string Why, Log;
  std::optional<orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  ASSERT_TRUE(JTMB) << Why;
  LLVMContext C;
  std::unique_ptr<Module> M = prepared(C, *JTMB);
  ASSERT_TRUE(M);
  std::vector<std::vector<unsigned char>> Objects;
  tbb::task_arena Arena(4);
  Arena.execute([&] { Objects = ParallelBackend::run(*M, *JTMB, false, true, Log); });
  ASSERT_EQ(Objects.size(), 4u) << Log;

  // Per global symbol name: how many objects define it, how many use it.
  std::map<std::string, int> Defined, Used;
  for (const std::vector<unsigned char> &Bytes : Objects) {
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
    }
  }
  for (const char *Kernel : {"bump", "read_vars", "squares", "write_vars"})
    EXPECT_EQ(Defined[std::string("__weft_wg_") + Kernel], 1) << Kernel;
  EXPECT_EQ(Defined["counter"], 1);
  EXPECT_EQ(Defined["__weft_static.hidden"], 1);
  // Three kernels use counter; the part of at least one of them is not
  // the part that defines it.
  EXPECT_GE(Used["counter"], 1);
  // Helpers and constants are each part's own.
  EXPECT_EQ(Defined.count("scale"), 0u);
  EXPECT_EQ(Used.count("scale"), 0u);
  EXPECT_EQ(Defined.count("table"), 0u);
}

TEST(ParallelBackendTest, KernelsInDifferentPartsShareTheProgramsVariables) {
  // The process's first build runs its parts one after another: build
  // something first, so that the program below is compiled concurrently.
  Program Warm;
  ASSERT_TRUE(Warm.build("kernel void k(global int *o) { *o = 1; }"));
  for (const char *Options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
    SCOPED_TRACE(Options);
    Program P;
    bool Built = false;
    tbb::task_arena Arena(4);
    Arena.execute([&] { Built = P.build(Source, Options); });
    ASSERT_TRUE(Built);
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

// Builds on several host threads at once, each in parts on its own threads:
// the parts share nothing but read-only LLVM state.
TEST(ParallelBackendTest, ConcurrentBuildsInPartsRunTheSame) {
  Program Warm;
  ASSERT_TRUE(Warm.build("kernel void k(global int *o) { *o = 1; }"));
  std::vector<int> Results(4, 0);
  std::vector<std::thread> Builders;
  for (int T = 0; T < 4; ++T)
    Builders.emplace_back([&, T] {
      tbb::task_arena Arena(4);
      Program P;
      bool Built = false;
      // Another program per thread (a comment): no cache of any kind answers.
      Arena.execute([&] { Built = P.build(Source + "// " + std::to_string(T), "-cl-std=CL3.0"); });
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

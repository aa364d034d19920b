// The builtin library is complete: every function that clang's full OpenCL
// C header declares for the device's extensions and features, in every
// OpenCL C version the device accepts, is either defined by one of the
// library's parts (as the compiler's linkBuiltins looks it up) or lowered
// by a compiler pass (the work-item functions, barriers and fences,
// the generic address space queries, printf). A builtin missing from the
// library would otherwise surface only when a kernel calls it, as a build
// failure ("unsupported OpenCL builtin").
#include "compiler/KernelPipeline.h"
#include "compiler/OpenClNames.h"
#include "compiler/frontend/BuildOptions.h"
#include "compiler/frontend/ClangFrontend.h"
#include "compiler/workgroup/DeviceEnqueuePass.h"
#include "runtime/platform/Capabilities.h"

#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

namespace weft::compiler::test {

namespace {

/// What the work-group passes replace before the library is linked.
bool loweredByAPass(const std::string &Name) {
  return classifyWorkItemFn(Name) != WorkItemFn::None || isBarrierName(Name) || isFenceName(Name) ||
         classifyAddressSpaceFn(Name) != AddressSpaceFn::None || Name == "printf" ||
         DeviceEnqueuePass::lowers(Name);
}

/// clang 15's opencl-c.h still declares, on __global and __local objects,
/// atomic_fetch_{or,xor,and,min} overloads whose operand has the other
/// signedness than the atomic_intptr_t or atomic_uintptr_t object. OpenCL C
/// 3.0.6 (6.15.12.7.5) gives those keys the object's own type, clang
/// removed the generic ones (D98418), and clang's builtin table, which
/// builds use, declares none of them.
bool mixedSignednessLeftover(const std::string &Name) {
  static const std::regex Pattern(
      "^_Z[0-9]+atomic_fetch_(or|xor|and|min)(_explicit)?PU3AS[13]VU7_Atomic(ml|lm).*");
  return std::regex_match(Name, Pattern);
}

/// OpenCL C 1.x declares the image functions whatever the device; Weft's
/// device reports no image support (CL_DEVICE_IMAGE_SUPPORT false), and a
/// kernel calling one fails to build.
bool imageFunction(const std::string &Name) { return Name.find("ocl_image") != std::string::npos; }

/// "-cl-std=CL1.2" for OpenCL C 1.2.
std::string clStdOption(cl_version V) {
  return "-cl-std=CL" + std::to_string(CL_VERSION_MAJOR(V)) + "." +
         std::to_string(CL_VERSION_MINOR(V));
}

/// Fails, naming the first few, if any of What is missing.
void expectNoneMissing(const std::string &Std, const char *What,
                       const std::vector<std::string> &Missing) {
  std::string Shown;
  for (size_t I = 0; I < Missing.size() && I < 40; ++I)
    Shown += "  " + Missing[I] + "\n";
  EXPECT_TRUE(Missing.empty()) << Std << ": " << Missing.size() << " " << What
                               << " are neither defined nor lowered:\n"
                               << Shown;
}

} // namespace

// In every OpenCL C version the device accepts (CL_DEVICE_OPENCL_C_ALL_VERSIONS).
TEST(BuiltinCoverageTest, EveryDeclaredBuiltinIsDefinedOrLowered) {
  const llvm::StringMap<unsigned> &Defined = KernelPipeline::builtinDefinitions();
  ASSERT_GT(Defined.size(), 5000u) << "the library's symbol lists are missing";
  for (const rt::NamedVersion &Version : rt::OpenCLCVersions) {
    const std::string Std = clStdOption(Version.Version);
    std::string Why, Log;
    std::optional<BuildOptions> Opts = BuildOptions::parse(Std, Why);
    ASSERT_TRUE(Opts) << Why;
    std::vector<ClangFrontend::Declaration> Declared = ClangFrontend::declaredBuiltins(*Opts, Log);
    EXPECT_TRUE(Log.empty()) << Log;
    // Math, integer, conversions, vector loads and stores alone are
    // thousands; a short list means the header did not parse.
    EXPECT_GT(Declared.size(), 5000u) << Std;
    std::vector<std::string> Missing;
    for (const ClangFrontend::Declaration &D : Declared)
      if (!Defined.count(D.MangledName) && !loweredByAPass(D.MangledName) &&
          !mixedSignednessLeftover(D.MangledName) && !imageFunction(D.MangledName))
        Missing.push_back(D.MangledName);
    expectNoneMissing(Std, "declared builtins", Missing);
  }
}

// Builds do not read the header: clang declares the builtins from a table
// of its own (-fdeclare-opencl-builtins), whose overloads may mangle
// differently (wait_group_events takes a generic list there in every
// version). So every declaration of the header is also called, with
// arguments of exactly its parameter types, through the real front end;
// each function the calls resolve to must be defined or lowered.
TEST(BuiltinCoverageTest, EveryBuiltinABuildCallsIsDefinedOrLowered) {
  const llvm::StringMap<unsigned> &Defined = KernelPipeline::builtinDefinitions();
  for (const rt::NamedVersion &Version : rt::OpenCLCVersions) {
    const std::string Std = clStdOption(Version.Version);
    std::string Why, Log;
    std::optional<BuildOptions> Opts = BuildOptions::parse(Std + " -w", Why);
    ASSERT_TRUE(Opts) << Why;
    std::string Source;
    size_t Calls = 0;
    for (const ClangFrontend::Declaration &D : ClangFrontend::declaredBuiltins(*Opts, Log)) {
      if (D.Variadic || imageFunction(D.MangledName))
        continue;
      std::string Params, Args;
      for (size_t I = 0; I < D.ParamTypes.size(); ++I) {
        Params += (I ? ", " : "") + D.ParamTypes[I] + " a" + std::to_string(I);
        Args += (I ? ", a" : "a") + std::to_string(I);
      }
      Source += "void call" + std::to_string(Calls++) + "(" + Params + ") { " + D.Name + "(" +
                Args + "); }\n";
    }
    ASSERT_GT(Calls, 5000u) << Std << Log;
    llvm::LLVMContext Ctx;
    std::unique_ptr<llvm::Module> M = ClangFrontend::compile(Source, *Opts, Ctx, Log);
    ASSERT_TRUE(M) << Std << ": the calls do not compile:\n" << Log.substr(0, 4000);
    std::vector<std::string> Missing;
    size_t Callees = 0;
    for (const llvm::Function &F : *M) {
      if (!F.isDeclaration() || F.isIntrinsic())
        continue;
      ++Callees;
      const std::string Name = F.getName().str();
      if (!Defined.count(Name) && !loweredByAPass(Name))
        Missing.push_back(Name);
    }
    // Overloads the table resolves alike (a private list, a generic one)
    // share a callee, so there are fewer callees than calls.
    EXPECT_GT(Callees, 5000u) << Std;
    expectNoneMissing(Std, "builtins a build calls", Missing);
  }
}

// The check above must be able to fail: a declaration the library lacks,
// and one that a feature the device does not report keeps out, are told
// apart.
TEST(BuiltinCoverageTest, TheDeclarationsFollowTheDevicesFeatures) {
  std::string Why, Log;
  std::optional<BuildOptions> Opts = BuildOptions::parse("-cl-std=CL3.0", Why);
  ASSERT_TRUE(Opts) << Why;
  std::set<std::string> Names;
  for (const ClangFrontend::Declaration &D : ClangFrontend::declaredBuiltins(*Opts, Log))
    Names.insert(D.MangledName);
  // Declared and defined: sin(float), the generic atomic_fetch_add(int).
  EXPECT_TRUE(Names.count("_Z3sinf"));
  EXPECT_TRUE(Names.count("_Z16atomic_fetch_addPU3AS4VU7_Atomicii"));
  // Reported, so declared and defined: cl_khr_subgroup_ballot's
  // sub_group_ballot. Not reported, so not declared: cl_ext_float_atomics'
  // atomic_fetch_add(float), and the half image functions (cl_khr_fp16);
  // the float ones are (__opencl_c_images).
  EXPECT_TRUE(Names.count("_Z16sub_group_balloti"));
  EXPECT_TRUE(KernelPipeline::builtinDefinitions().count("_Z16sub_group_balloti"));
  EXPECT_FALSE(Names.count("_Z16atomic_fetch_addPU3AS4VU7_Atomicff"));
  EXPECT_TRUE(Names.count("_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f"));
  for (const std::string &N : Names)
    EXPECT_EQ(N.find("read_imageh"), std::string::npos) << N;
  // Work-item functions are declared and lowered, not defined.
  EXPECT_TRUE(Names.count("_Z13get_global_idj"));
  EXPECT_TRUE(loweredByAPass("_Z13get_global_idj"));
  EXPECT_FALSE(KernelPipeline::builtinDefinitions().count("_Z13get_global_idj"));
}

} // namespace weft::compiler::test

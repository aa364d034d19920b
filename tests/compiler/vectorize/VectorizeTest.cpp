// Builtins must not stop the loop vectorizer: a kernel calling one in its
// work-item loop is compiled through the whole pipeline (front end, work-
// group passes, O3 for the host), and its work-group function must hold
// vector instructions. The transcendental functions become calls of
// libmvec's vector forms (where libmvec is present) or SLEEF's; their
// accuracy against the OpenCL C bounds is checked in
// BuiltinTest.VectorMathMeetsTheBounds. Every test runs for each x86-64
// level (x86-64-v2, -v3, -v4) whatever the host: the kernels are compiled,
// never run, so an AVX-512 machine checks what an AVX2 one would compile.
#include "KernelRunner.h"
#include "compiler/KernelPipeline.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/frontend/BuildOptions.h"
#include "compiler/frontend/ClangFrontend.h"
#include "compiler/vectorize/BoundsCheckVersioningPass.h"
#include "compiler/vectorize/ChainInterleavePass.h"
#include "compiler/vectorize/VectorFremPass.h"
#include "compiler/vectorize/VectorMath.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <gtest/gtest.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/MC/MCSubtargetInfo.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::test {

namespace {

struct Case {
  std::string Name; // kernel name suffix
  std::string Type; // element type of a and b
  std::string Expr; // b[i] = Expr, over a[i], b[i] and a[i + 1]
  std::string Guard = ""; // if not empty, b[i] is stored only where it holds (uint n in scope)
};

/// Whether F calls fma on a scalar (llvm.fma.f32 or .f64): what keeps a
/// builtin's exact steps scalar on a target without FMA.
bool callsScalarFma(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<IntrinsicInst>(&I);
        Call && Call->getIntrinsicID() == Intrinsic::fma && !Call->getType()->isVectorTy())
      return true;
  return false;
}

bool hasVectorInstructions(Function &F) {
  for (Instruction &I : instructions(F))
    if (I.getType()->isVectorTy())
      return true;
  return false;
}

/// The most lanes of any vector of Element type F computes on.
unsigned widestVector(Function &F, Type *Element) {
  unsigned Widest = 0;
  for (Instruction &I : instructions(F))
    if (auto *V = dyn_cast<FixedVectorType>(I.getType()); V && V->getElementType() == Element)
      Widest = std::max(Widest, V->getNumElements());
  return Widest;
}

/// The loops of F whose llvm.loop metadata has Property.
unsigned loopsWith(Function &F, StringRef Property) {
  unsigned N = 0;
  for (BasicBlock &BB : F)
    if (MDNode *Loop = BB.getTerminator()->getMetadata(LLVMContext::MD_loop))
      for (const MDOperand &Op : Loop->operands())
        if (auto *P = dyn_cast_or_null<MDNode>(Op.get()))
          if (auto *Name = dyn_cast_or_null<MDString>(P->getOperand(0).get());
              Name && Name->getString() == Property)
            ++N;
  return N;
}

/// The loops of F the loop vectorizer vectorized (its llvm.loop metadata
/// says so on the vector loop and on the scalar remainder: both counted).
unsigned vectorizedLoops(Function &F) { return loopsWith(F, "llvm.loop.isvectorized"); }

/// The callees of F whose names start with Prefix.
std::vector<std::string> calleesStartingWith(Function &F, StringRef Prefix) {
  std::vector<std::string> Names;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName().startswith(Prefix))
        Names.push_back(Callee->getName().str());
  return Names;
}

std::vector<Case> unaryCases(const std::string &Type, const std::vector<std::string> &Functions) {
  std::vector<Case> Cases;
  for (const std::string &F : Functions)
    Cases.push_back({F + "_" + Type, Type, F + "(a[i])"});
  return Cases;
}

std::vector<Case> binaryCases(const std::string &Type, const std::vector<std::string> &Functions) {
  std::vector<Case> Cases;
  for (const std::string &F : Functions)
    Cases.push_back({F + "_" + Type, Type, F + "(a[i], b[i])"});
  return Cases;
}

// The math functions that vectorize on every host: the exact ones (on the
// bits or LLVM intrinsics) and those written in OpenCL C.
const std::vector<std::string> ExactUnary = {"fabs",    "floor",   "ceil",  "round", "trunc",
                                             "rint",    "sqrt",    "rsqrt", "logb",  "sign",
                                             "radians", "degrees", "sinpi", "cospi"};
const std::vector<std::string> ExactBinary = {"copysign",  "fdim",   "fmax",   "fmin",
                                              "fmod",      "maxmag", "minmag", "nextafter",
                                              "remainder", "step"};

} // namespace

/// Each test compiles for one x86-64 level of HostTarget::Levels, whatever
/// the host: an AVX-512 machine checks what an AVX2 or SSE4.2 one would
/// compile, and the other way round. Where the expectation differs between
/// levels, the test says so and why.
class VectorizeTest : public testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    TM = targetMachineFor(GetParam());
    ASSERT_TRUE(TM);
  }

  /// Whether the target has the features (LLVM's "+avx2,+fma").
  bool has(const char *Features) const { return TM->getMCSubtargetInfo()->checkFeatures(Features); }
  /// Without FMA (x86-64-v2) llvm.fma is a libm call a lane: a builtin
  /// whose exact steps use fma stays scalar there. These are Function's
  /// (its name, of a double or float form).
  bool fmaKeepsScalar(const std::string &Function, bool Double) const {
    static const std::set<std::string> UseFma = {"cbrt", "sinpi", "cospi", "tanpi", "rootn"};
    return !has("+fma") && (UseFma.count(Function) || (Double && Function == "exp"));
  }
  /// SSE4.2 alone (x86-64-v2): LLVM 15's cost model finds its forms of
  /// 64-bit clz (ilogb and logb of doubles too), of 64-bit rotates (AVX2
  /// has per-lane variable shifts) and of 64-bit integer to floating
  /// conversions (none before AVX-512DQ; AVX2's are emulated) dearer than
  /// scalar code.
  bool scalarInt64() const { return !has("+avx2"); }
  /// The lanes of the target's widest double vector that the loop
  /// vectorizer fills (the AVX-512 levels' 512-bit registers included).
  unsigned doubleLanes() const { return has("+avx512f") ? 8 : has("+avx") ? 4 : 2; }

  /// Expects WG's work-item loop vectorized across work-items: wider in
  /// Element than the kernel's own vectors of Lanes. A float builtin that
  /// Math.cl computes in double (cbrt, lgamma, tgamma) is as wide as the
  /// target's double vectors instead: 4 work-items at a time under AVX2.
  void expectAcrossWorkItems(const std::string &Name, Function &WG, Type *Element, unsigned Lanes) {
    const bool ViaDouble =
        Element->isFloatTy() && (Name.rfind("cbrt", 0) == 0 || Name.rfind("lgamma", 0) == 0 ||
                                 Name.rfind("tgamma", 0) == 0);
    if (ViaDouble) {
      EXPECT_GT(vectorizedLoops(WG), 0u) << Name << " was not vectorized across work-items";
      EXPECT_GE(widestVector(WG, Type::getDoubleTy(WG.getContext())), doubleLanes()) << Name;
    } else {
      EXPECT_GT(widestVector(WG, Element), Lanes)
          << Name << " was not vectorized across work-items";
    }
  }

  /// Compiles Source (with cl_khr_fp64 enabled) and returns the module after
  /// the whole pipeline (nullptr, with a test failure, on error).
  std::unique_ptr<Module> compileSource(LLVMContext &C, std::string Source,
                                        const std::string &Options) {
    Source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + Source;
    std::string Why, Log;
    std::optional<BuildOptions> Opts = BuildOptions::parse(Options, Why);
    if (!Opts) {
      ADD_FAILURE() << Why;
      return nullptr;
    }
    std::unique_ptr<Module> M = ClangFrontend::compile(Source, *Opts, C, Log);
    std::vector<rt::KernelDesc> Kernels;
    if (!M || !KernelPipeline(*TM, false, false).run(*M, Kernels, Log)) {
      ADD_FAILURE() << Log;
      return nullptr;
    }
    return M;
  }

  /// Compiles one kernel per case, each b[i] = Expr (if Guard).
  std::unique_ptr<Module> compileCases(LLVMContext &C, const std::vector<Case> &Cases,
                                       const std::string &Options) {
    std::string Source;
    for (const Case &K : Cases)
      Source += "kernel void k_" + K.Name + "(global " + K.Type + " *a, global " + K.Type +
                " *b, uint n) { size_t i = get_global_id(0); " +
                (K.Guard.empty() ? "" : "if (" + K.Guard + ") ") + "b[i] = " + K.Expr + "; }\n";
    return compileSource(C, Source, Options);
  }

  /// Compiles Cases into one module and calls Check with each case's
  /// work-group function.
  void checkCases(const std::vector<Case> &Cases, const std::string &Options,
                  const std::function<void(const Case &, Function &)> &Check) {
    LLVMContext C;
    std::unique_ptr<Module> M = compileCases(C, Cases, Options);
    ASSERT_TRUE(M);
    for (const Case &K : Cases) {
      Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + "k_" + K.Name);
      ASSERT_NE(WG, nullptr) << K.Name;
      Check(K, *WG);
    }
  }

  /// Every case vectorizes but those named in Scalar, which the target
  /// keeps scalar (each test says why).
  void expectVectorized(const std::vector<Case> &Cases, const std::string &Options = "",
                        const std::set<std::string> &Scalar = {}) {
    checkCases(Cases, Options, [&](const Case &K, Function &WG) {
      if (Scalar.count(K.Name))
        EXPECT_FALSE(hasVectorInstructions(WG))
            << K.Type << " " << K.Expr << " was expected scalar on " << GetParam();
      else
        EXPECT_TRUE(hasVectorInstructions(WG)) << K.Type << " " << K.Expr << " was not vectorized";
    });
  }

  std::unique_ptr<TargetMachine> TM;
};

INSTANTIATE_TEST_SUITE_P(Levels, VectorizeTest, testing::ValuesIn(HostTarget::Levels),
                         [](const testing::TestParamInfo<const char *> &Info) {
                           std::string Name = Info.param;
                           std::replace(Name.begin(), Name.end(), '-', '_');
                           return Name;
                         });

TEST_P(VectorizeTest, ExactMathFunctions) {
  for (const char *T : {"float", "double"}) {
    std::vector<Case> Cases = unaryCases(T, ExactUnary);
    std::vector<Case> Binary = binaryCases(T, ExactBinary);
    Cases.insert(Cases.end(), Binary.begin(), Binary.end());
    std::string Ts = T;
    Cases.push_back({std::string("ldexp_") + T, Ts, "ldexp(a[i], (int)b[i])"});
    Cases.push_back({std::string("ilogb_") + T, Ts, "ilogb(a[i])"});
    Cases.push_back({std::string("frexp_") + T, Ts, "({ int e; frexp(a[i], &e) + e; })"});
    Cases.push_back({std::string("remquo_") + T, Ts, "({ int q; remquo(a[i], b[i], &q) + q; })"});
    Cases.push_back({std::string("modf_") + T, Ts, "({ " + Ts + " p; modf(a[i], &p) + p; })"});
    Cases.push_back({std::string("fract_") + T, Ts, "({ " + Ts + " p; fract(a[i], &p) + p; })"});
    Cases.push_back({std::string("fma_") + T, Ts, "fma(a[i], b[i], a[i + 1])"});
    Cases.push_back({std::string("mix_") + T, Ts, "mix(a[i], b[i], a[i + 1])"});
    Cases.push_back({std::string("smoothstep_") + T, Ts, "smoothstep(a[i], b[i], a[i + 1])"});
    Cases.push_back({std::string("length_") + T, Ts, "length((" + Ts + "2)(a[i], b[i]))"});
    Cases.push_back({std::string("normalize_") + T, Ts, "normalize((" + Ts + "4)(a[i])).x"});
    Cases.push_back({std::string("isnan_") + T, Ts, "isnan(a[i]) + isless(a[i], b[i])"});
    std::set<std::string> Scalar;
    for (const Case &K : Cases)
      if (fmaKeepsScalar(K.Name.substr(0, K.Name.rfind('_')), Ts == "double"))
        Scalar.insert(K.Name); // sinpi and cospi reduce their argument with fma
    if (scalarInt64() && Ts == "double")
      Scalar.insert({"logb_double", "ilogb_double"});
    expectVectorized(Cases, "-cl-std=CL3.0", Scalar);
  }
}

TEST_P(VectorizeTest, IntegerFunctions) {
  std::vector<Case> Cases;
  for (const char *T : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}) {
    std::string Ts = T;
    for (const char *F : {"abs", "clz", "ctz", "popcount"})
      Cases.push_back({std::string(F) + "_" + T, Ts, "(" + Ts + ")" + F + "(a[i])"});
    for (const char *F :
         {"abs_diff", "add_sat", "sub_sat", "hadd", "rhadd", "max", "min", "mul_hi", "rotate"})
      Cases.push_back({std::string(F) + "_" + T, Ts, "(" + Ts + ")" + F + "(a[i], b[i])"});
    for (const char *F : {"clamp", "mad_hi", "mad_sat"})
      Cases.push_back({std::string(F) + "_" + T, Ts, std::string(F) + "(a[i], b[i], a[i + 1])"});
  }
  Cases.push_back({"mad24", "int", "mad24(a[i], b[i], a[i + 1])"});
  Cases.push_back({"mul24", "uint", "mul24(a[i], b[i])"});
  Cases.push_back({"upsample", "int", "upsample((short)a[i], (ushort)b[i])"});
  std::set<std::string> Scalar;
  if (scalarInt64())
    Scalar = {"clz_long", "clz_ulong", "rotate_long", "rotate_ulong"};
  expectVectorized(Cases, "-cl-std=CL3.0", Scalar);
}

// cl_khr_extended_bit_ops and cl_khr_integer_dot_product: shifts, masks,
// llvm.bitreverse and 32-bit multiplies, all of which vectorize on every
// level (with VNNI, DotProductTest checks what they become).
TEST_P(VectorizeTest, IntegerExtensionFunctions) {
  std::vector<Case> Cases;
  for (const char *T : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}) {
    const std::string Ts = T, Field = "(uint)b[i] & 3, 4";
    Cases.push_back({std::string("insert_") + T, Ts, "bitfield_insert(a[i], b[i], " + Field + ")"});
    Cases.push_back({std::string("extract_signed_") + T, Ts,
                     "(" + Ts + ")bitfield_extract_signed(a[i], " + Field + ")"});
    Cases.push_back({std::string("extract_unsigned_") + T, Ts,
                     "(" + Ts + ")bitfield_extract_unsigned(a[i], " + Field + ")"});
    Cases.push_back({std::string("bit_reverse_") + T, Ts, "bit_reverse(a[i])"});
  }
  const std::string Mixes[][3] = {{"uu", "uchar4", "uchar4"},
                                  {"ss", "char4", "char4"},
                                  {"us", "uchar4", "char4"},
                                  {"su", "char4", "uchar4"}};
  for (const auto &Mix : Mixes) {
    const std::string &X = Mix[0];
    const std::string T = X == "uu" ? "uint" : "int";
    const std::string A = "as_" + Mix[1] + "(a[i])", B = "as_" + Mix[2] + "(b[i])";
    Cases.push_back({"dot_" + X, T, "dot(" + A + ", " + B + ")"});
    Cases.push_back({"dot_acc_sat_" + X, T, "dot_acc_sat(" + A + ", " + B + ", a[i + 1])"});
    Cases.push_back(
        {"dot_packed_" + X, T, "dot_4x8packed_" + X + "_" + T + "(as_uint(a[i]), as_uint(b[i]))"});
    Cases.push_back(
        {"dot_acc_sat_packed_" + X, T,
         "dot_acc_sat_4x8packed_" + X + "_" + T + "(as_uint(a[i]), as_uint(b[i]), a[i + 1])"});
  }
  expectVectorized(Cases, "-cl-std=CL3.0");
}

TEST_P(VectorizeTest, ConversionsAndHalfLoadsAndStores) {
  std::vector<Case> Cases;
  for (const char *Mode : {"", "_rte", "_rtz", "_rtp", "_rtn"}) {
    std::string M = Mode;
    Cases.push_back({"f_i" + M, "float", "convert_float" + M + "(as_int(a[i]))"});
    Cases.push_back({"f_ul" + M, "float", "convert_float" + M + "((ulong)as_uint(a[i]) << 20)"});
    Cases.push_back({"f_d" + M, "double", "convert_float" + M + "(a[i])"});
    Cases.push_back({"d_l" + M, "double", "convert_double" + M + "(as_long(a[i]))"});
    Cases.push_back({"i_f_sat" + M, "float", "as_float(convert_int_sat" + M + "(a[i]))"});
    Cases.push_back({"vstore_half" + M, "float",
                     "({ vstore_half" + M + "(a[i], i, (global half *)b); 0.0f; })"});
    Cases.push_back({"vstore_half_d" + M, "double",
                     "({ vstore_half" + M + "(a[i], i, (global half *)b); 0.0; })"});
  }
  Cases.push_back({"vload_half", "float", "vload_half(i, (global half *)a)"});
  std::set<std::string> Scalar;
  if (scalarInt64())
    Scalar = {"d_l", "d_l_rte", "d_l_rtz", "d_l_rtp", "d_l_rtn", "f_ul_rtn"};
  expectVectorized(Cases, "", Scalar);
}

// With libmvec, the transcendental functions become its vector forms
// (and those computed in double, its double forms).
TEST_P(VectorizeTest, TranscendentalFunctionsCallLibmvec) {
  if (!VectorMath::available())
    GTEST_SKIP() << "no libmvec on this host";
  const std::vector<std::string> Unary = {
      "acos",  "acosh", "asin", "asinh", "atan",  "atanh",  "cbrt",   "cos",    "cosh",
      "erf",   "erfc",  "exp",  "exp2",  "exp10", "expm1",  "log",    "log2",   "log10",
      "log1p", "sin",   "sinh", "tan",   "tanh",  "acospi", "asinpi", "atanpi", "tanpi"};
  const std::vector<std::string> Binary = {"atan2", "atan2pi", "hypot", "pow", "powr"};
  // libmvec's double sin, cos and log1p miss the bound by less than an
  // ulp's margin: those take SLEEF's forms (DoubleFunctionsCallSleef).
  const std::vector<std::string> SleefInDouble = {"sin", "cos", "log1p", "sincos"};
  // Written in OpenCL C in double (DoubleExpAndExpm1NeedNoLibrary).
  const std::vector<std::string> OwnInDouble = {"exp", "expm1"};
  for (const char *T : {"float", "double"}) {
    std::vector<Case> Cases = unaryCases(T, Unary);
    std::vector<Case> B = binaryCases(T, Binary);
    Cases.insert(Cases.end(), B.begin(), B.end());
    Cases.push_back({std::string("pown_") + T, T, "pown(a[i], (int)b[i])"});
    Cases.push_back({std::string("rootn_") + T, T, "rootn(a[i], (int)b[i])"});
    Cases.push_back(
        {std::string("sincos_") + T, T, std::string("({ ") + T + " c; sincos(a[i], &c) + c; })"});
    checkCases(Cases, "-cl-std=CL3.0", [&](const Case &K, Function &WG) {
      const std::string Function = K.Name.substr(0, K.Name.size() - std::strlen(T) - 1);
      const bool Double = std::string(T) == "double";
      if (Double && (std::count(OwnInDouble.begin(), OwnInDouble.end(), Function) ||
                     std::count(SleefInDouble.begin(), SleefInDouble.end(), Function)))
        return;
      // Without FMA these keep their libm calls scalar beside an fma.
      if (fmaKeepsScalar(Function, Double)) {
        EXPECT_TRUE(callsScalarFma(WG)) << T << " " << K.Expr << " was expected scalar";
        return;
      }
      // On SSE4.2 alone LLVM 15's cost model finds double powr's two-lane
      // form (a pow call beside its special cases' selects) no cheaper.
      if (!has("+avx") && Double && Function == "powr") {
        EXPECT_TRUE(calleesStartingWith(WG, "_ZGV").empty()) << K.Expr << " was expected scalar";
        return;
      }
      EXPECT_FALSE(calleesStartingWith(WG, "_ZGV").empty())
          << T << " " << K.Expr << " calls no libmvec vector form";
    });
  }
}

// The double functions libmvec lacks or has too coarse, and the float ones
// Math.cl computes in double with them, call SLEEF's 1.0-ulp vector forms.
TEST_P(VectorizeTest, DoubleFunctionsCallSleef) {
  std::vector<Case> Cases = unaryCases("double", {"sin", "cos", "log1p", "tgamma", "lgamma"});
  for (const Case &K : unaryCases("float", {"tgamma", "lgamma"}))
    Cases.push_back(K);
  Cases.push_back({"sincos_double", "double", "({ double c; sincos(a[i], &c) + c; })"});
  for (const char *T : {"float", "double"})
    Cases.push_back(
        {std::string("lgamma_r_") + T, T, std::string("({ int s; lgamma_r(a[i], &s) * s; })")});
  checkCases(Cases, "-cl-std=CL3.0", [](const Case &K, Function &WG) {
    EXPECT_TRUE(hasVectorInstructions(WG)) << K.Name;
    // A vector form: Sleef_<function>d<lanes>_u10<isa>, lanes 2, 4 or 8.
    std::vector<std::string> Sleef = calleesStartingWith(WG, "Sleef_");
    EXPECT_TRUE(std::any_of(Sleef.begin(), Sleef.end(),
                            [](const std::string &N) {
                              return std::regex_search(
                                  N, std::regex("^Sleef_[a-z0-9]+d[248]_u10[a-z0-9]+$"));
                            }))
        << K.Name << " calls no SLEEF vector form";
  });
}

// The remaining families: native_ and half_ math, geometric, common and
// relational functions, shuffles, vector loads and stores, prefetch,
// work-item queries. Each in a work-item loop must leave it vectorized. In
// OpenCL C 3.0 vloadn and vstoren take generic pointers: their accesses
// vectorize once InferAddressSpaces has made them __global again.
TEST_P(VectorizeTest, OtherBuiltinFamilies) {
  const std::vector<std::string> Native = {"cos",   "exp",   "exp2",  "exp10", "log",  "log2",
                                           "log10", "recip", "rsqrt", "sin",   "sqrt", "tan"};
  std::vector<Case> Cases;
  for (const std::string &F : Native) {
    Cases.push_back({"native_" + F, "float", "native_" + F + "(a[i])"});
    Cases.push_back({"half_" + F, "float", "half_" + F + "(a[i])"});
  }
  for (const char *F : {"divide", "powr"}) {
    Cases.push_back(
        {std::string("native_") + F, "float", std::string("native_") + F + "(a[i], b[i])"});
    Cases.push_back({std::string("half_") + F, "float", std::string("half_") + F + "(a[i], b[i])"});
  }
  for (const char *T : {"float", "double"}) {
    const std::string Ts = T, V4 = "(" + Ts + "4)(a[i], b[i], a[i + 1], 2)";
    const std::string W4 = "(" + Ts + "4)(b[i], a[i], 1, a[i + 1])";
    const std::string Int = Ts == "float" ? "int" : "long"; // select's and shuffle's masks
    Cases.push_back({"dot_" + Ts, Ts, "dot(" + V4 + ", " + W4 + ")"});
    Cases.push_back({"cross_" + Ts, Ts, "cross(" + V4 + ", " + W4 + ").y"});
    Cases.push_back({"distance_" + Ts, Ts, "distance(" + V4 + ", " + W4 + ")"});
    Cases.push_back({"clamp_" + Ts, Ts, "clamp(a[i], b[i], a[i + 1])"});
    Cases.push_back({"max_" + Ts, Ts, "max(a[i], b[i])"});
    Cases.push_back({"select_" + Ts, Ts, "select(a[i], b[i], (" + Int + ")isless(a[i], b[i]))"});
    Cases.push_back({"bitselect_" + Ts, Ts, "bitselect(a[i], b[i], a[i + 1])"});
    Cases.push_back(
        {"shuffle_" + Ts, Ts, "dot(shuffle(" + V4 + ", (u" + Int + "4)(3, 2, 0, 1)), " + W4 + ")"});
    Cases.push_back(
        {"shuffle2_" + Ts, Ts,
         "dot(shuffle2(" + V4 + ", " + W4 + ", (u" + Int + "4)(7, 2, 5, 1)), " + W4 + ")"});
    Cases.push_back({"vload4_" + Ts, Ts, "dot(vload4(i, a), vload4(i + 1, a))"});
    Cases.push_back({"vload3_" + Ts, Ts, "dot(vload3(i, a), vload3(i + 1, a))"});
    for (const char *N : {"3", "4"})
      Cases.push_back(
          {std::string("vstore") + N + "_" + Ts, Ts,
           std::string("({ vstore") + N + "(vload" + N + "(i, a) * 2, i, a); b[i] + 1; })"});
    Cases.push_back({"prefetch_" + Ts, Ts, "({ prefetch(a + i, 16); a[i]; })"});
  }
  for (const char *F : {"fast_length", "fast_normalize", "fast_distance"}) {
    std::string Args = std::string(F) == "fast_distance" ? "(float4)(a[i]), (float4)(b[i])"
                                                         : "(float4)(a[i], b[i], 1, 2)";
    Cases.push_back({F, "float", std::string("dot((float4)") + F + "(" + Args + "), (float4)1)"});
  }
  Cases.push_back({"any_all", "int", "any((int4)(a[i], b[i], 0, 0)) + all((int2)(a[i], b[i]))"});
  Cases.push_back({"work_item", "float",
                   "a[i] + get_local_id(0) + get_group_id(0) * get_local_size(0) + "
                   "get_global_offset(0) + get_global_size(1)"});
  // A float kernel must run more work-items than a float4 has lanes (on
  // hosts with 256-bit vectors or wider): length, distance and normalize
  // used to branch, which kept their float4 code four lanes wide.
  const bool Avx = has("+avx");
  // native_ and half_ exp, exp10, log, log2, log10 and tan compute in double
  // (Math.cl, *ViaDouble): their loops are as wide as the host's double
  // vectors, which under AVX2 hold four lanes, work-items all the same.
  const bool WideDouble = has("+avx512f");
  auto viaDouble = [](const std::string &Expr) {
    for (const char *F : {"_exp(", "_exp10(", "_log(", "_log2(", "_log10(", "_tan("})
      if (Expr.find(F) != std::string::npos)
        return true;
    return false;
  };
  checkCases(Cases, "-cl-std=CL3.0", [&](const Case &K, Function &WG) {
    EXPECT_TRUE(hasVectorInstructions(WG)) << K.Type << " " << K.Expr << " was not vectorized";
    LLVMContext &C = WG.getContext();
    if (Avx && K.Type == "float" && viaDouble(K.Expr) && !WideDouble) {
      EXPECT_GE(widestVector(WG, Type::getDoubleTy(C)), 4u)
          << K.Expr << " was not vectorized across work-items";
    } else if (Avx && K.Type == "float") {
      unsigned Lanes =
          std::max(widestVector(WG, Type::getFloatTy(C)), widestVector(WG, Type::getInt32Ty(C)));
      EXPECT_GT(Lanes, 4u) << K.Expr << " was not vectorized across work-items";
    }
  });
}

// The loop vectorizer's run-time alias checks cannot compare pointers of
// different address spaces. A kernel reading __constant or __local memory
// and writing __global memory vectorizes because those spaces do not alias
// (AddressSpaceAA); one reaching __global memory through a generic helper,
// because InferAddressSpaces makes its accesses __global again.
TEST_P(VectorizeTest, NamedAddressSpacesVectorize) {
  const std::string Source = R"(
    kernel void k_constant(constant float *a, global float *b) {
      size_t i = get_global_id(0);
      b[i] = a[i] * 2.0f;
    }
    kernel void k_constant_checked(constant float *c, global const float *a, global float *b,
                                   int n) {
      int i = get_global_id(0);
      if (i < n)
        b[i] = c[i] * a[i] + c[0];
    }
    kernel void k_local(local float *l, global float *b) {
      size_t i = get_global_id(0);
      b[i] = l[get_local_id(0)] * 2.0f;
    }
    kernel void k_local_staged(global float *a, global float *b, local float *l) {
      size_t i = get_global_id(0);
      l[get_local_id(0)] = a[i];
      b[i] = l[get_local_id(0)] * 2.0f;
    }
    #if __OPENCL_C_VERSION__ >= 200
    float get(const float *p, size_t i) { return p[i]; }
    kernel void k_generic(global float *a, global float *b) {
      size_t i = get_global_id(0);
      b[i] = get(a, i) * 2.0f;
    }
    #endif
  )";
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    LLVMContext C;
    std::unique_ptr<Module> M = compileSource(C, Source, Std);
    ASSERT_TRUE(M);
    for (const char *K :
         {"k_constant", "k_constant_checked", "k_local", "k_local_staged", "k_generic"}) {
      Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + K);
      if (!WG && std::string(K) == "k_generic" && std::string(Std) == "-cl-std=CL1.2")
        continue;
      ASSERT_NE(WG, nullptr) << Std << " " << K;
      EXPECT_TRUE(hasVectorInstructions(*WG)) << Std << " " << K << " was not vectorized";
    }
  }
}

// A kernel written with vector types packs work-items into the lanes like a
// scalar one (VectorTypeScalarizerPass): float4 and double2 arithmetic and
// math calls run 8 or 16 lanes wide on AVX hosts, not 4 and 2, branches
// that only choose a value included (an if in the kernel, or inside a
// builtin: cbrt, sinpi, double exp). With a store under a condition (a
// bounds check), vectors wider than 128 bits or of more than 4 lanes, the
// kernel keeps its own vectors: split, a uchar16 kernel became interleaved
// groups of 16 bytes that the vectorizer widened 64 work-items at a time
// into shuffles of 1 KiB (hadd: 6.6 s to build and 20 ms a launch over
// 16 MiB, against 0.07 s and 1.1 ms whole).
TEST_P(VectorizeTest, VectorTypedKernelsVectorizeAcrossWorkItems) {
  if (!has("+avx"))
    GTEST_SKIP() << GetParam() << "'s vectors are no wider than a float4";
  const std::vector<Case> Cases = {
      {"mad_float4", "float4", "a[i] * 3.0f + b[i]"},
      {"mad_double2", "double2", "a[i] * 3.0 + b[i]"},
      {"sin_double2", "double2", "sin(a[i])"},
      {"lgamma_float4", "float4", "lgamma(a[i])"},
      {"lgamma_double2", "double2", "lgamma(a[i])"},
      {"tgamma_float4", "float4", "tgamma(a[i])"},
      {"tgamma_double2", "double2", "tgamma(a[i])"},
      {"shuffle_int4", "int4", "a[i].wzyx + (b[i] >> 2)"},
      // Branches, in the kernel or in the builtins, with no memory access.
      {"if_float4", "float4", "({ float4 r = b[i]; if (a[i].x > 0.0f) r = sin(a[i]); r; })"},
      {"cbrt_float4", "float4", "cbrt(a[i])"},
      {"atan_float4", "float4", "atan(a[i])"},
      {"sinpi_float4", "float4", "sinpi(a[i])"},
      {"cospi_double2", "double2", "cospi(a[i])"},
      {"tanpi_double2", "double2", "tanpi(a[i])"},
      {"exp_double2", "double2", "exp(a[i])"},
      {"expm1_double2", "double2", "expm1(a[i])"},
      // These keep their vectors.
      {"guarded_float4", "float4", "sin(a[i])", "a[i].x > 0.0f"},
      {"mad_float8", "float8", "a[i] * 3.0f + b[i]"},
      {"hadd_uchar16", "uchar16", "hadd(a[i], b[i])"},
      {"add_sat_short8", "short8", "add_sat(a[i], b[i]) + (a[i] >> 1)"}};
  checkCases(Cases, "", [&](const Case &K, Function &WG) {
    LLVMContext &C = WG.getContext();
    Type *Element = K.Type == "double2"   ? Type::getDoubleTy(C)
                    : K.Type == "int4"    ? Type::getInt32Ty(C)
                    : K.Type == "uchar16" ? Type::getInt8Ty(C)
                    : K.Type == "short8"  ? Type::getInt16Ty(C)
                                          : Type::getFloatTy(C);
    unsigned Lanes = K.Type == "double2"                        ? 2
                     : K.Type == "uchar16"                      ? 16
                     : K.Type == "float8" || K.Type == "short8" ? 8
                                                                : 4;
    if (K.Name == "guarded_float4" || K.Name == "mad_float8" || K.Name == "hadd_uchar16" ||
        K.Name == "add_sat_short8")
      EXPECT_EQ(widestVector(WG, Element), Lanes) << K.Name;
    else
      expectAcrossWorkItems(K.Name, WG, Element, Lanes);
  });
}

// Math on vectors wider than 128 bits (float8, float16, double3, double4, double8)
// keeps the kernel's vectors, and each builtin loops over its lanes
// (BuiltinMacros.h, VEC_*), a loop the loop vectorizer widens: no
// scalar math call may be left, neither a libm function nor an intrinsic,
// whatever the builtin (libm calls, Weft's own code, pointer results).
// Split into halves they became two-lane calls the back end made scalar.
TEST_P(VectorizeTest, MathOnWideVectorsLeavesNoScalarCall) {
  if (!VectorMath::available())
    GTEST_SKIP() << "no libmvec on this host";
  for (const char *T : {"float8", "float16", "double3", "double4", "double8"}) {
    const std::string Ts = T, Width = Ts.substr(Ts.find_first_of("0123456789"));
    const std::string Int = "convert_int" + Width + "_sat(b[i])";
    std::vector<Case> Cases = unaryCases(Ts, {"sin", "cos", "exp", "log", "cbrt", "tanpi", "erf",
                                              "atan", "rsqrt", "logb", "tgamma", "lgamma"});
    for (const Case &K :
         binaryCases(Ts, {"pow", "atan2", "hypot", "fmod", "remainder", "nextafter", "maxmag"}))
      Cases.push_back(K);
    Cases.push_back({"fma_" + Ts, Ts, "fma(a[i], b[i], a[i + 1])"});
    for (const char *F : {"pown", "rootn", "ldexp"})
      Cases.push_back({F + ("_" + Ts), Ts, F + ("(a[i], " + Int + ")")});
    Cases.push_back({"sincos_" + Ts, Ts, "({ " + Ts + " c; sincos(a[i], &c) + c; })"});
    Cases.push_back({"fract_" + Ts, Ts, "({ " + Ts + " c; fract(a[i], &c) + c; })"});
    const std::string IntT = "int" + Width, Back = "convert_" + Ts;
    Cases.push_back(
        {"frexp_" + Ts, Ts, "({ " + IntT + " e; frexp(a[i], &e) + " + Back + "(e); })"});
    Cases.push_back(
        {"lgamma_r_" + Ts, Ts, "({ " + IntT + " s; lgamma_r(a[i], &s) + " + Back + "(s); })"});
    Cases.push_back(
        {"remquo_" + Ts, Ts, "({ " + IntT + " q; remquo(a[i], b[i], &q) + " + Back + "(q); })"});
    const bool Double = Ts.rfind("double", 0) == 0;
    checkCases(Cases, "-cl-std=CL3.0", [&](const Case &K, Function &WG) {
      const std::string F = K.Name.substr(0, K.Name.rfind('_'));
      std::vector<std::string> ScalarCalls;
      for (Instruction &I : instructions(WG))
        if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->getType()->isFloatingPointTy())
          ScalarCalls.push_back(Call->getCalledOperand()->getName().str());
      // Without FMA the builtins on fma keep it scalar; on SSE4.2 alone,
      // double logb its 64-bit clz.
      if (fmaKeepsScalar(F, Double) || (scalarInt64() && Double && F == "logb")) {
        EXPECT_FALSE(ScalarCalls.empty()) << K.Name << " was expected to call a function on a scalar";
        return;
      }
      for (const std::string &Callee : ScalarCalls)
        ADD_FAILURE() << K.Name << " calls " << Callee << " on a scalar";
    });
  }
}

// Conversions on vectors of 8 and 16 lanes loop over their lanes like the
// math builtins (BuiltinMacros.h), a loop the loop vectorizer widens, their
// saturation's branches made selects: no conversion between a floating and
// an integer scalar may be left. On halves, a float16 to uchar16 saturating
// conversion ran 20 ms per 16 Mi elements, 4.7 on the loop.
TEST_P(VectorizeTest, WideVectorConversionsLeaveNoScalarConversion) {
  const std::vector<Case> Cases = {
      {"sat_uchar16", "float16", "convert_float16(convert_uchar16_sat(a[i] * 0.5f))"},
      {"sat_rte_uchar16", "float16", "convert_float16(convert_uchar16_sat_rte(a[i]))"},
      {"int8_rtz", "float8", "convert_float8(convert_int8_sat_rtz(a[i]))"},
      {"short8_sat", "float8", "convert_float8(convert_short8_sat(a[i] * 2.0f))"},
      {"long4_sat", "double4", "convert_double4(convert_long4_sat(a[i]))"},
      {"float8_rtp", "double8", "convert_double8(convert_float8_rtp(a[i]))"}};
  checkCases(Cases, "", [](const Case &K, Function &WG) {
    for (Instruction &I : instructions(WG))
      if ((isa<FPToSIInst>(&I) || isa<FPToUIInst>(&I) || isa<SIToFPInst>(&I) ||
           isa<UIToFPInst>(&I) || isa<FPTruncInst>(&I)) &&
          !I.getType()->isVectorTy())
        ADD_FAILURE() << K.Name << " has a scalar " << I.getOpcodeName();
  });
}

// fmod, remainder and remquo are frem, which the back end would split into
// one fmod call per lane. VectorFremPass computes vector frems in vector
// registers, keeping the lane-by-lane frem only on the branch for the rare
// vectors that need it: every vector frem left must be that one, and the
// reduction step a vector fma. remainders.float8 in weft_bench went from
// 92.5 to 598 Melem/s.
TEST_P(VectorizeTest, VectorFmodRunsInVectorRegisters) {
  if (!has("+fma"))
    GTEST_SKIP() << "VectorFremPass needs fused multiply-add";
  std::vector<Case> Cases;
  for (const char *T : {"float", "double", "float4", "float8", "double8", "float16"}) {
    const std::string Ts = T, Width = Ts.substr(std::min(Ts.size(), Ts.find_first_of("0123456789")));
    const std::string Back = "convert_" + Ts;
    for (const Case &K : binaryCases(Ts, {"fmod", "remainder"}))
      Cases.push_back(K);
    Cases.push_back({"remquo_" + Ts, Ts,
                     "({ int" + Width + " q; remquo(a[i], b[i], &q) + " + Back + "(q); })"});
  }
  Cases.push_back({"fmod_guarded_float4", "float4", "fmod(a[i], b[i])", "a[i].x > 0.0f"});
  checkCases(Cases, "-cl-std=CL3.0", [](const Case &K, Function &WG) {
    bool VectorFma = false;
    for (Instruction &I : instructions(WG)) {
      if (I.getOpcode() == Instruction::FRem && I.getType()->isVectorTy()) {
        EXPECT_TRUE(I.getMetadata(VectorFremPass::LaneByLaneMD))
            << K.Name << " has a vector frem outside the lane-by-lane branch";
      }
      if (auto *Fma = dyn_cast<IntrinsicInst>(&I))
        VectorFma |= Fma->getIntrinsicID() == Intrinsic::fma && Fma->getType()->isVectorTy();
    }
    EXPECT_TRUE(VectorFma) << K.Name << " has no vector fma";
  });
}

// A float4 kernel that keeps its vectors (a store under a condition) runs
// each math builtin as a loop over its four lanes (BuiltinMacros.h), which
// the loop vectorizer widens: no scalar floating-point arithmetic or call
// may be left, whether the builtin is an LLVM intrinsic (sin), a libm call
// (atanf, erff) or its own code with branches (cbrt, tanpi); the float
// calls take four lanes or more. With the vector literal the SLP vectorizer
// had (the split kernels' form), atanf and erff stayed four scalar calls
// (LLVM 15's cost model finds their vector forms no cheaper) and cbrt four
// scalar bodies: guarded atan, erf and cbrt kernels ran 21.3, 47.9 and
// 60.1 ms per launch over 4 Mi floats, 2.5, 1.9 and 15.9 with the loops.
TEST_P(VectorizeTest, GuardedFloat4MathRunsOnFourLanes) {
  if (!VectorMath::available())
    GTEST_SKIP() << "no libmvec on this host";
  std::vector<Case> Cases;
  for (const char *F : {"sin", "cos", "exp2", "sqrt", "atan", "erf", "cbrt", "tanpi", "lgamma"})
    Cases.push_back({std::string(F), "float4", std::string(F) + "(a[i])", "a[i].x > 0.0f"});
  Cases.push_back({"pow", "float4", "pow(a[i], b[i])", "a[i].x > 0.0f"});
  Cases.push_back({"atan2", "float4", "atan2(a[i], b[i])", "a[i].x > 0.0f"});
  Cases.push_back({"sincos", "float4", "({ float4 c; sincos(a[i], &c) + c; })", "a[i].x > 0.0f"});
  Cases.push_back({"remquo", "float4",
                   "({ int4 q; remquo(a[i], b[i], &q) + convert_float4(q); })", "a[i].x > 0.0f"});
  Cases.push_back(
      {"frexp", "float4", "({ int4 e; frexp(a[i], &e) + convert_float4(e); })", "a[i].x > 0.0f"});
  checkCases(Cases, "-cl-std=CL3.0", [&](const Case &K, Function &WG) {
    // Without FMA, cbrt and tanpi keep their exact steps' fma scalar.
    if (fmaKeepsScalar(K.Name, false)) {
      EXPECT_TRUE(callsScalarFma(WG)) << K.Name << " was expected scalar";
      return;
    }
    // lgamma computes in double: as many lanes as a double vector has, up to 4.
    const unsigned Lanes = K.Name == "lgamma" ? std::min(4u, doubleLanes()) : 4u;
    for (Instruction &I : instructions(WG)) {
      if ((isa<BinaryOperator>(I) || isa<CallInst>(I)) && I.getType()->isFloatingPointTy())
        ADD_FAILURE() << K.Name << " has a scalar " << I.getOpcodeName();
      auto *Call = dyn_cast<CallInst>(&I);
      if (!Call || !Call->getType()->isFPOrFPVectorTy())
        continue;
      auto *V = dyn_cast<FixedVectorType>(Call->getType());
      EXPECT_TRUE(V && V->getNumElements() >= Lanes)
          << K.Name << " calls " << Call->getCalledOperand()->getName().str() << " on "
          << (V ? V->getNumElements() : 1) << " lanes";
    }
  });
}

// Kernels with a bounds check (the usual `if (i < n)`) on float2, float3,
// float4 and double2: BoundsCheckVersioningPass gives them a work-item
// loop without the check, which VectorTypeScalarizerPass splits and the
// loop vectorizer widens across work-items like the unchecked kernel's
// (a float2 cbrt kernel: 65 -> 10 ms a launch over 4 Mi floats; atan
// 21 -> 2.4). Each keeps the checked loop for the groups at the edge.
TEST_P(VectorizeTest, BoundsCheckedKernelsVectorizeAcrossWorkItems) {
  if (!has("+avx"))
    GTEST_SKIP() << GetParam() << "'s vectors are no wider than a float4";
  std::vector<Case> Cases;
  for (const char *T : {"float2", "float3", "float4", "double2"})
    for (const char *F : {"cbrt", "atan", "sin"})
      Cases.push_back({std::string(F) + "_" + T, T, std::string(F) + "(a[i])", "i < n"});
  Cases.push_back({"mad_int_float2", "float2", "a[i] * 3.0f + b[i]", "(int)i < (int)n"});
  Cases.push_back({"mad_not_double2", "double2", "a[i] * 3.0 + b[i]", "!(i >= n)"});
  checkCases(Cases, "", [&](const Case &K, Function &WG) {
    LLVMContext &C = WG.getContext();
    Type *Element = K.Type == "double2" ? Type::getDoubleTy(C) : Type::getFloatTy(C);
    const unsigned Lanes = K.Type[K.Type.size() - 1] - '0';
    expectAcrossWorkItems(K.Name, WG, Element, Lanes);
    EXPECT_GE(loopsWith(WG, BoundsCheckVersioningPass::EdgeLoopMD), 1u)
        << K.Name << " has no edge loop";
  });
}

// A double2 kernel that keeps its vectors (a store under a condition) calls
// its math builtins lane by lane; LaneCallPackingPass packs the libm calls
// the SLP vectorizer leaves (atan, erf, atan2) into their two-lane forms
// (guarded atan 33 -> 15 ms a launch over 4 Mi doubles, erf 49 -> 12.5).
TEST_P(VectorizeTest, GuardedDouble2LibmCallsPack) {
  if (!VectorMath::available())
    GTEST_SKIP() << "no libmvec on this host";
  std::vector<Case> Cases;
  for (const char *F : {"atan", "erf", "acos", "tanh"})
    Cases.push_back({std::string(F), "double2", std::string(F) + "(a[i])", "a[i].x > 0.0"});
  Cases.push_back({"atan2", "double2", "atan2(a[i], b[i])", "a[i].x > 0.0"});
  checkCases(Cases, "", [](const Case &K, Function &WG) {
    for (Instruction &I : instructions(WG))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->getType()->isDoubleTy())
        ADD_FAILURE() << K.Name << " calls " << Call->getCalledOperand()->getName().str()
                      << " on a scalar";
    EXPECT_FALSE(calleesStartingWith(WG, "_ZGV").empty() &&
                 calleesStartingWith(WG, "Sleef_").empty())
        << K.Name << " calls no vector form";
  });
}

// A double2 kernel that keeps its vectors (a store under a condition) pairs
// its calls with the SLP vectorizer. On a host with AVX2 and FMA they
// must take SLEEF's avx2128 forms, about twice as fast as its sse2 ones.
TEST_P(VectorizeTest, TwoLaneSleefFormsUseTheBestInstructionSet) {
  const char *Best = has("+avx2,+fma") ? "avx2128" : has("+sse4.1") ? "sse4" : "sse2";
  std::vector<Case> Cases;
  for (const char *F : {"sin", "cos", "log1p"})
    Cases.push_back({std::string(F) + "_double2", "double2", std::string(F) + "(a[i])",
                     "a[i].x > 0.0"});
  checkCases(Cases, "", [Best](const Case &K, Function &WG) {
    std::vector<std::string> Sleef = calleesStartingWith(WG, "Sleef_");
    ASSERT_FALSE(Sleef.empty()) << K.Name << " calls no SLEEF form";
    for (const std::string &N : Sleef)
      EXPECT_EQ(N.substr(N.find("_u10") + 4), Best) << K.Name << " calls " << N;
  });
}

// Double exp and expm1 are Weft's own (Math.cl): they vectorize with no
// library call, libmvec or not, nor llvm.exp, which the back end would make
// glibc calls.
TEST_P(VectorizeTest, DoubleExpAndExpm1NeedNoLibrary) {
  checkCases(unaryCases("double", {"exp", "expm1"}), "", [](const Case &K, Function &WG) {
    EXPECT_TRUE(hasVectorInstructions(WG)) << K.Name;
    std::vector<std::string> Calls;
    for (const std::string &Callee : calleesStartingWith(WG, ""))
      if (!StringRef(Callee).startswith("llvm.") || StringRef(Callee).startswith("llvm.exp"))
        Calls.push_back(Callee);
    EXPECT_TRUE(Calls.empty()) << K.Name << " calls " << Calls.front();
  });
}

// A kernel with barriers runs one nest of work-item loops per barrier
// region (WorkGroupLoopPass), with the region's code and no dispatch switch
// in its x loop; what crosses a barrier is in per-variable frame columns
// (BarrierStatePass). So the loops between barriers vectorize: a tiled
// matrix product, a tree reduction in __local memory, a stencil, and the
// work-group collectives.
TEST_P(VectorizeTest, BarrierRegionsVectorize) {
  const std::string Source = R"(
    kernel void k_tiled(global const float *a, global const float *b, global float *c, int n) {
      local float ta[16][16], tb[16][16];
      int lx = get_local_id(0), ly = get_local_id(1);
      int row = get_global_id(1), col = get_global_id(0);
      float acc = 0.0f;
      for (int t = 0; t < n; t += 16) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; ++k)
          acc += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      c[row * n + col] = acc;
    }
    kernel void k_reduce(global const uint *in, global uint *out, local uint *s) {
      size_t l = get_local_id(0);
      s[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
        if (l < stride)
          s[l] += s[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0)
        out[get_group_id(0)] = s[0];
    }
    kernel void k_stencil(global const uint *in, global uint *out, uint steps) {
      local uint ring[256];
      uint l = get_local_id(0);
      ring[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint s = 0; s < steps; ++s) {
        uint v = ring[(l + 255) % 256] + 2u * ring[l] + ring[(l + 1) % 256] + s;
        barrier(CLK_LOCAL_MEM_FENCE);
        ring[l] = v ^ (v >> 7);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      out[get_global_id(0)] = ring[l];
    }
  )";
  LLVMContext C;
  std::unique_ptr<Module> M = compileSource(C, Source, "");
  ASSERT_TRUE(M);
  for (const char *K : {"k_tiled", "k_reduce", "k_stencil"}) {
    Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + K);
    ASSERT_NE(WG, nullptr) << K;
    EXPECT_GT(vectorizedLoops(*WG), 0u) << K << ": no work-item loop was vectorized";
  }
  // The work-group collectives are barriers around __local stores and loads
  // (Collectives.cl): every region but the one combining on work-item 0.
  LLVMContext C2;
  std::unique_ptr<Module> M2 = compileSource(C2, R"(
    kernel void k_collectives(global const float *in, global float *out) {
      size_t i = get_global_id(0);
      out[i] = work_group_reduce_add(in[i]) + work_group_scan_inclusive_max(in[i]);
    })",
                                             "-cl-std=CL3.0");
  ASSERT_TRUE(M2);
  Function *WG = M2->getFunction(std::string(wi::WorkGroupPrefix) + "k_collectives");
  ASSERT_NE(WG, nullptr);
  // On SSE4.2 alone LLVM 15's cost model vectorizes the first region only
  // (its vector loop and remainder); with AVX, at least two regions.
  EXPECT_GE(vectorizedLoops(*WG), has("+avx") ? 4u : 2u);
}

// A float4 kernel with a barrier: its math builtins' lane loops are unrolled
// before BarrierStatePass (LaneLoopUnrollPass), which would otherwise put
// their stack arrays in the frames, where the split kernel scattered its
// lanes to memory (atan 5.3 -> 63 ms a launch over 1 Mi items). Its regions
// vectorize across work-items, wider than a float4, and no frame holds more
// than the value crossing the barrier.
TEST_P(VectorizeTest, BarrierKernelsUnrollLaneLoops) {
  std::vector<std::string> Kernels;
  std::string Source;
  for (const char *F : {"atan", "cbrt", "sin"}) {
    Kernels.push_back(std::string("k_") + F);
    Source += std::string("kernel void k_") + F +
              "(global float4 *a, global float4 *b) {\n"
              "  local float4 t[64];\n"
              "  size_t i = get_global_id(0), l = get_local_id(0);\n"
              "  float4 x = a[i];\n"
              "  t[l] = " + F + "(x);\n"
              "  barrier(CLK_LOCAL_MEM_FENCE);\n"
              "  b[i] = t[63 - l] + " + F + "(x);\n"
              "}\n";
  }
  // A double4's lane loop stays a loop (no pass splits a double4 kernel),
  // which the loop vectorizer widens: unrolled, cbrt's branches kept it
  // lane by lane (15.9 -> 63.5 ms a launch).
  Source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "kernel void k_cbrt_double4(global double4 *a, global double4 *b) {\n"
            "  local double4 t[64];\n"
            "  size_t i = get_global_id(0), l = get_local_id(0);\n"
            "  t[l] = cbrt(a[i]);\n"
            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
            "  b[i] = t[63 - l];\n"
            "}\n";
  LLVMContext C;
  std::unique_ptr<Module> M = compileSource(C, Source, "");
  ASSERT_TRUE(M);
  for (const std::string &K : Kernels) {
    Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + K);
    ASSERT_NE(WG, nullptr) << K;
    if (fmaKeepsScalar(K.substr(2), false)) {
      // Without FMA cbrt's exact steps stay scalar.
      EXPECT_TRUE(callsScalarFma(*WG)) << K << " was expected scalar";
    } else if (has("+avx")) {
      expectAcrossWorkItems(K.substr(2), *WG, Type::getFloatTy(C), 4);
    } else {
      // A float4 fills an SSE register: across work-items, 4 lanes wide.
      EXPECT_GT(vectorizedLoops(*WG), 0u) << K << " was not vectorized across work-items";
      EXPECT_EQ(widestVector(*WG, Type::getFloatTy(C)), 4u) << K;
    }
    // The frame: x, crossing the barrier, in a column of 16 bytes an item.
    EXPECT_LE(wi::sizeAttr(*WG, wi::FrameSizeAttr), 16u) << K;
  }
  Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + "k_cbrt_double4");
  ASSERT_NE(WG, nullptr);
  if (fmaKeepsScalar("cbrt", true)) {
    EXPECT_TRUE(callsScalarFma(*WG)) << "k_cbrt_double4 was expected scalar";
    return;
  }
  for (Instruction &I : instructions(*WG))
    if (isa<BinaryOperator>(I) && I.getType()->isDoubleTy())
      ADD_FAILURE() << "k_cbrt_double4 has a scalar " << I.getOpcodeName();
}

// A chain of 64 dependent multiply-adds per work-item (ChainInterleavePass):
// in float the work-item loop is vectorized and interleaved; a float8, too
// wide to be split otherwise (VectorTypeScalarizerPass), is split into its
// eight chains and vectorized across work-items. Either way the FMA units
// have 8 chains in flight rather than one. A copy of the float loop, for
// work-groups too narrow for the interleaved loop, keeps one vector chain.
TEST_P(VectorizeTest, LongChainsHaveSeveralWorkItemsInFlight) {
  const std::string Source =
      "#define MAD(T, NAME) kernel void NAME(global T *p, float a, float b) { \\\n"
      "  size_t i = get_global_id(0); T v = p[i];                                \\\n"
      "  for (int k = 0; k < 64; ++k) v = v * a + b;                             \\\n"
      "  p[i] = v; }\n"
      "MAD(float, mad1)\nMAD(float8, mad8)\n";
  LLVMContext C;
  std::unique_ptr<Module> M = compileSource(C, Source, "");
  ASSERT_TRUE(M);
  // The multiply-adds on vectors (of work-items' lanes, or float8s).
  auto vectorFmas = [](Function &F) {
    unsigned N = 0;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<IntrinsicInst>(&I); Call && Call->getType()->isVectorTy() &&
                                                    (Call->getIntrinsicID() == Intrinsic::fma ||
                                                     Call->getIntrinsicID() == Intrinsic::fmuladd))
        ++N;
    return N;
  };
  Function *Mad1 = M->getFunction(std::string(wi::WorkGroupPrefix) + "mad1");
  Function *Mad8 = M->getFunction(std::string(wi::WorkGroupPrefix) + "mad8");
  ASSERT_TRUE(Mad1 && Mad8);
  EXPECT_GE(vectorFmas(*Mad1), 64u * 8) << "mad1 was not interleaved";
  // The short copy, vectorized: its vector loop and its remainder.
  EXPECT_GE(loopsWith(*Mad1, ChainInterleavePass::ShortLoopMD), 1u);
  EXPECT_GE(vectorFmas(*Mad8), 64u * 8) << "mad8's chains are not side by side";
  EXPECT_GE(loopsWith(*Mad8, "llvm.loop.isvectorized"), 1u) << "mad8 was not vectorized";
}

// Work-item queries on a path only some work-items take (after a bounds
// check, or after a barrier inside a loop that some leave) read the
// work-group context. Its loads must leave the x loop, not become a gather
// of one address in every lane.
TEST_P(VectorizeTest, ConditionalQueriesAreHoistedNotGathered) {
  LLVMContext C;
  std::unique_ptr<Module> M = compileSource(C, R"(
    kernel void k_bounds(global float *out, int n) {
      int i = get_global_id(0);
      if (i < n)
        out[i] = (float)(get_global_size(0) + get_group_id(0) * get_local_size(0));
    }
    kernel void k_loop(global const float *a, global const float *b, global float *c, int n) {
      int col = get_global_id(0), row = get_global_id(1);
      float acc = 0.0f;
      for (int k = 0; k < n; ++k) {
        barrier(0);
        acc += a[row * n + k] * b[k * n + col];
      }
      c[row * n + col] = acc;
    })",
                                            "");
  ASSERT_TRUE(M);
  for (const char *K : {"k_bounds", "k_loop"}) {
    Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + K);
    ASSERT_NE(WG, nullptr) << K;
    EXPECT_GT(vectorizedLoops(*WG), 0u) << K;
    for (Instruction &I : instructions(*WG)) {
      if (auto *Call = dyn_cast<IntrinsicInst>(&I)) {
        EXPECT_NE(Call->getIntrinsicID(), Intrinsic::masked_gather)
            << K << ": a gather in the work-group function";
      }
    }
  }
}

} // namespace weft::compiler::test

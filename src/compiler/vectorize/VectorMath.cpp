#include "compiler/vectorize/VectorMath.h"

#include <llvm/ADT/Triple.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/DynamicLibrary.h>

#include <array>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::VectorMath {

namespace {

// A libm function the builtins call: its name, whether it is a float one,
// its argument count, and whether Clang calls it as an LLVM intrinsic too
// (llvm.exp2.f32). Vector names the libmvec function whose forms replace
// its calls (their names add the ISA and width), when it is not the same:
// the double functions' _Float64 names (expf64) are what the float
// builtins computed in double call (Math.cl), so that their double forms
// can serve the float builtins while the double builtins keep glibc's
// scalar forms.
struct Function {
  const char *Scalar;
  bool Float;
  unsigned Arity;
  bool Intrinsic;
  const char *Vector = nullptr;
};

// Only the forms that meet the OpenCL C bound (OpenCL C 3.0, 7.4) with an
// ulp to spare. Measured: the worst error over every 7th float bit pattern,
// or over 20 million doubles (half of them within 2^±30), against a wider
// reference, of the SSE, AVX2 and AVX-512 forms.
//   float                  worst (bound)         double               worst (bound)
//   acos asinh atan atanh  2.48 2.12 2.76 2.08    acos acosh asin      1.99 2.68 2.67
//                          (4 4 5 5)              asinh atan atanh     2.68 2.56 2.44
//                                                                      (4 4 4 4 5 5)
//   sinh cosh tanh         2.01 2.45 1.37 (4 4 5) sinh cosh tan tanh   2.07 1.92 3.44 2.16
//                                                                      (4 4 5 5)
//   erf erfc               4.00 1.76 (16)         erf erfc             2.51 1.77 (16)
//   exp2 sin cos           1.08 2.47 2.38 (3 4 4) exp2 exp10           1.64 1.55 (3)
//                                                 log log2 log10       1.55 1.81 1.90 (3)
//   atan2 hypot pow        3.66 1.38 0.72 (6 4 16) atan2 hypot pow    2.32 1.93 1.00 (6 4 16)
// cbrt (2.77 in double) is followed by a Newton step in Math.cl; exp,
// expm1 and log1p (3.10, 2.96, 2.44) serve only float builtins, computed in
// double. Not used: double sin and cos (3.70, 3.63 of 4) and log1p, which
// take SLEEF's forms (below), double exp and expm1 (Math.cl has its own),
// and the float forms of acosh, asin, cbrt, exp, exp10, expm1, log, log2,
// log10, log1p and tan (2.44 of 3 to 3.92 of 5, some beyond: log 3.87 of 3,
// cbrt 2.85 of 2), whose float builtins compute in double. lgamma, tgamma
// and remainder have no libmvec forms.
// clang-format off
constexpr Function Functions[] = {
    {"acosf", true, 1, false},            {"acos", false, 1, false},
    {"acosh", false, 1, false},           {"asin", false, 1, false},
    {"asinhf", true, 1, false},           {"asinh", false, 1, false},
    {"atanf", true, 1, false},            {"atan", false, 1, false},
    {"atanhf", true, 1, false},           {"atanh", false, 1, false},
    {"cbrt", false, 1, false},
    {"sinhf", true, 1, false},            {"sinh", false, 1, false},
    {"coshf", true, 1, false},            {"cosh", false, 1, false},
    {"tan", false, 1, false},
    {"tanhf", true, 1, false},            {"tanh", false, 1, false},
    {"erff", true, 1, false},             {"erf", false, 1, false},
    {"erfcf", true, 1, false},            {"erfc", false, 1, false},
    {"exp2f", true, 1, true},             {"exp2", false, 1, true},
    {"exp10", false, 1, false},
    {"expf64", false, 1, false, "exp"},   {"expm1f64", false, 1, false, "expm1"},
    {"log", false, 1, true},              {"log2", false, 1, true},
    {"log10", false, 1, true},            {"log1pf64", false, 1, false, "log1p"},
    {"sinf", true, 1, true},              {"cosf", true, 1, true},
    {"atan2f", true, 2, false},           {"atan2", false, 2, false},
    {"hypotf", true, 2, false},           {"hypot", false, 2, false},
    {"powf", true, 2, true},              {"pow", false, 2, true},
};
// clang-format on

// Double functions whose vector forms come from SLEEF (libsleef3), whose
// 1.0-ulp forms are Sleef_<Base>d<lanes>_u10<isa>. Scalar is the name the
// builtins call (and the LLVM intrinsic of it, when Intrinsic). Measured as
// above over the whole double range: sin 0.73, cos 0.73 (bound 4), log1p
// 0.72 (2), tgamma 1.52 (16), lgamma within 1e-15 of the result near its
// zeros below -2 (490 ulp there; no bound). Float tgamma and lgamma compute
// in double with these (SLEEF's float tgamma is 24610 ulp near -38).
// Sleef_lgamma_u10 is SLEEF's scalar lgamma, which the builtin calls because
// glibc's lgamma writes the global signgam. Not used: SLEEF's remainder and
// fmod, NaN once x/y overflows (Math.cl's remainder is remquo's core).
struct SleefFunction {
  const char *Scalar;
  bool Intrinsic;
  const char *Base;
};
constexpr SleefFunction SleefFunctions[] = {{"sin", true, "sin"},
                                            {"cos", true, "cos"},
                                            {"log1p", false, "log1p"},
                                            {"tgamma", false, "tgamma"},
                                            {SleefScalarLgamma, false, "lgamma"}};

// An instruction set of vector forms: its register width, what the target
// needs (null for SSE2, which x86-64 always has) and its name in the forms'
// names. Each list is best first within a width; a target takes, for each
// width, the first set it has.
struct Isa {
  unsigned Bits;
  const char *Feature;
  const char *Name;
};

// libmvec's: the mangling letters of the x86-64 vector function ABI.
constexpr std::array<Isa, 4> LibmvecIsas = {
    {{128, nullptr, "b"}, {256, "+avx2", "d"}, {256, "+avx", "c"}, {512, "+avx512f", "e"}}};

// SLEEF's (Sleef_sind2_u10avx2128): the forms that use FMA are about twice
// as fast as those that emulate the fused steps (sse2, sse4, avx), and as
// accurate (measured: avx2128's forms give avx2's results lane for lane but
// for sin and cos, whose worst errors are the same 0.74 and 0.78 ulp).
constexpr std::array<Isa, 6> SleefIsas = {{{128, "+avx2,+fma", "avx2128"},
                                           {128, "+sse4.1", "sse4"},
                                           {128, nullptr, "sse2"},
                                           {256, "+avx2,+fma", "avx2"},
                                           {256, "+avx", "avx"},
                                           {512, "+avx512f", "avx512f"}}};

// Every mapping of every instruction set, built once: the names must
// outlive each TargetLibraryInfoImpl that refers to them.
struct Table {
  std::deque<std::string> Names;
  std::array<std::vector<VecDesc>, LibmvecIsas.size()> Libmvec;
  std::array<std::vector<VecDesc>, SleefIsas.size()> Sleef;
};

const Table &table() {
  static const Table T = [] {
    Table T;
    auto name = [&T](std::string S) -> StringRef { return T.Names.emplace_back(std::move(S)); };
    for (const Function &F : Functions) {
      std::vector<StringRef> ScalarNames = {name(F.Scalar)};
      if (F.Intrinsic) {
        // The libm name without its float suffix, as in llvm.exp2.f32.
        std::string Base = F.Float ? std::string(F.Scalar, std::strlen(F.Scalar) - 1) : F.Scalar;
        ScalarNames.push_back(name("llvm." + Base + (F.Float ? ".f32" : ".f64")));
      }
      for (size_t I = 0; I < LibmvecIsas.size(); ++I) {
        unsigned Lanes = LibmvecIsas[I].Bits / (F.Float ? 32 : 64);
        StringRef Vector =
            name("_ZGV" + std::string(LibmvecIsas[I].Name) + "N" + std::to_string(Lanes) +
                 std::string(F.Arity, 'v') + "_" + (F.Vector ? F.Vector : F.Scalar));
        for (StringRef S : ScalarNames)
          T.Libmvec[I].push_back({S, Vector, ElementCount::getFixed(Lanes)});
      }
    }
    for (const SleefFunction &F : SleefFunctions) {
      std::vector<StringRef> ScalarNames = {name(F.Scalar)};
      if (F.Intrinsic)
        ScalarNames.push_back(name("llvm." + std::string(F.Scalar) + ".f64"));
      for (size_t I = 0; I < SleefIsas.size(); ++I) {
        unsigned Lanes = SleefIsas[I].Bits / 64;
        StringRef Vector = name("Sleef_" + std::string(F.Base) + "d" + std::to_string(Lanes) +
                                "_u10" + SleefIsas[I].Name);
        for (StringRef S : ScalarNames)
          T.Sleef[I].push_back({S, Vector, ElementCount::getFixed(Lanes)});
      }
    }
    return T;
  }();
  return T;
}

// Adds to TLII the forms of the best set of Isas that TM's target has, for
// each width; Forms[I] are the forms of Isas[I].
template <size_t N>
void addBest(TargetLibraryInfoImpl &TLII, const TargetMachine &TM, const std::array<Isa, N> &Isas,
             const std::array<std::vector<VecDesc>, N> &Forms) {
  const MCSubtargetInfo *STI = TM.getMCSubtargetInfo();
  unsigned Done = 0; // the widths mapped, as a mask of Bits / 128
  for (size_t I = 0; I < N; ++I) {
    unsigned Width = Isas[I].Bits / 128;
    if ((Done & Width) || (Isas[I].Feature && !STI->checkFeatures(Isas[I].Feature)))
      continue;
    Done |= Width;
    TLII.addVectorizableFunctions(Forms[I]);
  }
}

} // namespace

bool available() {
  static const bool Loaded = [] {
    std::string Error;
    return sys::DynamicLibrary::getPermanentLibrary(LibraryName, &Error).isValid();
  }();
  return Loaded;
}

void addMappings(TargetLibraryInfoImpl &TLII, const TargetMachine &TM) {
  if (TM.getTargetTriple().getArch() != Triple::x86_64)
    return;
  if (available())
    addBest(TLII, TM, LibmvecIsas, table().Libmvec);
  addBest(TLII, TM, SleefIsas, table().Sleef);
}

} // namespace weft::compiler::VectorMath
